import { WHATSAPP } from '@wa/shared';
import { request } from './client';

/**
 * The WhatsApp accounts other screens choose from (the blaster's senders, the generator's and
 * validator's account): GET /admin/whatsapp/list and /list/{userId}?synced=true (§7).
 */
export const accountsApi = {
  /** every account (admin and dev) */
  all: () => request(WHATSAPP.listAll, { fallback: 'Error fetching WhatsApp list' }),
  /** the connected accounts of a user */
  synced: (userId: number) =>
    request(WHATSAPP.listForUser, {
      params: { userId },
      query: { synced: 'true' },
      fallback: 'Error fetching WhatsApp list',
    }),
};
