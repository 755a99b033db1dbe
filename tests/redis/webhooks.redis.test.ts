import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { BullmqQueue } from '../../core/src/jobs/bullmq-queue';
import { type JobMap, WEBHOOK_JOB } from '../../core/src/jobs/names';
import { createLogger } from '../../core/src/logger';
import { runDeliveryJob } from '../../core/src/webhooks/deliver';
import { createApp } from '../../server/src/app';
import { bearer } from '../support/api';
import { createTestDatabase } from '../support/db';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';
import { until } from '../support/wait';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');

/**
 * Webhooks in scale-out mode: the API adds each delivery as a BullMQ job, a worker process (another
 * queue instance on the same Redis) posts it, and a failed attempt comes back as a delayed job.
 */
const prefix = `wa-hooks-${randomBytes(3).toString('hex')}`;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let api: BullmqQueue;
let worker: BullmqQueue<JobMap>;
let app: ReturnType<typeof createApp>;
let admin: TestUser;
let member: TestUser;
const receiver = new WebhookReceiver();

beforeAll(async () => {
  database = await createTestDatabase();
  await receiver.start();
  api = new BullmqQueue(url, { prefix });
  worker = new BullmqQueue<JobMap>(url, { prefix, names: [WEBHOOK_JOB] });
  const settings = { timeoutMs: 2000, retryBaseMs: 100, retryForMs: 60_000 };
  worker.register(WEBHOOK_JOB, async ({ deliveryId }) => {
    await runDeliveryJob(database.db, worker, deliveryId, settings);
  });
  await worker.start();
  app = createApp({
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: createLogger('silent'),
    dataDir: '/tmp',
    queue: api,
  });
  admin = await createUser(database.db, { role: 'admin' });
  member = await createUser(database.db, { role: 'member' });
});
afterAll(async () => {
  await worker.close();
  await api.close();
  await receiver.close();
  await database.close();
});

describe('webhooks on BullMQ', () => {
  it('a worker posts what the API queued, and retries it as a delayed job until it is taken', async () => {
    const made = await request(app)
      .post('/api/admin/webhooks')
      .set(bearer(admin.token))
      .send({ url: receiver.url(), events: ['withdraw.status'] });
    expect(made.status).toBe(201);
    receiver.respond = (_r, n) => (n <= 2 ? 502 : 200);
    await database.db.execute(
      sql`update users set account_name = 'A', account_bank = 'BCA', account_number = '1' where id = ${member.id}`,
    );
    await database.db.execute(
      sql`insert into bonuses (user_id, admin_id, nominal, reason) values (${member.id}, ${admin.id}, 50000, 'x')`,
    );
    const asked = await request(app)
      .post('/api/admin/withdraw/request')
      .set(bearer(member.token))
      .send({ userId: member.id, nominal: 10000 });
    expect(asked.status).toBe(201);
    await until(
      async () => {
        const [d] = await rows<{ status: string }>(database.db, sql`select status from webhook_deliveries`);
        return d?.status === 'delivered';
      },
      'delivered on the third attempt',
      10_000,
    );
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.every((r) => verifySignature(r, made.body.secret))).toBe(true);
    // the second attempt waited the base (100 ms), the third twice that
    const [first, second, third] = receiver.received.map((r) => r.at);
    expect(second - first).toBeGreaterThanOrEqual(90);
    expect(third - second).toBeGreaterThanOrEqual(190);
    const [d] = await rows<{ attempts: number; response_status: number }>(
      database.db,
      sql`select attempts, response_status from webhook_deliveries`,
    );
    expect(d).toEqual({ attempts: 3, response_status: 200 });
    const counts = await api.counts();
    expect(counts.failed).toBe(0);
  });
});
