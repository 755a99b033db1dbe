import type {
  ApiKeyDto,
  CreatedApiKey,
  CreatedWebhook,
  UpdateWebhookBody,
  WebhookDeliveryDto,
  WebhookDto,
} from '@wa/shared';
import { call } from '../../api/client';
import type { CreateApiKeyInput } from './api-keys';
import type { CreateWebhookInput } from './webhooks';

/** The caller's own API keys (README "API notes"): every role manages theirs from the profile. */
export const apiKeysApi = {
  list: async () => (await call<{ data: ApiKeyDto[] }>('/admin/apikeys', { fallback: 'Error fetching API keys' })).data,
  /** the answer carries the key itself: this is the only time it is seen */
  create: (body: CreateApiKeyInput) =>
    call<CreatedApiKey>('/admin/apikeys', { method: 'POST', body, fallback: 'Error creating API key' }),
  revoke: (id: number) =>
    call<{ id: number; revoked: true }>(`/admin/apikeys/${id}`, {
      method: 'DELETE',
      fallback: 'Error revoking API key',
    }),
};

/** The caller's own webhook endpoints and their deliveries (issue 13), managed from the profile. */
export const webhooksApi = {
  list: async () =>
    (await call<{ data: WebhookDto[] }>('/admin/webhooks', { fallback: 'Error fetching webhooks' })).data,
  /** the answer carries the signing secret: this is the only time it is seen */
  create: (body: CreateWebhookInput) =>
    call<CreatedWebhook>('/admin/webhooks', { method: 'POST', body, fallback: 'Error creating webhook' }),
  update: (id: number, body: UpdateWebhookBody) =>
    call<WebhookDto>(`/admin/webhooks/${id}`, { method: 'PUT', body, fallback: 'Error updating webhook' }),
  remove: (id: number) =>
    call<{ id: number; deleted: true }>(`/admin/webhooks/${id}`, {
      method: 'DELETE',
      fallback: 'Error deleting webhook',
    }),
  /** the latest deliveries, newest first */
  deliveries: async (id: number) =>
    (
      await call<{ data: WebhookDeliveryDto[] }>(`/admin/webhooks/${id}/deliveries`, {
        fallback: 'Error fetching deliveries',
      })
    ).data,
  /** queues the delivery's event again, as a new delivery */
  resend: (id: number, deliveryId: number) =>
    call<{ id: number; resend_of: number }>(`/admin/webhooks/${id}/deliveries/${deliveryId}/resend`, {
      method: 'POST',
      fallback: 'Error resending delivery',
    }),
};
