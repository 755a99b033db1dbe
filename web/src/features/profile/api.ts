import { API_KEYS, type BodyIn, WEBHOOKS } from '@wa/shared';
import { request } from '../../api/client';
import type { CreateApiKeyInput } from './api-keys';
import type { CreateWebhookInput } from './webhooks';

/** The caller's own API keys (README "API notes"): every role manages theirs from the profile. */
export const apiKeysApi = {
  list: async () => (await request(API_KEYS.list, { fallback: 'Error fetching API keys' })).data,
  /** the answer carries the key itself: this is the only time it is seen */
  create: (body: CreateApiKeyInput) => request(API_KEYS.create, { body, fallback: 'Error creating API key' }),
  revoke: (id: number) => request(API_KEYS.revoke, { params: { id }, fallback: 'Error revoking API key' }),
};

/** The caller's own webhook endpoints and their deliveries (issue 13), managed from the profile. */
export const webhooksApi = {
  list: async () => (await request(WEBHOOKS.list, { fallback: 'Error fetching webhooks' })).data,
  /** the answer carries the signing secret: this is the only time it is seen */
  create: (body: CreateWebhookInput) => request(WEBHOOKS.create, { body, fallback: 'Error creating webhook' }),
  update: (id: number, body: BodyIn<typeof WEBHOOKS.update>) =>
    request(WEBHOOKS.update, { params: { id }, body, fallback: 'Error updating webhook' }),
  remove: (id: number) => request(WEBHOOKS.remove, { params: { id }, fallback: 'Error deleting webhook' }),
  /** the latest deliveries, newest first */
  deliveries: async (id: number) =>
    (await request(WEBHOOKS.deliveries, { params: { id }, fallback: 'Error fetching deliveries' })).data,
  /** queues the delivery's event again, as a new delivery (the path's delivery id is its decimal text) */
  resend: (id: number, deliveryId: number) =>
    request(WEBHOOKS.resend, { params: { id, deliveryId: String(deliveryId) }, fallback: 'Error resending delivery' }),
};
