import { z } from 'zod';
import { RUN_STATUSES, type WHATSAPP_STATES } from '../constants';
import { normalizePhone } from '../format';
import { idParam, optionalText } from './common';

/** §4 Account creation flow: id-{timestamp}-{random 0-9999}. */
export const DEVICE_ID_PATTERN = /^id-\d{10,16}-\d{1,4}$/;

const deviceId = z
  .string({ error: 'deviceId is required.' })
  .trim()
  .regex(DEVICE_ID_PATTERN, 'deviceId must look like id-{timestamp}-{number}.');

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

const optionalId = z.preprocess(
  (v) => (v === null || v === '' ? undefined : v),
  z.coerce.number({ error: 'must be a number' }).int().positive().optional(),
);

/** POST /admin/whatsapp/new-client. */
export const newClientBody = z.object({
  deviceId,
  userId: optionalId,
  previousDeviceId: z.preprocess((v) => (v === null || v === '' ? undefined : v), deviceId.optional()),
  phoneNumber: z.preprocess((v) => (v === null || v === '' ? undefined : v), phone62('Phone number').optional()),
});

/** POST /admin/whatsapp/remove-client. */
export const removeClientBody = z.object({ deviceId });
export const deviceIdParam = deviceId;

/** POST /admin/whatsapp/save: the account the browser heard `authenticated` for. */
export const saveWhatsappBody = z.object({
  clientid: deviceId,
  phonenumber: optionalText('phonenumber', 32),
  pushname: optionalText('pushname', 255),
  server: optionalText('server', 64),
  serialized: optionalText('serialized', 128),
  proxyId: optionalId,
  user_id: optionalId,
  /** the id of the account this login reconnects, when it is a reconnect */
  reconnect: optionalId,
});

/** POST /admin/whatsapp/send-message/1 (the blaster form). */
export const sendMessageBody = z.object({
  senders: z.preprocess(
    (v) => (Array.isArray(v) ? v[0] : v),
    z.string({ error: 'Sender is required.' }).trim().min(1, 'Sender is required.'),
  ),
  targets: z.preprocess(
    (v) => (Array.isArray(v) ? v.join(',') : v),
    z.string({ error: 'Receivers are required.' }).trim().min(1, 'Receivers are required.').max(200_000),
  ),
  message: z.string({ error: 'Message is required.' }).trim().min(1, 'Message is required.').max(4096),
});

export const accountIdBody = z.object({ id: idParam });

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
} as const;

/** POST /admin/whatsapp/start-blasting and /stop-blasting (§7): the account by its client id. */
export const blastBody = z.object({
  whatsappClientId: deviceId,
  socketClientId: z.string().max(100).optional(),
  loop: z.boolean().optional(),
});

/** PUT /admin/whatsapp/interval: the seconds between two sends of this account. */
export const intervalBody = z.object({
  id: idParam,
  interval: z.coerce
    .number({ error: 'interval must be a number' })
    .int('interval must be a whole number')
    .min(0, 'interval must be 0 or more')
    .max(86_400, 'interval must be at most 86400 seconds'),
});

/** PUT /admin/whatsapp/status: sets the run status (a repair tool for admin and dev). */
export const statusBody = z.object({
  id: idParam,
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

export const whatsappListQuery = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page must be 1 or more').max(1e9).default(1),
  user_id: optionalId,
  synced: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).optional(),
  search: z.string().trim().max(200, 'search is too long').optional(),
  status: z.preprocess(
    (v) => (v === '' || v === 'all' || v === 'Semua' ? undefined : v),
    z.enum(WHATSAPP_FILTERS, { error: 'status is not a known state' }).optional(),
  ),
});

export interface WhatsappDto {
  id: number;
  clientid: string;
  deviceId: string;
  userId: number;
  user_id: number;
  previousDeviceId: string | null;
  phonenumber: string | null;
  pushname: string | null;
  server: string | null;
  serialized: string | null;
  proxyId: number | null;
  reconnect: number;
  interval: number | null;
  state: (typeof WHATSAPP_STATES)[number] | null;
  status: (typeof RUN_STATUSES)[number];
  count_success: number;
  count_fail: number;
  income: number;
  suspended: boolean;
  suspended_count: number;
  createdAt: string;
  User?: { firstname: string; lastname: string; email: string };
}
