import {
  canOpen,
  GENERATING_WAIT_S,
  type LiveMessage,
  newClientId,
  normalizeRole,
  PAIRING_COUNTDOWN_S,
  QR_COUNTDOWN_S,
  type WhatsappDto,
} from '@wa/shared';
import { Loader2, QrCode, Smartphone, TriangleAlert } from 'lucide-react';
import QRCode from 'qrcode';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { useLiveEvents } from '../../api/use-live-events';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { LiveDot } from '../../components/live-dot';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { useAuth } from '../auth/auth-context';
import { type ClientInfo, whatsappApi } from './api';
import { BlasterForm } from './blaster-form';

type Mode = 'qr' | 'code';
/** idle: the generate button; generating: waiting for the first code; showing: QR or code; saving */
type Phase = 'idle' | 'generating' | 'showing' | 'saving';

export const PHONE_62_MESSAGE = 'Nomor harus diawali 62 dan hanya berisi angka, contoh 6281xxxxxxx.';

/** §8: socket errors of the create page carry the kind of failure as a prefix. */
const ERROR_PREFIXES: Record<string, string> = {
  unhandledRejection: 'unhandledRejection : ',
  uncaughtException: 'uncaughtException : ',
  mongo: 'mongo erorr : ',
  mongoError: 'mongo erorr : ',
};

/** The pairing code as 4 characters, a dash, then the rest (§2). */
export function formatPairingCode(code: string): string {
  return code.length > 4 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

/** Digits of a typed number when it is a plausible 62… number, else null (§5 Pairing phone number). */
export function pairingNumber(typed: string): string | null {
  const digits = typed.trim().replace(/[\s\-.()]/g, '');
  return /^62\d{7,13}$/.test(digits) ? digits : null;
}

const errorText = (err: unknown, fallback: string) => (err instanceof ApiCallError ? err.message : fallback);

/**
 * /whatsapp/create 'Tambah Akun Whatsapp' (§2, §4 Account creation flow): a new device id, a QR
 * code or a pairing code from the worker, and once the socket hears `authenticated` for this device
 * the account is saved and the user goes back. ?r= reconnects an existing account; ?type= returns
 * to the generator or validator list. The blaster form sits under the login card.
 */
export function WhatsappCreatePage() {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  const navigate = useNavigate();
  const { hash } = useLocation();
  const [params] = useSearchParams();
  const reconnectId = Number(params.get('r')) || null;
  const type = params.get('type');

  const [deviceId, setDeviceId] = useState(() => newClientId());
  const [mode, setMode] = useState<Mode>('qr');
  const [phone, setPhone] = useState('');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [phase, setPhaseState] = useState<Phase>('idle');
  const [qrImage, setQrImage] = useState<string | null>(null);
  const [code, setCode] = useState<string | null>(null);
  const [seconds, setSeconds] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [previous, setPrevious] = useState<WhatsappDto | null>(null);

  // the socket handler and the async steps read these without waiting for a render
  const phaseRef = useRef<Phase>('idle');
  const activeRef = useRef<string | null>(null);
  const modeRef = useRef<Mode>('qr');
  const proxyIdRef = useRef<number | null>(null);
  const previousRef = useRef<WhatsappDto | null>(null);
  const setPhase = useCallback((p: Phase) => {
    phaseRef.current = p;
    setPhaseState(p);
  }, []);

  useEffect(() => {
    if (!reconnectId) return;
    whatsappApi
      .get(reconnectId)
      .then(({ whatsapp }) => {
        previousRef.current = whatsapp;
        setPrevious(whatsapp);
        if (whatsapp.phonenumber) setPhone(whatsapp.phonenumber);
      })
      .catch((err) => setError(errorText(err, 'Error fetching WhatsApp list')));
  }, [reconnectId]);

  // /whatsapp/create#blaster (the list's Blaster button) scrolls to the form once the layout has
  // scrolled the new route to the top
  useEffect(() => {
    if (hash !== '#blaster') return;
    const t = setTimeout(() => document.getElementById('blaster')?.scrollIntoView({ behavior: 'smooth' }), 50);
    return () => clearTimeout(t);
  }, [hash]);

  const returnTo = useCallback((): string => {
    if (type === 'generator') return '/generator/list';
    if (type === 'validator') return '/validator/list';
    const prev = previousRef.current;
    if (prev && user && prev.userId !== user.id && (role === 'admin' || role === 'dev')) {
      return `/member/whatsapp?id=${prev.userId}`;
    }
    return role && canOpen(role, '/whatsapp') ? '/whatsapp' : '/';
  }, [type, role, user]);

  /** Ends the login in progress on its worker and gets a fresh device id for the next try. */
  const abandon = useCallback(() => {
    const old = activeRef.current;
    activeRef.current = null;
    if (old) void whatsappApi.removeClient(old).catch(() => {});
    setDeviceId(newClientId());
    setQrImage(null);
    setCode(null);
    setSeconds(0);
    setPhase('idle');
  }, [setPhase]);

  // a login left behind (page closed or navigated away) is stopped on its worker
  useEffect(
    () => () => {
      const old = activeRef.current;
      activeRef.current = null;
      if (old) void whatsappApi.removeClient(old).catch(() => {});
    },
    [],
  );

  const showChallenge = useCallback(
    async (qr: string | null, pairing: string | null) => {
      if (qr) setQrImage(await QRCode.toDataURL(qr, { margin: 1, width: 264 }));
      if (pairing) setCode(pairing);
      if ((qr || pairing) && phaseRef.current === 'generating') {
        setSeconds(modeRef.current === 'qr' ? QR_COUNTDOWN_S : PAIRING_COUNTDOWN_S);
        setPhase('showing');
      }
    },
    [setPhase],
  );

  const save = useCallback(
    async (id: string, info: Partial<ClientInfo>) => {
      setPhase('saving');
      setError(null);
      const prev = previousRef.current;
      try {
        await whatsappApi.save({
          clientid: id,
          ...info,
          proxyId: proxyIdRef.current ?? undefined,
          user_id: prev?.userId ?? user?.id,
          reconnect: prev?.id ?? reconnectId ?? undefined,
        });
        activeRef.current = null;
        navigate(returnTo());
      } catch (err) {
        setError(errorText(err, 'No Data'));
        abandon();
      }
    },
    [user, reconnectId, navigate, returnTo, abandon, setPhase],
  );

  const onLive = useCallback(
    (m: LiveMessage) => {
      const p = m.payload ?? {};
      const id = activeRef.current;
      if (m.event === 'error') {
        const kind = typeof p.type === 'string' ? p.type : typeof p.kind === 'string' ? p.kind : '';
        const mine = id !== null && p.deviceId === id;
        if (!mine && !(p.deviceId === undefined && kind in ERROR_PREFIXES)) return;
        const text = String(p.message ?? p.msg ?? p.error ?? 'Error');
        setError(`${ERROR_PREFIXES[kind] ?? ''}${text}`);
        // this login is over on the server (it did not start, or no worker had room): start afresh
        if (mine && (phaseRef.current === 'generating' || phaseRef.current === 'showing')) abandon();
        return;
      }
      if (!id || p.deviceId !== id) return;
      if (m.event === 'qr' || m.event === 'code') {
        if (phaseRef.current === 'generating' || phaseRef.current === 'showing') {
          void showChallenge(typeof p.qr === 'string' ? p.qr : null, typeof p.code === 'string' ? p.code : null);
        }
      } else if (m.event === 'authenticated') {
        if (phaseRef.current === 'generating' || phaseRef.current === 'showing') {
          void save(id, (p.clientInfo ?? {}) as Partial<ClientInfo>);
        }
      }
    },
    [showChallenge, save, abandon],
  );
  const live = useLiveEvents(onLive);

  // countdowns: 15 s while generating, then 60 s (QR) or 90 s (pairing code)
  const counting = phase === 'generating' || phase === 'showing';
  useEffect(() => {
    if (!counting) return;
    const t = setInterval(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(t);
  }, [counting]);
  useEffect(() => {
    if (phase === 'showing' && seconds === 0) {
      // §4: on expiry the generate button reappears, with a new device id
      setExpired(true);
      abandon();
    }
  }, [phase, seconds, abandon]);

  const generate = async (e: FormEvent) => {
    e.preventDefault();
    if (!user || phaseRef.current !== 'idle') return;
    setError(null);
    setExpired(false);
    let phoneNumber: string | undefined;
    if (mode === 'code') {
      const n = pairingNumber(phone);
      if (!n) {
        setPhoneError(PHONE_62_MESSAGE);
        return;
      }
      phoneNumber = n;
    }
    setPhoneError(null);
    const id = deviceId;
    activeRef.current = id;
    modeRef.current = mode;
    setQrImage(null);
    setCode(null);
    setSeconds(GENERATING_WAIT_S);
    setPhase('generating');
    const prev = previousRef.current;
    try {
      const created = await whatsappApi.newClient({
        deviceId: id,
        userId: prev?.userId ?? user.id,
        previousDeviceId: prev?.clientid,
        phoneNumber,
      });
      proxyIdRef.current = created.proxyId;
      const res = await whatsappApi.qr(id);
      if (activeRef.current !== id) return;
      await showChallenge(res.qr, res.code);
    } catch (err) {
      if (activeRef.current !== id) return;
      setError(errorText(err, 'Error fetching QR code'));
      abandon();
    }
  };

  const cancel = () => {
    setExpired(false);
    abandon();
  };

  const busy = phase !== 'idle';
  const toggleClass = (on: boolean) =>
    `flex flex-1 items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition ${
      on
        ? 'bg-white text-gray-900 shadow-xs dark:bg-gray-800 dark:text-white'
        : 'text-gray-500 hover:text-gray-900 dark:text-gray-400 dark:hover:text-white'
    }`;

  return (
    <>
      <PageBreadcrumb title="Tambah Akun Whatsapp" />
      <div className="space-y-6">
        <Card className="max-w-3xl">
          <div className="mb-4 flex items-center justify-between gap-3">
            <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">Login Whatsapp</h3>
            <LiveDot connected={live.connected} />
          </div>
          {previous && (
            <div className="mb-4">
              <Alert tone="info">
                Menyambungkan ulang {previous.pushname || 'Whatsapp'} ({previous.phonenumber || previous.clientid})
              </Alert>
            </div>
          )}
          {error && (
            <div className="mb-4">
              <Alert tone="error">{error}</Alert>
            </div>
          )}
          <form onSubmit={generate} noValidate className="space-y-4">
            <FormField label="Whatsapp ID" name="deviceId" value={deviceId} readOnly />
            <fieldset>
              <legend className="mb-1.5 block text-sm font-medium text-gray-700 dark:text-gray-400">
                Metode Login
              </legend>
              <div className="flex gap-1 rounded-lg bg-gray-100 p-1 dark:bg-gray-900">
                <button
                  type="button"
                  aria-pressed={mode === 'qr'}
                  disabled={busy}
                  onClick={() => setMode('qr')}
                  className={toggleClass(mode === 'qr')}
                >
                  <QrCode size={16} /> QR Code
                </button>
                <button
                  type="button"
                  aria-pressed={mode === 'code'}
                  disabled={busy}
                  onClick={() => setMode('code')}
                  className={toggleClass(mode === 'code')}
                >
                  <Smartphone size={16} /> Nomor Telepon
                </button>
              </div>
            </fieldset>
            {mode === 'code' && (
              <FormField
                label="Nomor Telepon"
                name="phoneNumber"
                inputMode="numeric"
                autoComplete="tel"
                placeholder="6281xxxxxxx"
                value={phone}
                disabled={busy}
                onChange={(e) => {
                  setPhone(e.target.value);
                  setPhoneError(null);
                }}
                error={phoneError}
                hint="Nomor harus diawali 62."
              />
            )}

            {phase === 'idle' && (
              <>
                {expired && (
                  <Alert tone="info">
                    {mode === 'qr' ? 'QR code' : 'Kode pairing'} sudah kedaluwarsa. Silahkan generate ulang.
                  </Alert>
                )}
                <Button type="submit" className="w-full sm:w-auto">
                  {mode === 'qr' ? 'Generate QR Code' : 'Generate Pairing Code'}
                </Button>
              </>
            )}
          </form>

          {busy && (
            <div className="mt-6 space-y-4">
              <div className="flex items-start gap-2 rounded-xl border border-yellow-400 bg-yellow-50 p-3 text-sm text-yellow-800 dark:border-yellow-500/30 dark:bg-yellow-500/15 dark:text-yellow-300">
                <TriangleAlert size={18} className="mt-0.5 shrink-0" />
                Jangan tutup atau muat ulang halaman ini sampai proses selesai.
              </div>
              {phase === 'generating' && (
                <p
                  className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-300"
                  data-testid="generating"
                >
                  <Loader2 size={16} className="animate-spin" /> Generating... {seconds > 0 ? `(${seconds}s)` : ''}
                </p>
              )}
              {phase === 'showing' && (
                <div className="flex flex-col items-center gap-3 text-center">
                  {qrImage && modeRef.current === 'qr' && (
                    <>
                      <img
                        src={qrImage}
                        alt="QR Code"
                        width={264}
                        height={264}
                        className="h-auto w-full max-w-[264px] rounded-lg border border-gray-200 bg-white p-2 dark:border-gray-700"
                      />
                      <p className="max-w-sm text-sm text-gray-600 dark:text-gray-400">
                        Buka WhatsApp di ponsel, pilih Perangkat tertaut, lalu Tautkan perangkat dan pindai QR code ini.
                      </p>
                    </>
                  )}
                  {code && modeRef.current === 'code' && (
                    <>
                      <p
                        className="font-mono text-3xl font-semibold tracking-[0.2em] text-gray-800 sm:text-4xl dark:text-white/90"
                        data-testid="pairing-code"
                      >
                        {formatPairingCode(code)}
                      </p>
                      <p className="max-w-sm text-sm text-gray-600 dark:text-gray-400">
                        Buka WhatsApp di ponsel, pilih Perangkat tertaut, Tautkan perangkat, lalu Tautkan dengan nomor
                        telepon dan masukkan kode ini.
                      </p>
                    </>
                  )}
                  <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="countdown">
                    Berlaku <span className="font-semibold">{seconds}</span> detik lagi
                  </p>
                </div>
              )}
              {phase === 'saving' && (
                <p className="flex items-center gap-2 text-sm text-gray-600 dark:text-gray-300">
                  <Loader2 size={16} className="animate-spin" /> Menyimpan...
                </p>
              )}
              {phase !== 'saving' && (
                <Button variant="outline" size="sm" onClick={cancel}>
                  Batal
                </Button>
              )}
            </div>
          )}
        </Card>

        {role !== 'staff' && !type && (
          <Card className="max-w-3xl">
            <BlasterForm />
          </Card>
        )}
      </div>
    </>
  );
}
