import { describe, expect, it } from 'vitest';
import { HealthService } from './health.service';

const never = () => new Promise<never>(() => {});
const fail = async () => {
  throw new Error('connection refused');
};
const repo = (
  over: Partial<{ ping(): Promise<void>; workers(): Promise<{ live: number; accounts: number }> }> = {},
) => ({
  ping: async () => {},
  workers: async () => ({ live: 2, accounts: 7 }),
  ...over,
});
const memoryBus = { kind: 'memory' as const, ping: async () => {} };

describe('GET /api/health: which parts are up', () => {
  it('is ok with the database up and no Redis in use, and counts the live workers and their accounts', async () => {
    const h = await new HealthService(repo(), memoryBus).check();
    expect(h).toMatchObject({ status: 'ok', database: { up: true }, redis: null, workers: { live: 2, accounts: 7 } });
  });

  it('is down when the database does not answer, and does not ask it for workers', async () => {
    const h = await new HealthService(repo({ ping: fail, workers: fail }), memoryBus).check();
    expect(h).toMatchObject({ status: 'down', database: { up: false }, workers: null });
  });

  it('is down when Redis is in use and does not answer', async () => {
    const h = await new HealthService(repo(), { kind: 'redis', ping: fail }).check();
    expect(h).toMatchObject({ status: 'down', database: { up: true }, redis: { up: false } });
  });

  it('answers within its timeout when a part hangs', async () => {
    const start = Date.now();
    const h = await new HealthService(repo({ ping: never }), { kind: 'redis', ping: never }, 50).check();
    expect(Date.now() - start).toBeLessThan(1000);
    expect(h).toMatchObject({ status: 'down', database: { up: false }, redis: { up: false } });
  });

  it('stays ok with no worker running: the API still serves and queues', async () => {
    const h = await new HealthService(repo({ workers: async () => ({ live: 0, accounts: 0 }) }), memoryBus).check();
    expect(h).toMatchObject({ status: 'ok', workers: { live: 0, accounts: 0 } });
  });
});
