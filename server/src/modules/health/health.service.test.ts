import type { WorkersHealth } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { HealthService } from './health.service';

const never = () => new Promise<never>(() => {});
const fail = async () => {
  throw new Error('connection refused');
};
const allWell: WorkersHealth = { live: 2, accounts: 7, sending: 3, unheld: 0, stalled: 0, waiting_for: [] };
const repo = (
  over: Partial<{ ping(): Promise<void>; workers(graceMs: number): Promise<WorkersHealth> }> = {},
  workers: Partial<WorkersHealth> = {},
) => ({
  ping: async () => {},
  workers: async () => ({ ...allWell, ...workers }),
  ...over,
});
const memoryBus = { kind: 'memory' as const, ping: async () => {} };

describe('GET /api/health: which parts are up', () => {
  it('is ok with the database up, no Redis in use and every sending account held and looping', async () => {
    const h = await new HealthService(repo(), memoryBus).check();
    expect(h).toMatchObject({ status: 'ok', reasons: [], database: { up: true }, redis: null, workers: allWell });
  });

  it('is down when the database does not answer, and then knows nothing of the workers', async () => {
    const h = await new HealthService(repo({ ping: fail, workers: fail }), memoryBus).check();
    expect(h).toMatchObject({ status: 'down', reasons: ['database_down'], database: { up: false }, workers: null });
  });

  it('is down when Redis is in use and does not answer', async () => {
    const h = await new HealthService(repo(), { kind: 'redis', ping: fail }).check();
    expect(h).toMatchObject({ status: 'down', reasons: ['redis_down'], database: { up: true }, redis: { up: false } });
  });

  it('answers at its one deadline when every part hangs, not after the sum of them', async () => {
    const start = Date.now();
    const h = await new HealthService(
      repo({ ping: never, workers: never }),
      { kind: 'redis', ping: never },
      {
        deadlineMs: 200,
      },
    ).check();
    expect(Date.now() - start).toBeLessThan(1000);
    expect(h).toMatchObject({
      status: 'down',
      reasons: ['database_down', 'redis_down'],
      database: { up: false },
      redis: { up: false },
      workers: null,
    });
  });

  it('asks a hanging part once: later checks join the probe still on its way', async () => {
    let pings = 0;
    const hanging = {
      kind: 'redis' as const,
      ping: () => {
        pings++;
        return never();
      },
    };
    const health = new HealthService(repo(), hanging, { deadlineMs: 20 });
    for (let i = 0; i < 3; i++) expect((await health.check()).status).toBe('down');
    expect(pings).toBe(1);
  });

  it('starts a fresh probe once a hanging one is too old to join, so a recovery is seen', async () => {
    let calls = 0;
    // the first PING never settles (a connect swallowed by the network); the later ones answer
    const recovering = {
      kind: 'redis' as const,
      ping: () => (++calls === 1 ? never() : Promise.resolve()),
    };
    const health = new HealthService(repo(), recovering, { deadlineMs: 20, joinForMs: 100 });
    expect((await health.check()).status).toBe('down');
    await expect.poll(async () => (await health.check()).status, { timeout: 2000, interval: 20 }).toBe('ok');
    expect(calls).toBe(2);
  });

  it('is degraded when the database answers its ping but the workers read does not', async () => {
    const h = await new HealthService(repo({ workers: never }), memoryBus, { deadlineMs: 50 }).check();
    expect(h).toMatchObject({
      status: 'degraded',
      reasons: ['workers_unknown'],
      database: { up: true },
      workers: null,
    });
  });
});

describe('GET /api/health: whether blasts can run', () => {
  it('is degraded with no live worker: nothing connects accounts or runs blasts', async () => {
    const h = await new HealthService(repo({}, { live: 0, accounts: 0, sending: 0 }), memoryBus).check();
    expect(h).toMatchObject({ status: 'degraded', reasons: ['no_worker'] });
  });

  it('is degraded when sending accounts have no holder past the takeover grace', async () => {
    const h = await new HealthService(repo({}, { unheld: 2 }), memoryBus).check();
    expect(h).toMatchObject({ status: 'degraded', reasons: ['accounts_unheld'], workers: { unheld: 2 } });
  });

  it('is degraded when a live worker reports loops that should run and do not', async () => {
    const h = await new HealthService(repo({}, { stalled: 4 }), memoryBus).check();
    expect(h).toMatchObject({ status: 'degraded', reasons: ['loops_stalled'], workers: { stalled: 4 } });
  });

  it('is degraded while a worker waits for a dependency, and lists every reason at once', async () => {
    const h = await new HealthService(
      repo({}, { live: 0, unheld: 1, stalled: 1, waiting_for: ['redis'] }),
      memoryBus,
    ).check();
    expect(h.status).toBe('degraded');
    expect(h.reasons).toEqual(['no_worker', 'accounts_unheld', 'loops_stalled', 'workers_waiting']);
  });

  it('gives a lease that ran out two sweeps before it counts the account as unheld', async () => {
    let grace = 0;
    const spy = repo({
      workers: async (graceMs) => {
        grace = graceMs;
        return allWell;
      },
    });
    await new HealthService(spy, memoryBus, { sweepMs: 3000 }).check();
    expect(grace).toBe(6000);
    await new HealthService(spy, memoryBus).check();
    expect(grace).toBe(20_000);
  });
});
