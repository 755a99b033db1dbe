import { InProcessBus } from '@wa/core/realtime/bus';
import { refused } from '@wa/core/testing/refusals';
import { describe, expect, it } from 'vitest';
import type { MonitorRepo } from './monitor.repo';
import { MonitorService } from './monitor.service';

// the simulator control never reads the repository
const repo = {} as MonitorRepo;

describe('the simulator control (POST /dev/sim/{deviceId})', () => {
  it('answers 404 when the installation does not run the simulator, whatever the device', async () => {
    const monitor = new MonitorService(repo, new InProcessBus(), null, { simulator: false });
    expect(await refused(monitor.simulate('id-1700000000000-1', { action: 'revoke' }))).toEqual({
      status: 404,
      msg: 'The simulator is not in use (WA_DRIVER=sim).',
    });
    const unset = new MonitorService(repo, new InProcessBus(), null);
    expect((await refused(unset.simulate('id-1700000000000-1', { action: 'disconnect' }))).status).toBe(404);
  });

  it('answers 404 when no worker holds the device', async () => {
    const monitor = new MonitorService(repo, new InProcessBus(), null, { simulator: true }, 50);
    expect(await refused(monitor.simulate('id-1700000000000-1', { action: 'disconnect' }))).toEqual({
      status: 404,
      msg: 'No worker holds this device: it is not connected.',
    });
  });
});
