import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { createTestDatabase } from '../support/db';
import { createUser, TEST_JWT_SECRET } from '../support/factories';

/** GET /api/health on a real database: public, and it counts the live workers and their accounts. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = createApp({ db: database.db, jwtSecret: TEST_JWT_SECRET, logger: createLogger('silent'), dataDir: '/tmp' });
});
afterAll(async () => {
  await database.close();
});

describe('the queue dashboard without Redis', () => {
  it('says it needs Redis (jobs run in the API process)', async () => {
    const dev = await createUser(database.db, { role: 'dev' });
    const res = await request(app).get('/api/dev/queues/').set('Authorization', `Bearer ${dev.token}`);
    expect(res.status).toBe(404);
    expect(res.body.msg).toMatch(/needs Redis/);
  });
});

describe('GET /api/health', () => {
  it('says the database is up, no Redis is in use, and no worker runs yet', async () => {
    const res = await request(app).get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, status: 'ok', database: { up: true }, redis: null });
    expect(res.body.workers).toEqual({ live: 0, accounts: 0 });
  });

  it('counts workers whose heartbeat runs and the accounts they hold under a live lease, not the dead ones', async () => {
    const db = database.db;
    const owner = await createUser(db, { role: 'member' });
    await db.execute(sql`insert into whatsapp_workers (worker_id, max_logins, expires_at) values
      ('w-live', 20, now() + interval '1 minute'), ('w-dead', 20, now() - interval '1 minute')`);
    await db.execute(sql`insert into whatsapp_accounts (clientid, user_id, worker_id, lease_until) values
      ('id-1', ${owner.id}, 'w-live', now() + interval '1 minute'),
      ('id-2', ${owner.id}, 'w-live', now() + interval '1 minute'),
      ('id-3', ${owner.id}, 'w-dead', now() - interval '1 minute')`);
    const res = await request(app).get('/api/health');
    expect(res.body.workers).toEqual({ live: 1, accounts: 2 });
  });
});
