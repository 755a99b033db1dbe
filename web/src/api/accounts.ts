import type { WhatsappDto } from '@wa/shared';
import { call } from './client';

/**
 * The WhatsApp accounts other screens choose from (the blaster's senders, the generator's and
 * validator's account): GET /admin/whatsapp/list and /list/{userId}?synced=true (§7).
 */
export const accountsApi = {
  /** every account (admin and dev) */
  all: () => call<{ list: WhatsappDto[] }>('/admin/whatsapp/list', { fallback: 'Error fetching WhatsApp list' }),
  /** the connected accounts of a user */
  synced: (userId: number) =>
    call<{ list: WhatsappDto[] }>(`/admin/whatsapp/list/${userId}?synced=true`, {
      fallback: 'Error fetching WhatsApp list',
    }),
};
