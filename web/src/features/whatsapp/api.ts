import {
  type newClientBody,
  type Paged,
  QR_REQUEST_TIMEOUT_MS,
  type ReceiverDto,
  type SendMessageResult,
  type saveWhatsappBody,
  WHATSAPP_FILTERS,
  type WhatsappDto,
} from '@wa/shared';
import type { z } from 'zod';
import { ApiCallError, call } from '../../api/client';

export type WhatsappFilter = (typeof WHATSAPP_FILTERS)[number];

/** ?s= holds either a status filter (one of the 'Filter Status' values) or a search text (§2). */
export function splitS(s: string): { search?: string; status?: WhatsappFilter } {
  if (!s) return {};
  return (WHATSAPP_FILTERS as readonly string[]).includes(s) ? { status: s as WhatsappFilter } : { search: s };
}

export interface ListQuery {
  page: number;
  userId?: number;
  search?: string;
  status?: WhatsappFilter;
}

export type SaveBody = z.output<typeof saveWhatsappBody>;
/** POST new-client, as the shared contract reads it (`engine` only from admin and dev). */
export type NewClientBody = z.output<typeof newClientBody>;

/** Rejects with 'Request timed out' (§8) when `p` has not settled after `ms`. */
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ApiCallError('Request timed out', 504)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

const qs = (q: Record<string, string | number | boolean | undefined>) =>
  Object.entries(q)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** §7 WhatsApp: /api/admin/whatsapp/… */
export const whatsappApi = {
  page: (q: ListQuery) =>
    call<Paged<WhatsappDto>>(
      `/admin/whatsapp/list-per-page?${qs({ page: q.page, user_id: q.userId, search: q.search, status: q.status })}`,
      { fallback: 'Error fetching WhatsApp list' },
    ),
  get: (id: number) =>
    call<{ whatsapp: WhatsappDto }>(`/admin/whatsapp/${id}`, { fallback: 'Error fetching WhatsApp list' }),
  newClient: (body: NewClientBody) =>
    call<{ proxyId: number | null; deviceId: string }>('/admin/whatsapp/new-client', {
      method: 'POST',
      body,
      fallback: 'Error creating client',
    }),
  removeClient: (deviceId: string) =>
    call<{ deviceId: string; removed: boolean }>('/admin/whatsapp/remove-client', {
      method: 'POST',
      body: { deviceId },
      fallback: 'Error removing client',
    }),
  /** waits for the worker's QR or pairing code; 120 s at most (§9) */
  qr: (deviceId: string) =>
    withTimeout(
      call<{ qr: string | null; code: string | null }>(
        `/admin/whatsapp/qr-new-client/${encodeURIComponent(deviceId)}`,
        {
          fallback: 'Error fetching QR code',
        },
      ),
      QR_REQUEST_TIMEOUT_MS,
    ),
  save: (body: SaveBody) =>
    call<{ whatsapp: WhatsappDto }>('/admin/whatsapp/save', { method: 'POST', body, fallback: 'No Data' }),
  reset: (id: number) =>
    call<{ data: WhatsappDto }>('/admin/whatsapp/reset', { method: 'POST', body: { id }, fallback: 'Error resetting' }),
  activate: (id: number) =>
    call<{ data: WhatsappDto }>('/admin/whatsapp/activate', {
      method: 'POST',
      body: { id },
      fallback: 'Error activating',
    }),
  reconnect: (id: number) =>
    call<{ data: WhatsappDto }>('/admin/whatsapp/reconnect', {
      method: 'POST',
      body: { id },
      fallback: 'Error reconnecting',
    }),
  /** POST start-blasting / stop-blasting (§7); failures carry the server's error */
  /** admin and dev: an account paused after ban signals may blast again */
  liftPause: (id: number) =>
    call<{ msg: string; data: WhatsappDto }>('/admin/whatsapp/lift-pause', {
      method: 'POST',
      body: { id },
      fallback: 'Error lifting the pause',
    }),
  blast: (
    action: 'start' | 'stop',
    body: { whatsappClientId: string; socketClientId: string; loop: true; start_at?: string },
  ) =>
    call<unknown>(`/admin/whatsapp/${action}-blasting`, {
      method: 'POST',
      body,
      fallback: action === 'start' ? 'Error starting blast' : 'Error stopping blast',
    }),
  /** queues the blaster form's one-off send; it answers once queued, the holder sends paced */
  send: (body: { senders: string; targets: string; message: string }) =>
    call<SendMessageResult>('/admin/whatsapp/send-message/1', {
      method: 'POST',
      body,
      fallback: 'Error sending message',
    }),
};

/** The blaster's receiver choices: active target numbers, least recently sent first (member, admin, dev). */
export const receiversApi = {
  list: (search: string) =>
    call<{ list: ReceiverDto[] }>(`/admin/phonenumber/receivers?${qs({ search: search.trim() || undefined })}`, {
      fallback: 'Error fetching Phone Number list',
    }),
};
