import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullmqQueue } from '../../core/src/jobs/bullmq-queue';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { bearer } from '../support/api';
import { createTestDatabase } from '../support/db';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');

/** The devs' queue dashboard on a real BullMQ queue: devs only, read-only, openable by a link (cookie). */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let queue: BullmqQueue;
let app: ReturnType<typeof createApp>;
let dev: TestUser;
let admin: TestUser;

beforeAll(async () => {
  database = await createTestDatabase();
  queue = new BullmqQueue(url, { prefix: `wa-board-${randomBytes(3).toString('hex')}` });
  app = createApp({
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: createLogger('silent'),
    dataDir: '/tmp',
    queue,
  });
  dev = await createUser(database.db, { role: 'dev' });
  admin = await createUser(database.db, { role: 'admin' });
});
afterAll(async () => {
  await queue.close();
  await database.close();
});

const cookie = (u: TestUser) => ({ Cookie: `authToken=${encodeURIComponent(u.token)}` });

describe('the queue dashboard', () => {
  it('shows devs the queue, by bearer or by the session cookie a link carries', async () => {
    const page = await request(app).get('/api/dev/queues/').set(bearer(dev.token));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const viaCookie = await request(app).get('/api/dev/queues/api/queues').set(cookie(dev));
    expect(viaCookie.status).toBe(200);
    expect(JSON.stringify(viaCookie.body)).toContain('wa-blaster');
  });

  it('is read-only and refuses everyone else', async () => {
    expect((await request(app).get('/api/dev/queues/').set(bearer(admin.token))).status).toBe(403);
    expect((await request(app).get('/api/dev/queues/')).status).toBe(401);
    // a write with the cookie alone is not let in (no CSRF through the dashboard)
    const write = await request(app).put('/api/dev/queues/api/queues/wa-blaster/pause').set(cookie(dev));
    expect(write.status).toBe(401);
    const list = await request(app).get('/api/dev/queues/api/queues').set(bearer(dev.token));
    expect(JSON.stringify(list.body)).toMatch(/"readOnlyMode":true/);
  });
});
