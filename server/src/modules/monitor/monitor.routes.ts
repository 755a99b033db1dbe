import { parse } from '@wa/core/validate';
import { monitorRemoteQuery, monitorSocketQuery, simCommandBody, simDeviceParam } from '@wa/shared';
import { Router } from 'express';
import { allow } from '../../http/auth';
import type { MonitorService } from './monitor.service';

/** §7 Dev monitor: /api/dev/monitor/… (dev only), each answering `{ data }`. */
export function monitorRoutes(monitor: MonitorService): Router {
  const r = Router();
  r.use(allow('monitor'));
  r.get('/local', (_req, res) => {
    res.json({ data: monitor.local() });
  });
  r.get('/remote', async (req, res) => {
    res.json({ data: await monitor.remote(parse(monitorRemoteQuery, req.query).id) });
  });
  r.get('/socket', async (req, res) => {
    res.json({ data: await monitor.socket(parse(monitorSocketQuery, req.query).id) });
  });
  return r;
}

/** POST /api/dev/sim/{deviceId} (dev only, WA_DRIVER=sim): the simulator's control, answering `{ data }`. */
export function simRoutes(monitor: MonitorService): Router {
  const r = Router();
  r.use(allow('monitor'));
  r.post('/:deviceId', async (req, res) => {
    const deviceId = parse(simDeviceParam, req.params.deviceId);
    res.json({ data: await monitor.simulate(deviceId, parse(simCommandBody, req.body)) });
  });
  return r;
}
