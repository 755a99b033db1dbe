import { afterAll, describe, expect, it } from 'vitest';
import { RedisBus } from '../../core/src/realtime/bus';
import { HealthService } from '../../server/src/modules/health/health.service';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');

/** /api/health's Redis check on a real Redis, and on an address where none listens. */
const db = { ping: async () => {}, workers: async () => ({ live: 0, accounts: 0 }) };
const live = new RedisBus(url);
const gone = new RedisBus('redis://127.0.0.1:1');
afterAll(async () => {
  await live.close();
  await gone.close();
});

describe('health with Redis in use', () => {
  it('says Redis is up when it answers a PING', async () => {
    expect(await new HealthService(db, live).check()).toMatchObject({ status: 'ok', redis: { up: true } });
  });

  it('says Redis is down, within the timeout, when nothing answers', async () => {
    const start = Date.now();
    const h = await new HealthService(db, gone, 300).check();
    expect(h).toMatchObject({ status: 'down', database: { up: true }, redis: { up: false } });
    expect(Date.now() - start).toBeLessThan(2000);
  });
});
