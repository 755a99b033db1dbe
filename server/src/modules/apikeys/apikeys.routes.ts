import { parse } from '@wa/core/validate';
import { createApiKeyBody, idParam } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import type { ApiKeysService } from './apikeys.service';

/** /api/admin/apikeys: the caller's own API keys (every role; a dashboard session, not a key). */
export function apiKeysRoutes(keys: ApiKeysService): Router {
  const r = Router();
  r.post('/', async (req, res) => {
    res.status(201).json(await keys.create(actorOf(req), parse(createApiKeyBody, req.body ?? {})));
  });
  r.get('/', async (req, res) => {
    res.json({ data: await keys.list(actorOf(req)) });
  });
  r.delete('/:id', async (req, res) => {
    res.json(await keys.revoke(actorOf(req), parse(idParam, req.params.id)));
  });
  return r;
}
