import {
  ALL_RECEIVERS,
  normalizePhone,
  normalizeRole,
  REFRESH_DELAY_MS,
  type ReceiverDto,
  SEND_CAPS,
  SEND_TEXTS,
  type WhatsappDto,
} from '@wa/shared';
import { Loader2, Plus, Send } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { accountsApi } from '../../api/accounts';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type Notice, NoticeDialog } from '../../components/dialogs';
import { inputClass } from '../../components/form-field';
import { useAuth } from '../auth/auth-context';
import { receiversApi, whatsappApi } from './api';

/** §9: the selectors load after a 1 s delay, and a search waits 1 s after the last key. */
const SELECTOR_LOAD_DELAY_MS = 1_000;
const SEARCH_DELAY_MS = REFRESH_DELAY_MS;

/** A receiver offered or chosen: a target number (with its name), or a number typed by admin or dev. */
type Receiver = Pick<ReceiverDto, 'number'> & Partial<Pick<ReceiverDto, 'name'>>;

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
 * The blaster form (§2 Blaster form, §8 Dialogs): one connected sender, a message, and the
 * receivers: the active target numbers (searchable, least recently sent first) and 'All'. A member
 * may send to those only, at most 100 at once ('All' being the 100 least recently sent); admin and
 * dev may also type any number. The server queues the sends and answers at once ('Terkirim!'); the
 * sender's worker sends them paced by the account's interval.
 */
export function BlasterForm({ anySender = false }: { anySender?: boolean } = {}) {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  const privileged = role === 'admin' || role === 'dev';
  const cap = role ? SEND_CAPS[role] : 0;
  const ids = useId();
  const [senders, setSenders] = useState<WhatsappDto[] | null>(null);
  const [sender, setSender] = useState('');
  const [message, setMessage] = useState('');
  /** the numbers the search offers (null while the first list loads) */
  const [options, setOptions] = useState<Receiver[] | null>(null);
  /** the numbers chosen, kept across searches, in the order they were chosen */
  const [picked, setPicked] = useState<Map<string, Receiver>>(new Map());
  const [all, setAll] = useState(false);
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [loadError, setLoadError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);

  const userId = user?.id;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    const t = setTimeout(() => {
      // on /blaster admin and dev send from any connected account (the server allows them any)
      (anySender ? accountsApi.all() : accountsApi.synced(userId))
        .then((r) => live && setSenders(r.list.filter((a) => a.phonenumber && a.state === 'connected')))
        .catch((err) => {
          if (!live) return;
          setSenders([]);
          setLoadError(errorText(err, 'Error fetching WhatsApp list'));
        });
    }, SELECTOR_LOAD_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [userId, anySender]);

  // the first list after the selector delay, then after each pause in the search box
  const firstLoad = useRef(true);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    const t = setTimeout(
      () => {
        firstLoad.current = false;
        receiversApi
          .list(search)
          .then((r) => {
            if (live) setOptions(r.list.map((p) => ({ number: p.number, name: p.name })));
          })
          .catch((err) => {
            if (!live) return;
            setOptions([]);
            setLoadError(errorText(err, 'Error fetching Phone Number list'));
          });
      },
      firstLoad.current ? SELECTOR_LOAD_DELAY_MS : SEARCH_DELAY_MS,
    );
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [userId, search]);

  const pick = (list: Receiver[]) =>
    setPicked((m) => {
      const next = new Map(m);
      for (const r of list) next.set(r.number, r);
      return next;
    });
  const toggle = (r: Receiver) =>
    setPicked((m) => {
      const next = new Map(m);
      if (next.has(r.number)) next.delete(r.number);
      else next.set(r.number, r);
      return next;
    });

  const addTyped = () => {
    const { valid, invalid } = parseNumbers(typed);
    if (invalid.length) {
      setErrors((e) => ({ ...e, receivers: `Nomor tidak valid: ${invalid.join(', ')}` }));
      return;
    }
    if (!valid.length) return;
    pick(valid.map((number) => ({ number })));
    setTyped('');
    setErrors((e) => ({ ...e, receivers: undefined }));
  };
  const onTypedKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      addTyped();
    }
  };

  // what was chosen stays in view whatever the search shows
  const shown: Receiver[] = [...picked.values()];
  for (const r of options ?? []) if (!picked.has(r.number)) shown.push(r);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Partial<Record<Field, string>> = {};
    if (!sender) next.sender = 'Sender is required.';
    if (!message.trim()) next.message = 'Message is required.';
    if (!all && picked.size === 0) next.receivers = 'Receivers are required.';
    else if (!all && picked.size > cap)
      next.receivers = role === 'member' ? SEND_TEXTS.memberCap(cap) : SEND_TEXTS.cap(cap);
    setErrors(next);
    if (Object.keys(next).length) return;
    setSending(true);
    try {
      await whatsappApi.send({
        senders: sender,
        targets: [...(all ? [ALL_RECEIVERS] : []), ...picked.keys()].join(','),
        message,
      });
      setNotice({ tone: 'success', title: 'Terkirim!', text: SEND_TEXTS.queued, button: 'Cool' });
    } catch (err) {
      setNotice({
        tone: 'error',
        title: 'Gagal!',
        text: errorText(err, 'Error sending message'),
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
          <input
            type="search"
            name="receiver-search"
            aria-label="Cari nomor penerima"
            placeholder="Cari nomor atau nama"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className={inputClass}
          />
          {privileged && (
            <div className="mt-2 flex gap-2">
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
          )}
          <div
            className="mt-2 max-h-56 overflow-y-auto rounded-lg border border-gray-200 dark:border-gray-700"
            data-testid="receivers"
          >
            <ul className="divide-y divide-gray-100 text-sm dark:divide-gray-800">
              <li>
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 font-medium text-gray-800 dark:text-white/90">
                  <input
                    type="checkbox"
                    checked={all}
                    onChange={(e) => {
                      setAll(e.target.checked);
                      setErrors((x) => ({ ...x, receivers: undefined }));
                    }}
                    className="h-4 w-4 accent-brand-500"
                  />
                  All
                </label>
              </li>
              {shown.map((r) => (
                <li key={r.number}>
                  <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-gray-700 dark:text-gray-300">
                    <input
                      type="checkbox"
                      checked={all || picked.has(r.number)}
                      disabled={all}
                      onChange={() => {
                        toggle(r);
                        setErrors((x) => ({ ...x, receivers: undefined }));
                      }}
                      className="h-4 w-4 accent-brand-500"
                    />
                    <span className="font-mono">{r.number}</span>
                    {r.name && <span className="truncate text-gray-500 dark:text-gray-400">{r.name}</span>}
                  </label>
                </li>
              ))}
            </ul>
            {shown.length === 0 && (
              <p className="p-3 text-sm text-gray-500 dark:text-gray-400">
                {options === null ? 'Loading...' : search.trim() ? 'Nomor tidak ditemukan.' : 'Belum ada nomor aktif.'}
              </p>
            )}
          </div>
          <p className="mt-1.5 text-xs text-gray-500 dark:text-gray-400">
            {all ? `Semua nomor aktif (maks. ${cap})` : `${picked.size} nomor dipilih`}
          </p>
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
