import { API_KEYS } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { ApiKeysService } from './apikeys.service';

/**
 * /api/admin/apikeys: the caller's own API keys (every role; a dashboard session, not a key); as
 * declared in shared/src/api/apikeys.ts.
 */
export function apiKeysRoutes(keys: ApiKeysService): Router {
  const r = Router();
  bind(r, API_KEYS.create, ({ body, req }) => keys.create(actorOf(req), body));
  bind(r, API_KEYS.list, async ({ req }) => ({ data: await keys.list(actorOf(req)) }));
  bind(r, API_KEYS.revoke, ({ params, req }) => keys.revoke(actorOf(req), params.id));
  return r;
}
