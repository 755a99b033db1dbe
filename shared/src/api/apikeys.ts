import { apiKeyList, createApiKeyBody, createdApiKey, revokedApiKey } from '../contract/apikeys';
import { idParam } from '../contract/common';
import { routes } from './define';

/** /api/admin/apikeys: the caller's own API keys (every role; a dashboard session, not a key). */
export const API_KEYS = routes('apikeys', '/admin/apikeys', {
  create: {
    method: 'post',
    path: '/',
    summary: 'Create an API key (the key is shown once; a dashboard session, not a key)',
    access: 'signed-in',
    body: createApiKeyBody,
    status: 201,
    response: createdApiKey,
  },
  list: { method: 'get', path: '/', summary: "The caller's live API keys", access: 'signed-in', response: apiKeyList },
  revoke: {
    method: 'delete',
    path: '/{id}',
    summary: 'Revoke an API key',
    access: 'signed-in',
    params: { id: idParam },
    response: revokedApiKey,
  },
});
