import {
  CAMPAIGN_WEBHOOK_EVENTS,
  type CreatedWebhook,
  createWebhookBody,
  fieldErrors,
  type Role,
  WEBHOOK_CAP,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  WEBHOOK_TEXTS,
  type WebhookDeliveryDto,
  type WebhookDeliveryStatus,
  type WebhookDto,
  type WebhookEvent,
} from '@wa/shared';
import type { z } from 'zod';
import { formatWhen } from './api-keys';

/** What POST /api/admin/webhooks takes. */
export type CreateWebhookInput = z.output<typeof createWebhookBody>;

/** The texts of the profile's Webhook section (the same language as the API Key section). */
export const WEBHOOK_UI = {
  title: 'Webhook',
  intro:
    'Server mengirim (POST) peristiwa yang Anda pilih ke URL Anda dalam JSON, ditandatangani dengan secret webhook.',
  url: 'URL',
  urlPlaceholder: 'https://contoh.com/webhook',
  description: 'Keterangan',
  descriptionPlaceholder: 'mis. Integrasi CRM',
  events: 'Peristiwa',
  create: 'Tambah Webhook',
  creating: 'Menambah...',
  newSecret: 'Secret webhook baru',
  once: 'Simpan secret ini sekarang — tidak akan ditampilkan lagi.',
  signature: `Setiap pengiriman membawa header ${WEBHOOK_HEADERS.timestamp} dan ${WEBHOOK_HEADERS.signature} = sha256=HMAC-SHA256 dari "{${WEBHOOK_HEADERS.timestamp}}.{body}" dengan secret ini. Hitung ulang dan bandingkan untuk memastikan pengiriman berasal dari server ini.`,
  copy: 'Salin',
  copied: 'Secret disalin ke clipboard.',
  copyFailed: 'Gagal menyalin secret. Salin secara manual.',
  dismiss: 'Tutup',
  columns: { url: 'URL', events: 'Peristiwa', state: 'Status', lastDelivery: 'Pengiriman terakhir' },
  action: 'Aksi',
  active: 'Aktif',
  paused: 'Dijeda',
  pause: 'Jeda',
  resume: 'Lanjutkan',
  saving: 'Menyimpan...',
  remove: 'Hapus',
  removing: 'Menghapus...',
  deliveries: 'Pengiriman',
  never: 'Belum ada',
  status: { pending: 'Menunggu', delivered: 'Terkirim', failed: 'Gagal' } satisfies Record<
    WebhookDeliveryStatus,
    string
  >,
  count: (n: number) => `${n} dari ${WEBHOOK_CAP} webhook`,
  confirmTitle: 'Apakah Anda yakin ?',
  confirmText: (url: string) =>
    `Webhook ke ${url} akan dihapus beserta riwayat pengirimannya. Ini tidak bisa dibatalkan.`,
  confirm: 'Ya, Hapus.',
  cancel: 'Batal',
  fetchFallback: 'Error fetching webhooks',
  deliveriesTitle: 'Riwayat pengiriman',
  deliveriesIntro:
    'Pengiriman terbaru (maksimal 50). Kirim ulang membuat pengiriman baru dengan id peristiwa yang sama.',
  deliveryColumns: {
    event: 'Peristiwa',
    status: 'Status',
    attempts: 'Percobaan',
    http: 'HTTP',
    error: 'Error',
    time: 'Waktu',
  },
  refresh: 'Muat ulang',
  showBody: 'Lihat body',
  hideBody: 'Sembunyikan body',
  resend: 'Kirim ulang',
  resending: 'Mengirim...',
  deliveriesFallback: 'Error fetching deliveries',
} as const;

/** The create form as typed. */
export interface WebhookForm {
  url: string;
  description: string;
  events: WebhookEvent[];
}

export const EMPTY_WEBHOOK_FORM: WebhookForm = { url: '', description: '', events: [] };

const campaignEvent = (e: WebhookEvent) => (CAMPAIGN_WEBHOOK_EVENTS as readonly WebhookEvent[]).includes(e);

/**
 * The events a role may subscribe to, as the server rules (issue 22): a client only their
 * campaigns' events, admins and devs every event, anyone else every event but the campaigns'.
 */
export function webhookEventsFor(role: Role | null): readonly WebhookEvent[] {
  if (role === 'client') return CAMPAIGN_WEBHOOK_EVENTS;
  if (role === 'admin' || role === 'dev') return WEBHOOK_EVENTS;
  return WEBHOOK_EVENTS.filter((e) => !campaignEvent(e));
}

/** The events with `event` ticked or unticked, always in the order of WEBHOOK_EVENTS. */
export function toggleEvent(list: readonly WebhookEvent[], event: WebhookEvent, on: boolean): WebhookEvent[] {
  return WEBHOOK_EVENTS.filter((e) => (e === event ? on : list.includes(e)));
}

/** True for what the server could take as a webhook address at all (its role rules are its own). */
function isHttpUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The create form checked with the shared schema (and the address's shape, with the server's
 * message): the body to POST (url trimmed, description only when given), or the message under each
 * field. Whether the caller may use a plain http:// or private address is the server's call.
 */
export function createWebhookInput(
  form: WebhookForm,
): { ok: true; body: CreateWebhookInput } | { ok: false; errors: Record<string, string> } {
  const parsed = createWebhookBody.safeParse({
    url: form.url,
    events: form.events,
    description: form.description.trim() ? form.description : undefined,
  });
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  if (!errors.url && !isHttpUrl(form.url.trim())) errors.url = WEBHOOK_TEXTS.badUrl;
  if (!parsed.success || Object.keys(errors).length) return { ok: false, errors };
  const { url, events, description } = parsed.data;
  return { ok: true, body: description ? { url, events, description } : { url, events } };
}

export type BadgeTone = 'success' | 'warning' | 'error' | 'neutral';

/** A delivery status's badge colour: delivered green, pending yellow, failed red. */
export function statusTone(status: WebhookDeliveryStatus | null): BadgeTone {
  if (status === 'delivered') return 'success';
  if (status === 'pending') return 'warning';
  if (status === 'failed') return 'error';
  return 'neutral';
}

/** One row of the webhooks table, as shown. */
export interface WebhookRow {
  id: number;
  url: string;
  description: string;
  events: WebhookEvent[];
  active: boolean;
  state: string;
  /** the latest delivery's status as read (null: none yet) */
  lastStatus: string | null;
  lastTone: BadgeTone;
  lastDelivery: string;
}

export function webhookRow(dto: WebhookDto, timeZone?: string): WebhookRow {
  return {
    id: dto.id,
    url: dto.url,
    description: dto.description,
    events: dto.events,
    active: dto.active,
    state: dto.active ? WEBHOOK_UI.active : WEBHOOK_UI.paused,
    lastStatus: dto.last_status ? WEBHOOK_UI.status[dto.last_status] : null,
    lastTone: statusTone(dto.last_status),
    lastDelivery: dto.last_delivery_at ? formatWhen(dto.last_delivery_at, timeZone) : WEBHOOK_UI.never,
  };
}

/** The list after a create: the new endpoint last (the server lists oldest first), without its secret. */
export function withCreatedWebhook(list: readonly WebhookDto[], created: CreatedWebhook): WebhookDto[] {
  const { secret: _secret, ...dto } = created;
  return [...list.filter((w) => w.id !== dto.id), dto];
}

/** A set of row ids with `id` in it (`on`) or not: a new set, for React state. */
export function withId(ids: ReadonlySet<number>, id: number, on: boolean): ReadonlySet<number> {
  if (ids.has(id) === on) return ids;
  const next = new Set(ids);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

/** The list with one endpoint replaced by the server's answer to a change. */
export function withUpdatedWebhook(list: readonly WebhookDto[], updated: WebhookDto): WebhookDto[] {
  return list.map((w) => (w.id === updated.id ? updated : w));
}

/** One row of a webhook's deliveries, as shown. */
export interface DeliveryRow {
  id: number;
  event: WebhookEvent;
  status: string;
  tone: BadgeTone;
  attempts: number;
  http: string;
  error: string;
  /** when it was last tried (or made, before any attempt) */
  time: string;
  /** the JSON body, indented when it reads as JSON */
  body: string;
}

/** A body as sent, indented for reading (as it is when it is not JSON). */
export function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export function deliveryRow(dto: WebhookDeliveryDto, timeZone?: string): DeliveryRow {
  return {
    id: dto.id,
    event: dto.event,
    status: WEBHOOK_UI.status[dto.status] ?? dto.status,
    tone: statusTone(dto.status),
    attempts: dto.attempts,
    http: dto.response_status === null ? '-' : String(dto.response_status),
    error: dto.error || '-',
    time: formatWhen(dto.delivered_at ?? dto.last_attempt_at ?? dto.created_at, timeZone),
    body: prettyBody(dto.body),
  };
}
