import { simCommandBody, simDeviceParam, simResponse } from '../contract/sim';
import { routes } from './define';

/** POST /api/dev/sim/{deviceId} (dev only, WA_DRIVER=sim): the simulator's control, answering `{ data }`. */
export const SIM = routes('monitor', '/dev/sim', {
  simulate: {
    method: 'post',
    path: '/{deviceId}',
    summary: 'Drive the simulator (WA_DRIVER=sim)',
    access: 'monitor',
    params: { deviceId: simDeviceParam },
    body: simCommandBody,
    response: simResponse,
  },
});
