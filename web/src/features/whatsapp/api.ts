import {
  type newClientBody,
  PHONE_NUMBERS,
  QR_REQUEST_TIMEOUT_MS,
  type saveWhatsappBody,
  WHATSAPP,
  WHATSAPP_FILTERS,
} from '@wa/shared';
import type { z } from 'zod';
import { ApiCallError, request } from '../../api/client';

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

/** §7 WhatsApp: /api/admin/whatsapp/… */
export const whatsappApi = {
  page: (q: ListQuery) =>
    request(WHATSAPP.listPerPage, {
      query: { page: q.page, user_id: q.userId, search: q.search, status: q.status },
      fallback: 'Error fetching WhatsApp list',
    }),
  get: (id: number) => request(WHATSAPP.get, { params: { id }, fallback: 'Error fetching WhatsApp list' }),
  newClient: (body: NewClientBody) => request(WHATSAPP.newClient, { body, fallback: 'Error creating client' }),
  removeClient: (deviceId: string) =>
    request(WHATSAPP.removeClient, { body: { deviceId }, fallback: 'Error removing client' }),
  /** waits for the worker's QR or pairing code; 120 s at most (§9) */
  qr: (deviceId: string) =>
    withTimeout(
      request(WHATSAPP.qr, { params: { deviceId }, fallback: 'Error fetching QR code' }),
      QR_REQUEST_TIMEOUT_MS,
    ),
  save: (body: SaveBody) => request(WHATSAPP.save, { body, fallback: 'No Data' }),
  reset: (id: number) => request(WHATSAPP.reset, { body: { id }, fallback: 'Error resetting' }),
  activate: (id: number) => request(WHATSAPP.activate, { body: { id }, fallback: 'Error activating' }),
  reconnect: (id: number) => request(WHATSAPP.reconnect, { body: { id }, fallback: 'Error reconnecting' }),
  /** admin and dev: an account paused after ban signals may blast again */
  liftPause: (id: number) => request(WHATSAPP.liftPause, { body: { id }, fallback: 'Error lifting the pause' }),
  /** POST start-blasting / stop-blasting (§7); failures carry the server's error */
  blast: (
    action: 'start' | 'stop',
    body: { whatsappClientId: string; socketClientId: string; loop: true; start_at?: string },
  ) =>
    request(action === 'start' ? WHATSAPP.startBlasting : WHATSAPP.stopBlasting, {
      body,
      fallback: action === 'start' ? 'Error starting blast' : 'Error stopping blast',
    }),
  /** queues the blaster form's one-off send; it answers once queued, the holder sends paced */
  send: (body: { senders: string; targets: string; message: string }) =>
    request(WHATSAPP.sendMessage, { body, fallback: 'Error sending message' }),
};

/** The blaster's receiver choices: active target numbers, least recently sent first (member, admin, dev). */
export const receiversApi = {
  list: (search: string) =>
    request(PHONE_NUMBERS.receivers, {
      query: { search: search.trim() || undefined },
      fallback: 'Error fetching Phone Number list',
    }),
};
