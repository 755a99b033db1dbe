import { Router } from 'express';
import { actorOf, allow } from '../../http/auth';
import type { FirstRunService } from './first-run.service';

/** /api/admin/first-run (issue 20): the dashboard's first-run checklist (admin and dev). */
export function firstRunRoutes(firstRun: FirstRunService): Router {
  const r = Router();
  r.use(allow('first-run.read'));
  r.get('/', async (req, res) => {
    res.json(await firstRun.get(actorOf(req)));
  });
  return r;
}
