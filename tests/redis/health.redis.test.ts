import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/src/logger';
import { RedisBus } from '../../core/src/realtime/bus';
import { createApp } from '../../server/src/app';
import { createTestDatabase } from '../support/db';
import { TEST_JWT_SECRET } from '../support/factories';
import { blackHole, closedPort, cuttableRelay } from '../support/unreachable';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');

/**
 * GET /api/health with Redis in use, through the whole API on a real database: 200 while Redis
 * answers, 503 'down' within 2 s when it does not, whether nothing listens, the server accepts
 * and never answers, or a Redis the API was connected to goes away (ioredis then queues the PING
 * offline and retries); and 200 again once it is back.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const buses: RedisBus[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // a worker's heartbeat, so that only Redis decides the answer
  await database.db.execute(sql`insert into whatsapp_workers (worker_id, max_logins, expires_at)
    values ('w-live', 20, now() + interval '1 hour')`);
});
afterAll(async () => {
  for (const bus of buses) await bus.close();
  await database.close();
});

/** The API with its bus on Redis at `redisUrl`. */
function apiOn(redisUrl: string) {
  const bus = new RedisBus(redisUrl, `health-test-${process.pid}:`);
  buses.push(bus);
  return createApp({
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: createLogger('silent'),
    dataDir: '/tmp',
    bus,
  });
}

/** GET /api/health and how long it took. */
async function timedHealth(app: ReturnType<typeof createApp>) {
  const start = Date.now();
  const res = await request(app).get('/api/health');
  return { res, ms: Date.now() - start };
}

const isDown = (body: unknown) =>
  expect(body).toMatchObject({
    ok: false,
    status: 'down',
    reasons: ['redis_down'],
    database: { up: true },
    redis: { up: false },
  });

describe('GET /api/health with Redis in use', () => {
  it('is ok (200) while Redis answers its PING', async () => {
    const app = apiOn(url);
    await expect.poll(async () => (await request(app).get('/api/health')).status, { timeout: 10_000 }).toBe(200);
    const { res } = await timedHealth(app);
    expect(res.body).toMatchObject({ ok: true, status: 'ok', reasons: [], redis: { up: true } });
  });

  it('answers 503 down within 2 s when nothing listens on the Redis port', async () => {
    const app = apiOn(`redis://127.0.0.1:${await closedPort()}`);
    const { res, ms } = await timedHealth(app);
    expect(ms).toBeLessThan(2000);
    expect(res.status).toBe(503);
    isDown(res.body);
  });

  it('answers 503 down within 2 s, every time, when the server accepts and never answers', async () => {
    const hole = await blackHole();
    try {
      const app = apiOn(`redis://127.0.0.1:${hole.port}`);
      for (let i = 0; i < 3; i++) {
        const { res, ms } = await timedHealth(app);
        expect(ms).toBeLessThan(2000);
        expect(res.status).toBe(503);
        isDown(res.body);
      }
    } finally {
      await hole.close();
    }
  });

  it('answers 503 down within 2 s while a Redis it was connected to is gone, and 200 once it is back', async () => {
    const target = new URL(url);
    const relay = await cuttableRelay({ host: target.hostname, port: Number(target.port || 6379) });
    try {
      const relayed = new URL(url);
      relayed.hostname = '127.0.0.1';
      relayed.port = String(relay.port);
      const app = apiOn(relayed.toString());
      await expect.poll(async () => (await request(app).get('/api/health')).status, { timeout: 10_000 }).toBe(200);

      await relay.cut();
      for (let i = 0; i < 3; i++) {
        const { res, ms } = await timedHealth(app);
        expect(ms).toBeLessThan(2000);
        expect(res.status).toBe(503);
        isDown(res.body);
      }

      await relay.restore();
      // ioredis reconnects by itself (its backoff reaches 2 s); the PINGs it queued meanwhile go out then
      await expect
        .poll(async () => (await request(app).get('/api/health')).status, { timeout: 15_000, interval: 250 })
        .toBe(200);
    } finally {
      await relay.close();
    }
  });
});
