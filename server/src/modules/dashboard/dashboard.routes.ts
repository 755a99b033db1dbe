import { DASHBOARD } from '@wa/shared';
import { Router } from 'express';
import { actorOf } from '../../http/auth';
import { bind } from '../../http/route';
import type { DashboardService } from './dashboard.service';

/** /api/admin/dashboard (issue 23), as declared in shared/src/api/dashboard.ts: a dashboard's figures in one call. */
export function dashboardRoutes(dashboard: DashboardService): Router {
  const r = Router();
  bind(r, DASHBOARD.counters, ({ req, params }) => dashboard.counters(actorOf(req), params.userId));
  return r;
}
