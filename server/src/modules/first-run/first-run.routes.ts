import { FIRST_RUN } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { FirstRunService } from './first-run.service';

/** /api/admin/first-run (issue 20): the dashboard's first-run checklist (admin and dev). */
export function firstRunRoutes(firstRun: FirstRunService): Router {
  const r = Router();
  bind(r, FIRST_RUN.get, ({ req }) => firstRun.get(actorOf(req)));
  return r;
}
