import { normalizePhone, normalizeRole, type WhatsappDto } from '@wa/shared';
import { Loader2, Plus, Send } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useState } from 'react';
import { ApiCallError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { inputClass } from '../../components/form-field';
import { useAuth } from '../auth/auth-context';
import { receiversApi, whatsappApi } from './api';
import { type Notice, NoticeDialog } from './dialogs';

/** §9: the selectors load after a 1 s delay. */
const SELECTOR_LOAD_DELAY_MS = 1_000;

interface Receiver {
  number: string;
  name?: string;
}

type Field = 'sender' | 'message' | 'receivers';

const labelClass = 'mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400';
const fieldError = (text?: string) => (text ? <p className="mt-1.5 text-xs text-red-500">{text}</p> : null);

/** Splits typed numbers on commas, spaces, semicolons and new lines; normalises them to 62…. */
export function parseNumbers(typed: string): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const part of typed.split(/[\s,;]+/)) {
    if (!part) continue;
    const n = normalizePhone(part);
    if (n) {
      if (!valid.includes(n)) valid.push(n);
    } else invalid.push(part);
  }
  return { valid, invalid };
}

/**
 * The blaster form (§2 Blaster form, §8 Dialogs): one connected sender of the user's own, a message,
 * and the receivers. Admin and dev pick from the active target numbers (the phone-number list is
 * theirs only); everyone can add numbers by hand, and 'All' selects every listed number.
 */
export function BlasterForm({ anySender = false }: { anySender?: boolean } = {}) {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  const privileged = role === 'admin' || role === 'dev';
  const ids = useId();
  const [senders, setSenders] = useState<WhatsappDto[] | null>(null);
  const [sender, setSender] = useState('');
  const [message, setMessage] = useState('');
  const [receivers, setReceivers] = useState<Receiver[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [typed, setTyped] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [numbersPage, setNumbersPage] = useState(0);
  const [numbersPages, setNumbersPages] = useState(0);
  const [loadingNumbers, setLoadingNumbers] = useState(false);
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  const userId = user?.id;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    const t = setTimeout(() => {
      // on /blaster admin and dev send from any connected account (the server allows them any)
      (anySender ? whatsappApi.all() : whatsappApi.synced(userId))
        .then((r) => live && setSenders(r.list.filter((a) => a.phonenumber && a.state === 'connected')))
        .catch((err) => {
          if (!live) return;
          setSenders([]);
          setLoadError(err instanceof ApiCallError ? err.message : 'Error fetching WhatsApp list');
        });
    }, SELECTOR_LOAD_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [userId, anySender]);

  const addReceivers = (list: Receiver[], select: boolean) => {
    setReceivers((rs) => {
      const have = new Set(rs.map((r) => r.number));
      return [...rs, ...list.filter((r) => !have.has(r.number))];
    });
    if (select) setSelected((s) => new Set([...s, ...list.map((r) => r.number)]));
  };

  const loadNumbers = async (page: number) => {
    setLoadingNumbers(true);
    try {
      const res = await receiversApi.page(page);
      addReceivers(
        res.data.filter((p) => p.status === 'active').map((p) => ({ number: p.number, name: p.name })),
        false,
      );
      setNumbersPage(page);
      setNumbersPages(res.meta.totalPages);
    } catch (err) {
      setLoadError(err instanceof ApiCallError ? err.message : 'Error fetching Phone Number list');
    } finally {
      setLoadingNumbers(false);
    }
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first page loads once, after the selector delay
  useEffect(() => {
    if (!privileged) return;
    const t = setTimeout(() => void loadNumbers(1), SELECTOR_LOAD_DELAY_MS);
    return () => clearTimeout(t);
  }, [privileged]);

  const addTyped = () => {
    const { valid, invalid } = parseNumbers(typed);
    if (invalid.length) {
      setErrors((e) => ({ ...e, receivers: `Nomor tidak valid: ${invalid.join(', ')}` }));
      return;
    }
    if (!valid.length) return;
    addReceivers(
      valid.map((number) => ({ number })),
      true,
    );
    setTyped('');
    setErrors((e) => ({ ...e, receivers: undefined }));
  };
  const onTypedKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      addTyped();
    }
  };

  const allSelected = receivers.length > 0 && receivers.every((r) => selected.has(r.number));
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(receivers.map((r) => r.number)));
  const toggle = (n: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(n)) next.delete(n);
      else next.add(n);
      return next;
    });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    if (!sender) next.sender = 'Sender is required.';
    if (!message.trim()) next.message = 'Message is required.';
    if (selected.size === 0) next.receivers = 'Receivers are required.';
    setErrors(next);
    if (Object.keys(next).length) return;
    setSending(true);
    try {
      const res = await whatsappApi.send({
        senders: sender,
        targets: receivers
          .filter((r) => selected.has(r.number))
          .map((r) => r.number)
          .join(','),
        message,
      });
      const failed = res.failed?.length ?? 0;
      setNotice({
        tone: 'success',
        title: 'Terkirim!',
        text: `Pesan blaster berhasil dikirim ke target.${failed ? ` Gagal terkirim ke ${failed} nomor.` : ''}`,
        button: 'Cool',
      });
    } catch (err) {
      setNotice({
        tone: 'error',
        title: 'Gagal!',
        text: err instanceof ApiCallError ? err.message : 'Error sending message',
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <section id="blaster" aria-labelledby={`${ids}-title`} className="scroll-mt-24">
      <h3 id={`${ids}-title`} className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">
        Blaster
      </h3>
      {loadError && (
        <div className="mb-4">
          <Alert tone="error">{loadError}</Alert>
        </div>
      )}
      <form onSubmit={submit} noValidate className="space-y-4" data-testid="blaster-form">
        <div>
          <label htmlFor={`${ids}-sender`} className={labelClass}>
            Choose Sender
          </label>
          <select
            id={`${ids}-sender`}
            name="sender"
            className={inputClass}
            value={sender}
            onChange={(e) => {
              setSender(e.target.value);
              setErrors((x) => ({ ...x, sender: undefined }));
            }}
            required
            aria-invalid={errors.sender ? true : undefined}
          >
            <option value="">
              {senders === null
                ? 'Loading...'
                : senders.length
                  ? 'Pilih Whatsapp pengirim'
                  : 'Tidak ada Whatsapp yang terhubung'}
            </option>
            {senders?.map((a) => (
              <option key={a.id} value={a.phonenumber ?? ''}>
                {a.pushname ? `${a.pushname} (${a.phonenumber})` : a.phonenumber}
              </option>
            ))}
          </select>
          {fieldError(errors.sender)}
        </div>

        <div>
          <label htmlFor={`${ids}-message`} className={labelClass}>
            Message
          </label>
          <textarea
            id={`${ids}-message`}
            name="message"
            rows={6}
            required
            value={message}
            onChange={(e) => {
              setMessage(e.target.value);
              setErrors((x) => ({ ...x, message: undefined }));
            }}
            aria-invalid={errors.message ? true : undefined}
            className={`${inputClass} h-auto`}
          />
          {fieldError(errors.message)}
        </div>

        <fieldset>
          <legend className={labelClass}>Choose Receivers</legend>
          <div className="flex gap-2">
            <input
              name="receiver"
              aria-label="Tambah nomor penerima"
              placeholder="6281xxxxxxx, 6282xxxxxxx"
              inputMode="tel"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              onKeyDown={onTypedKey}
              className={`${inputClass} min-w-0 flex-1`}
            />
            <Button variant="outline" size="sm" onClick={addTyped}>
              <Plus size={16} /> Tambah
            </Button>
          </div>
          <div
            className="mt-2 max-h-56 overflow-y-auto rounded-lg border border-gray-200 dark:border-gray-700"
            data-testid="receivers"
          >
            {receivers.length === 0 ? (
              <p className="p-3 text-sm text-gray-500 dark:text-gray-400">
                {privileged && (loadingNumbers || (numbersPage === 0 && !loadError))
                  ? 'Loading...'
                  : 'Belum ada nomor. Tambahkan nomor penerima di atas.'}
              </p>
            ) : (
              <ul className="divide-y divide-gray-100 text-sm dark:divide-gray-800">
                <li>
                  <label className="flex cursor-pointer items-center gap-3 px-3 py-2 font-medium text-gray-800 dark:text-white/90">
                    <input
                      type="checkbox"
                      checked={allSelected}
                      onChange={toggleAll}
                      className="h-4 w-4 accent-brand-500"
                    />
                    All
                  </label>
                </li>
                {receivers.map((r) => (
                  <li key={r.number}>
                    <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-gray-700 dark:text-gray-300">
                      <input
                        type="checkbox"
                        checked={selected.has(r.number)}
                        onChange={() => toggle(r.number)}
                        className="h-4 w-4 accent-brand-500"
                      />
                      <span className="font-mono">{r.number}</span>
                      {r.name && <span className="truncate text-gray-500 dark:text-gray-400">{r.name}</span>}
                    </label>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div className="mt-1.5 flex flex-wrap items-center justify-between gap-2 text-xs text-gray-500 dark:text-gray-400">
            <span>{selected.size} nomor dipilih</span>
            {privileged && numbersPage > 0 && numbersPage < numbersPages && (
              <button
                type="button"
                className="text-brand-500 hover:underline disabled:opacity-50"
                disabled={loadingNumbers}
                onClick={() => void loadNumbers(numbersPage + 1)}
              >
                {loadingNumbers ? 'Loading...' : 'Muat nomor lainnya'}
              </button>
            )}
          </div>
          {fieldError(errors.receivers)}
        </fieldset>

        <Button type="submit" disabled={sending}>
          {sending ? <Loader2 size={16} className="animate-spin" /> : <Send size={16} />}
          {sending ? 'Mengirim Pesan...' : 'Kirim'}
        </Button>
      </form>
      <NoticeDialog notice={notice} onClose={() => setNotice(null)} />
    </section>
  );
}
