import { MONITOR, SIM } from '@wa/shared';
import { Router } from 'express';
import { bind } from '../../http/route';
import type { MonitorService } from './monitor.service';

/** §7 Dev monitor: /api/dev/monitor/… (dev only), each answering `{ data }`, as declared in shared/src/api/monitor.ts. */
export function monitorRoutes(monitor: MonitorService): Router {
  const r = Router();
  bind(r, MONITOR.local, () => ({ data: monitor.local() }));
  bind(r, MONITOR.remote, async ({ query }) => ({ data: await monitor.remote(query.id) }));
  bind(r, MONITOR.socket, async ({ query }) => ({ data: await monitor.socket(query.id) }));
  return r;
}

/** POST /api/dev/sim/{deviceId} (dev only, WA_DRIVER=sim): the simulator's control, answering `{ data }`. */
export function simRoutes(monitor: MonitorService): Router {
  const r = Router();
  bind(r, SIM.simulate, async ({ params, body }) => ({ data: await monitor.simulate(params.deviceId, body) }));
  return r;
}
