import { CAMPAIGNS } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { CampaignsService } from './campaigns.service';

/** /api/admin/campaigns (issue 22), as declared in shared/src/api/campaigns.ts. */
export function campaignsRoutes(campaigns: CampaignsService): Router {
  const r = Router();
  bind(r, CAMPAIGNS.list, ({ query, req }) => campaigns.list(actorOf(req), query));
  bind(r, CAMPAIGNS.create, async ({ body, req }) => ({ data: await campaigns.create(actorOf(req), body) }));
  bind(r, CAMPAIGNS.get, async ({ params, req }) => ({ data: await campaigns.get(actorOf(req), params.id) }));
  bind(r, CAMPAIGNS.update, async ({ params, body, req }) => ({
    data: await campaigns.update(actorOf(req), params.id, body),
  }));
  bind(r, CAMPAIGNS.remove, ({ params, req }) => campaigns.remove(actorOf(req), params.id));
  bind(r, CAMPAIGNS.status, async ({ params, body, req }) => ({
    data: await campaigns.move(actorOf(req), params.id, body.status),
  }));
  return r;
}
