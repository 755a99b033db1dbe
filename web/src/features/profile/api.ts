import type { ApiKeyDto, CreatedApiKey } from '@wa/shared';
import { call } from '../../api/client';
import type { CreateApiKeyInput } from './api-keys';

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
