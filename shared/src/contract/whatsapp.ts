import { z } from 'zod';
import { type Role, RUN_STATUSES, WHATSAPP_STATES } from '../constants';
import { normalizePhone } from '../format';
import {
  idField,
  optionalId,
  optionalText,
  pagedOf,
  pageQuery,
  requiredNumber,
  searchQuery,
  wholeNumber,
} from './common';

/** §4 Account creation flow: id-{timestamp}-{random 0-9999}. */
export const DEVICE_ID_PATTERN = /^id-\d{10,16}-\d{1,4}$/;

/** "{field} is required." when absent, "{field} must be text." when given as anything else. */
const textOf = (field: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? `${field} is required.` : `${field} must be text.`,
  });

/** A device id (§4: id-{timestamp}-{random}) under the name the body gives it. */
const deviceIdField = (field: string) =>
  textOf(field).trim().regex(DEVICE_ID_PATTERN, `${field} must look like id-{timestamp}-{number}.`);

const deviceId = deviceIdField('deviceId');

const phone62 = (label: string) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .transform((v, ctx) => {
      const n = normalizePhone(v);
      if (!n || !/^62/.test(v.replace(/^\+/, ''))) {
        ctx.addIssue({ code: 'custom', message: `${label} must start with 62, like 6281xxxxxxx.` });
        return z.NEVER;
      }
      return n;
    });

/** POST /admin/whatsapp/new-client. */
/** The WhatsApp engines an account can log in with (the simulator stands in for both in tests). */
export const WA_ENGINES = ['wwebjs', 'baileys'] as const;
export type WaEngine = (typeof WA_ENGINES)[number];

export const newClientBody = z.object({
  deviceId,
  userId: optionalId('userId'),
  previousDeviceId: z.preprocess(
    (v) => (v === null || v === '' ? undefined : v),
    deviceIdField('previousDeviceId').optional(),
  ),
  phoneNumber: z.preprocess((v) => (v === null || v === '' ? undefined : v), phone62('Phone number').optional()),
  /**
   * the engine the account runs on (admin and dev only): 'wwebjs' (a Chromium per account) or
   * 'baileys' (browserless); absent, the installation's default (WA_DRIVER)
   */
  engine: z.preprocess(
    (v) => (v === null || v === '' ? undefined : v),
    z.enum(WA_ENGINES, { error: 'Engine must be "wwebjs" or "baileys".' }).optional(),
  ),
});

/**
 * Unsaved logins one user may have at once (new-client until save, remove-client or expiry): each
 * is a browser on a worker, so members and staff get a couple, admin and dev more for support work.
 */
export const LOGIN_CAPS: Record<Role, number> = { member: 2, staff: 2, admin: 10, dev: 10, client: 0 };

/** The refusals of new-client past a cap (429). */
export const LOGIN_TEXTS = {
  userCap: (cap: number) =>
    `You already have ${cap} WhatsApp logins in progress. Finish or cancel one, or wait until its code expires.`,
  workersBusy: 'Every WhatsApp worker is busy with other logins. Try again in a minute.',
  noWorker: 'No WhatsApp worker is running. Try again in a minute.',
  /**
   * A login whose connection failed before it showed a code (qr-new-client answers 502 with it, the
   * `error` live event carries it). `detail` is a short code (ENOTFOUND, ERR_PROXY_CONNECTION_FAILED,
   * HTTP 407…), never the proxy's address or credentials: members read these too.
   */
  unreachable: (detail: string, viaProxy: boolean) =>
    viaProxy
      ? `WhatsApp could not be reached through the proxy (${detail}). Try again, or ask an admin to check the proxy.`
      : `WhatsApp could not be reached (${detail}). Check the worker's network and try again.`,
  proxyRefused: (detail: string) =>
    `The proxy refused the connection (${detail}). Try again, or ask an admin to check the proxy.`,
  proxyAuth: (detail: string) =>
    `The proxy refused its username or password (${detail}). Ask an admin to check the proxy.`,
  timedOut: (seconds: number, viaProxy: boolean) =>
    viaProxy
      ? `WhatsApp did not answer through the proxy within ${seconds} s. Try again, or ask an admin to check the proxy.`
      : `WhatsApp did not answer within ${seconds} s. Check the worker's network and try again.`,
} as const;

/** POST /admin/whatsapp/remove-client. */
export const removeClientBody = z.object({ deviceId });
export const deviceIdParam = deviceId;

/** POST /admin/whatsapp/save: the account the browser heard `authenticated` for. */
export const saveWhatsappBody = z.object({
  clientid: deviceIdField('clientid'),
  phonenumber: optionalText('phonenumber', 32),
  pushname: optionalText('pushname', 255),
  server: optionalText('server', 64),
  serialized: optionalText('serialized', 128),
  /** informative only: the account gets the proxy its login was given at new-client */
  proxyId: optionalId('proxyId'),
  user_id: optionalId('user_id'),
  /** the id of the account this login reconnects; absent or 0 when it is a new account */
  reconnect: optionalId('reconnect', { zeroIsAbsent: true }),
});

/** The receivers token that stands for the active target numbers (§2 Blaster form: 'All'). */
export const ALL_RECEIVERS = 'All';

/**
 * Receivers of one send-message/1: a member only active target numbers, at most 100 ('All' is the
 * 100 least recently sent; a blast reaches the rest); admin and dev any numbers, at most 1000.
 */
export const SEND_CAPS: Record<Role, number> = { member: 100, staff: 0, admin: 1000, dev: 1000, client: 0 };

/** The answers and refusals of send-message/1. */
export const SEND_TEXTS = {
  queued: 'Pesan blaster berhasil dikirim ke target.',
  notTargets: (numbers: string[], more: number) =>
    `Receivers must be active target numbers: ${numbers.join(', ')}${more ? ` and ${more} more` : ''}.`,
  memberCap: (cap: number) => `A member can send to at most ${cap} receivers at once. Start a blast to reach the rest.`,
  cap: (cap: number) => `At most ${cap} receivers per message.`,
  backlog: (sender: string, waiting: number) =>
    `${sender} still has ${waiting} messages waiting to be sent. Send more once they are through.`,
} as const;

/** A number or a numeric string as text (a script may send 6281… as a JSON number). */
const numberAsText = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v);

/** POST /admin/whatsapp/send-message/1 (the blaster form). */
export const sendMessageBody = z.object({
  senders: z.preprocess(
    (v) => numberAsText(Array.isArray(v) ? v[0] : v),
    z
      .string({
        error: (i) => (i.input === undefined || i.input === null ? 'Sender is required.' : 'Sender must be text.'),
      })
      .trim()
      .min(1, 'Sender is required.'),
  ),
  /** comma-joined numbers (or an array of them); 'All' for the active target numbers */
  targets: z.preprocess(
    (v) => (Array.isArray(v) ? v.map(numberAsText).join(',') : numberAsText(v)),
    z
      .string({
        error: (i) =>
          i.input === undefined || i.input === null ? 'Receivers are required.' : 'Receivers must be text.',
      })
      .trim()
      .min(1, 'Receivers are required.')
      .max(200_000, 'Receivers are too long.'),
  ),
  message: z
    .string({
      error: (i) => (i.input === undefined || i.input === null ? 'Message is required.' : 'Message must be text.'),
    })
    .trim()
    .min(1, 'Message is required.')
    .max(4096, 'Message must be at most 4096 characters.'),
});

/** The answer of send-message/1: the sends are queued as one job on the sender's worker. */
export interface SendMessageResult {
  msg: string;
  jobId: string;
  /** how many receivers the job sends to */
  count: number;
}

/** GET /admin/phonenumber/receivers: the blaster form's receiver choices. */
export const receiversQuery = z.object({
  search: searchQuery(),
  /** how many choices, 100 when absent or empty */
  limit: z.preprocess((v) => (v === '' ? undefined : v), requiredNumber('limit', 1, 100).default(100)),
});

/** An active target number as the blaster form offers it: no counts, no dates. */
export interface ReceiverDto {
  id: number;
  number: string;
  name: string;
}

export const accountIdBody = z.object({ id: idField('id') });

/**
 * Why a blast cannot start or go on. The spec gives no texts for these cases, so they follow its
 * Indonesian; the server answers a start with them and the worker ends a blast with them.
 */
export const BLAST_TEXTS = {
  // no final stop: the list shows a refusal followed by '! Silahkan coba lagi.' (§4)
  noTemplate: 'Belum ada template pesan yang aktif',
  noTargets: 'Tidak ada nomor tujuan yang belum dikirimi pesan',
  started: 'Blast dimulai.',
  stopped: 'Blast dihentikan.',
  /** the loop failed on its own error (not an outage, which it waits out) */
  failed: (why: string) => `Blast berhenti karena kesalahan: ${why}`,
} as const;

/** Account safety: why an account was paused, and the refusal of a start while it is (our texts). */
export const SAFETY_TEXTS = {
  failStreak: (n: number) => `Gagal kirim ${n}x berturut-turut`,
  rateLimited: 'WhatsApp membatasi kecepatan kirim (rate limit)',
  restricted: (reason: string) => `Akun dibatasi WhatsApp: ${reason}`,
  drops: (n: number, minutes: number) => `Koneksi terputus ${n}x dalam ${minutes} menit`,
  paused: (until: string) => `Akun dijeda sampai ${until}`,
  /** the daily cap is reached: the blast ends for the day */
  dailyCap: 'Limit harian tercapai',
  /** the account's daily budget of number checks is used up: the generator or validator stops */
  checkBudget: 'Batas cek nomor harian akun tercapai',
  pauseLifted: 'Jeda dicabut.',
} as const;

/** POST /admin/whatsapp/start-blasting and /stop-blasting (§7): the account by its client id. */
export const blastBody = z.object({
  whatsappClientId: deviceIdField('whatsappClientId'),
  /** the browser's socket (unused by the server); scripts send it as a number too */
  socketClientId: z.preprocess(
    numberAsText,
    z
      .string({ error: 'socketClientId must be text or a number.' })
      .max(100, 'socketClientId must be at most 100 characters.')
      .optional(),
  ),
  loop: z.preprocess(
    (v) => (v === 'true' || v === 1 || v === '1' ? true : v === 'false' || v === 0 || v === '0' ? false : v),
    z.boolean({ error: 'loop must be true or false.' }).optional(),
  ),
  /** start-blasting: a scheduled start (ISO time with its offset, at most 30 days ahead); absent or past: now */
  start_at: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .string({ error: 'start_at must be a date and time.' })
      .datetime({ offset: true, message: 'start_at must be a date and time like 2026-11-25T08:00:00+07:00.' })
      .transform((v) => new Date(v))
      .refine((d) => d.getTime() <= Date.now() + 30 * 86_400_000, 'start_at must be within 30 days.')
      .optional(),
  ),
});

/** PUT /admin/whatsapp/interval: the seconds between two sends of this account. */
export const intervalBody = z.object({
  id: idField('id'),
  interval: wholeNumber('interval', 0, 86_400),
});

/** PUT /admin/whatsapp/status: sets the run status (a repair tool for admin and dev). */
export const statusBody = z.object({
  id: idField('id'),
  status: z.enum(RUN_STATUSES, { error: 'status must be idle or sending' }),
});

/** The 'Filter Status' choices (§2): a state, or 'sending' for accounts that are blasting. */
export const WHATSAPP_FILTERS = [
  'connected',
  'loggedOut',
  'conflict',
  'disconnected',
  'unknown',
  'sending',
  'suspended',
] as const;

export const whatsappListQuery = pageQuery.extend({
  user_id: optionalId('user_id'),
  synced: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).optional(),
  status: z.preprocess(
    (v) => (v === '' || v === 'all' || v === 'Semua' ? undefined : v),
    z.enum(WHATSAPP_FILTERS, { error: 'status is not a known state' }).optional(),
  ),
});

/** GET /admin/whatsapp/list/{userId}: `synced=true|1` lists only synced accounts. */
export const syncedQuery = z.object({ synced: z.enum(['true', '1', 'false', '0']).optional() });

const int = () => z.number().int();
const iso = (what: string) => z.string().nullable().describe(`${what} (ISO time)`);

/** A saved WhatsApp account as the API returns it. */
export const whatsappDto = z.object({
  id: int(),
  clientid: z.string().describe('the device id it logged in with (id-{timestamp}-{number})'),
  deviceId: z.string().describe('the same as clientid'),
  userId: int(),
  user_id: int(),
  previousDeviceId: z.string().nullable(),
  phonenumber: z.string().nullable(),
  pushname: z.string().nullable(),
  server: z.string().nullable(),
  serialized: z.string().nullable(),
  proxyId: int().nullable(),
  reconnect: int(),
  interval: int().nullable().describe('seconds between two sends of this account'),
  state: z.enum(WHATSAPP_STATES).nullable(),
  status: z.enum(RUN_STATUSES).describe("'sending' while a blast runs"),
  count_success: int(),
  count_fail: int(),
  income: int(),
  suspended: z.boolean(),
  suspended_count: int(),
  paused_until: iso('account safety: no blast until this time after ban signals; null when not paused'),
  pause_reason: z.string().nullable(),
  waiting_reason: z
    .string()
    .nullable()
    .describe("why its running blast waits on the installation (e.g. 'Menunggu Redis…'); null when it does not"),
  daily_cap: int().describe('blast messages it may send today (the warm-up cap)'),
  sent_today: int().describe('blast messages it sent today'),
  scheduled_at: iso('a scheduled blast starts sending at this time; null when none is scheduled'),
  engine: z
    .enum(WA_ENGINES)
    .nullable()
    .describe(
      'the engine its session runs on; null: whatsapp-web.js (an account from before engines) or the simulator',
    ),
  createdAt: z.string().describe('ISO time'),
  User: z
    .object({ firstname: z.string(), lastname: z.string(), email: z.string() })
    .optional()
    .describe('the owner, on lists'),
});
export type WhatsappDto = z.infer<typeof whatsappDto>;

/** POST /admin/whatsapp/new-client (201): the login is queued on a worker. */
export const newClientResponse = z.object({
  proxyId: int().nullable().describe('the proxy the login goes through'),
  deviceId: z.string(),
});

/** POST /admin/whatsapp/remove-client */
export const removeClientResponse = z.object({
  deviceId: z.string(),
  removed: z.boolean().describe('false when no worker ran the login'),
});

/** GET /admin/whatsapp/qr-new-client/{deviceId}: waits up to 120 s for the worker's first code. */
export const qrResponse = z.object({
  qr: z.string().nullable().describe('the text to show as a QR code for the phone to scan'),
  code: z
    .string()
    .nullable()
    .describe('the pairing code to type on the phone, when new-client was given a phoneNumber'),
});

/** GET /admin/whatsapp/client-state/{deviceId}: poll it until `connected`, then save. */
export const clientStateResponse = z.object({
  state: z.string().describe(`the login's WhatsApp state: ${WHATSAPP_STATES.join(', ')}`),
});

/** POST /admin/whatsapp/save (201) and GET /admin/whatsapp/{id}. */
export const whatsappResponse = z.object({ whatsapp: whatsappDto });

/** GET /admin/whatsapp/list and /list/{userId}. */
export const whatsappList = z.object({ list: z.array(whatsappDto) });

/** GET /admin/whatsapp/list-per-page */
export const whatsappPage = pagedOf(whatsappDto);

/** POST /admin/whatsapp/start-blasting and /stop-blasting: the message and the account as it is now. */
export const blastResponse = z.object({ msg: z.string(), data: whatsappDto });

/** PUT status and interval, POST reset, activate and reconnect: the account as it is now. */
export const accountResponse = z.object({ data: whatsappDto });

/** The schema of SendMessageResult. */
export const sendMessageResult = z.object({
  msg: z.string(),
  jobId: z.string(),
  count: z.number().int().describe('how many receivers the job sends to'),
});

/** GET /admin/whatsapp/listen-message-created/{id}: the account's latest message log row, or null. */
export const latestMessageResponse = z.object({ message: z.record(z.string(), z.unknown()).nullable() });

/** The schema of ReceiverDto. */
export const receiverDto = z.object({ id: z.number().int(), number: z.string(), name: z.string() });

/** GET /admin/phonenumber/receivers */
export const receiversResponse = z.object({ list: z.array(receiverDto) });

/** POST /admin/whatsapp/lift-pause: the success text and the account as it is now. */
export const pauseLiftedResponse = z.object({ msg: z.string(), data: whatsappDto });
