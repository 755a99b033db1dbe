import { API_KEY_TEXTS, apiKeyList, createApiKeyBody, createdApiKey, revokedApiKey } from '../contract/apikeys';
import { idParam } from '../contract/common';
import { routes } from './define';

/**
 * /api/admin/apikeys: the caller's own API keys (every role; a dashboard session, not a key). Making
 * one needs the caller's current password too, so a stolen session alone makes none.
 */
export const API_KEYS = routes('apikeys', '/admin/apikeys', {
  create: {
    method: 'post',
    path: '/',
    summary: 'Create an API key (the key is shown once; a dashboard session and the current password)',
    access: 'signed-in',
    sessionOnly: API_KEY_TEXTS.noKeysWithKeys,
    body: createApiKeyBody,
    status: 201,
    response: createdApiKey,
  },
  list: {
    method: 'get',
    path: '/',
    summary: "The caller's live API keys",
    access: 'signed-in',
    sessionOnly: API_KEY_TEXTS.noKeysWithKeys,
    response: apiKeyList,
  },
  revoke: {
    method: 'delete',
    path: '/{id}',
    summary: 'Revoke an API key',
    access: 'signed-in',
    sessionOnly: API_KEY_TEXTS.noKeysWithKeys,
    params: { id: idParam },
    response: revokedApiKey,
  },
});
