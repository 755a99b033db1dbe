import {
  type ClientInfo,
  GENERATING_WAIT_S,
  PAIRING_COUNTDOWN_S,
  PROCESS_ERROR_PREFIXES,
  type ProcessError,
  QR_COUNTDOWN_S,
  type Role,
  WA_ENGINES,
  type WaEngine,
  type WhatsappDto,
} from '@wa/shared';
import type { NewClientBody } from './api';

export type Mode = 'qr' | 'code';
/** The 'Mesin' choice (admin and dev): the installation's default (WA_DRIVER), or one engine. */
export type EngineChoice = 'default' | WaEngine;
/** idle: the generate button; generating: waiting for the first code; showing: QR or code; saving */
export type Phase = 'idle' | 'generating' | 'showing' | 'saving';

export const PHONE_62_MESSAGE = 'Nomor harus diawali 62 dan hanya berisi angka, contoh 6281xxxxxxx.';

/** The options of 'Mesin', in the order shown; 'default' sends no `engine`. */
export const ENGINE_CHOICES: readonly { value: EngineChoice; label: string }[] = [
  { value: 'default', label: 'Bawaan server' },
  { value: 'wwebjs', label: 'whatsapp-web.js (Chromium)' },
  { value: 'baileys', label: 'Baileys (tanpa browser)' },
];

/** Who picks the engine of a login (policy `account.choose-engine`): admin and dev. */
export function canChooseEngine(role: Role | null): boolean {
  return role === 'admin' || role === 'dev';
}

/** A 'Mesin' select value as a choice; anything unknown is the server's default. */
export function engineChoice(value: string): EngineChoice {
  return (WA_ENGINES as readonly string[]).includes(value) ? (value as WaEngine) : 'default';
}

/** The pairing code as 4 characters, a dash, then the rest (§2). */
export function formatPairingCode(code: string): string {
  return code.length > 4 ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

/** Digits of a typed number when it is a plausible 62… number, else null (§5 Pairing phone number). */
export function pairingNumber(typed: string): string | null {
  const digits = typed.trim().replace(/[\s\-.()]/g, '');
  return /^62\d{7,13}$/.test(digits) ? digits : null;
}

/** §8: a process-wide failure as the create page shows it, its text after its prefix. */
export function processErrorText(p: ProcessError): string {
  return `${PROCESS_ERROR_PREFIXES[p.kind]}${p.message}`;
}

/** The login running on a worker: its device id, how it logs in, and the proxy new-client gave it. */
export interface Login {
  id: string;
  mode: Mode;
  proxyId: number | null;
}

export interface LoginState {
  /** the read-only 'Whatsapp ID': the device id the next login uses */
  deviceId: string;
  mode: Mode;
  /** the 'Mesin' choice; only admin and dev see it, and only theirs is sent */
  engine: EngineChoice;
  phone: string;
  phoneError: string | null;
  phase: Phase;
  login: Login | null;
  qrImage: string | null;
  code: string | null;
  /** the countdown: 15 s while generating, then 60 s (QR) or 90 s (pairing code) */
  seconds: number;
  error: string | null;
  /** the last code ran out: the generate button is back with a note */
  expired: boolean;
  /** the account ?r= reconnects */
  previous: WhatsappDto | null;
  /** what `authenticated` said about the account, while it is saved */
  authenticated: Partial<ClientInfo> | null;
  /** the device id whose account was saved: its login stays on the worker */
  saved: string | null;
}

export function initialLogin(deviceId: string): LoginState {
  return {
    deviceId,
    mode: 'qr',
    engine: 'default',
    phone: '',
    phoneError: null,
    phase: 'idle',
    login: null,
    qrImage: null,
    code: null,
    seconds: 0,
    error: null,
    expired: false,
    previous: null,
    authenticated: null,
    saved: null,
  };
}

/**
 * What changes the page. `id` names the login an answer or event is about: one that is no longer
 * running changes nothing. `next` is the fresh device id for the try after a login that ends.
 */
export type LoginAction =
  | { type: 'previous'; account: WhatsappDto }
  | { type: 'error'; text: string }
  | { type: 'mode'; mode: Mode }
  | { type: 'engine'; engine: EngineChoice }
  | { type: 'phone'; phone: string }
  | { type: 'phone-invalid' }
  | { type: 'start' }
  | { type: 'created'; id: string; proxyId: number | null }
  | { type: 'challenge'; id: string; qrImage: string | null; code: string | null }
  | { type: 'authenticated'; id: string; info: Partial<ClientInfo> }
  | { type: 'saved'; id: string }
  | { type: 'failed'; id: string; text: string; next: string }
  | { type: 'socket-error'; deviceId: string; text: string; next: string }
  /** §8: a process-wide failure (its text with its prefix), shown whatever login is running */
  | { type: 'process-error'; text: string }
  | { type: 'tick' }
  | { type: 'expire'; next: string }
  | { type: 'cancel'; next: string };

const waitingForPhone = (s: LoginState) => s.phase === 'generating' || s.phase === 'showing';
const isCurrent = (s: LoginState, id: string) => s.login !== null && s.login.id === id;

/** The login is over (ended, failed, expired): a fresh device id and the generate button again. */
function abandon(s: LoginState, next: string): LoginState {
  return {
    ...s,
    deviceId: next,
    login: null,
    qrImage: null,
    code: null,
    seconds: 0,
    phase: 'idle',
    authenticated: null,
  };
}

/**
 * The new-client body of the login about to start: for the account ?r= reconnects (its owner and
 * old device id) or for `userId`, with the pairing number in pairing-code mode, and `engine` only
 * when an admin or dev chose one (absent, the server's default applies; members may not send it).
 */
export function newClientRequest(
  s: Pick<LoginState, 'deviceId' | 'previous' | 'engine'>,
  opts: { userId: number; phoneNumber?: string; chooseEngine: boolean },
): NewClientBody {
  const body: NewClientBody = {
    deviceId: s.deviceId,
    userId: s.previous?.userId ?? opts.userId,
    previousDeviceId: s.previous?.clientid,
    phoneNumber: opts.phoneNumber,
  };
  if (opts.chooseEngine && s.engine !== 'default') body.engine = s.engine;
  return body;
}

/** §4 Account creation flow, one step at a time. */
export function loginReducer(s: LoginState, a: LoginAction): LoginState {
  switch (a.type) {
    case 'previous':
      return { ...s, previous: a.account, phone: a.account.phonenumber || s.phone };
    case 'error':
      return { ...s, error: a.text };
    case 'mode':
      return { ...s, mode: a.mode };
    case 'engine':
      // fixed while a login runs: its engine was chosen when new-client was called
      return s.phase === 'idle' ? { ...s, engine: a.engine } : s;
    case 'phone':
      return { ...s, phone: a.phone, phoneError: null };
    case 'phone-invalid':
      return { ...s, error: null, expired: false, phoneError: PHONE_62_MESSAGE };
    case 'start':
      if (s.phase !== 'idle') return s;
      return {
        ...s,
        error: null,
        expired: false,
        phoneError: null,
        login: { id: s.deviceId, mode: s.mode, proxyId: null },
        qrImage: null,
        code: null,
        seconds: GENERATING_WAIT_S,
        phase: 'generating',
      };
    case 'created':
      return s.login && isCurrent(s, a.id) ? { ...s, login: { ...s.login, proxyId: a.proxyId } } : s;
    case 'challenge': {
      if (!s.login || !isCurrent(s, a.id) || !waitingForPhone(s)) return s;
      const next = { ...s, qrImage: a.qrImage ?? s.qrImage, code: a.code ?? s.code };
      if (s.phase !== 'generating' || (!a.qrImage && !a.code)) return next;
      return { ...next, phase: 'showing', seconds: s.login.mode === 'qr' ? QR_COUNTDOWN_S : PAIRING_COUNTDOWN_S };
    }
    case 'authenticated':
      if (!isCurrent(s, a.id) || !waitingForPhone(s)) return s;
      return { ...s, phase: 'saving', error: null, authenticated: a.info };
    case 'saved':
      return isCurrent(s, a.id) ? { ...s, login: null, saved: a.id } : s;
    case 'failed':
      return isCurrent(s, a.id) ? abandon({ ...s, error: a.text }, a.next) : s;
    case 'socket-error':
      if (!isCurrent(s, a.deviceId)) return s;
      // this login is over on the server (it did not start, or no worker had room): start afresh
      return waitingForPhone(s) ? abandon({ ...s, error: a.text }, a.next) : { ...s, error: a.text };
    case 'process-error':
      return { ...s, error: a.text };
    case 'tick':
      return waitingForPhone(s) ? { ...s, seconds: Math.max(0, s.seconds - 1) } : s;
    case 'expire':
      // §4: on expiry the generate button reappears, with a new device id
      return s.phase === 'showing' && s.seconds === 0 ? abandon({ ...s, expired: true }, a.next) : s;
    case 'cancel':
      return abandon({ ...s, expired: false }, a.next);
  }
}
