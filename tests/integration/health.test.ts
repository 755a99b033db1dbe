import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { createTestDatabase } from '../support/db';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';
import { blackHole, closedPort, postgresAt } from '../support/unreachable';

/**
 * GET /api/health on a real database: public; 'down' when the database does not answer, 'degraded'
 * when blasts cannot run as they should (no worker, sending accounts nobody holds, loops a worker
 * says are stalled or waiting), 'ok' only when all is well; always within 2 s.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: ReturnType<typeof createApp>;
let owner: TestUser;
/** the workers' sweep in this suite: a lease that ran out over 2 × 1 s ago is no longer a takeover in progress */
const SWEEP_MS = 1000;

beforeAll(async () => {
  database = await createTestDatabase();
  app = createApp({
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: createLogger('silent'),
    dataDir: '/tmp',
    sweepMs: SWEEP_MS,
  });
  owner = await createUser(database.db, { role: 'member' });
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await database.db.execute(sql`delete from whatsapp_accounts`);
  await database.db.execute(sql`delete from whatsapp_workers`);
});

const health = () => request(app).get('/api/health');

/** A worker whose heartbeat runs for another minute, with what it says of its loops. */
async function liveWorker(id: string, o: { stalled?: number; waitingFor?: string } = {}) {
  await database.db.execute(sql`insert into whatsapp_workers (worker_id, max_logins, expires_at, stalled, waiting_for)
    values (${id}, 20, now() + interval '1 minute', ${o.stalled ?? 0}, ${o.waitingFor ?? null})`);
}

/** An account of `owner`; `leaseSeconds` from now (negative: ran out that long ago), null: held by nobody. */
async function account(
  clientid: string,
  o: { status?: 'idle' | 'sending'; worker?: string | null; leaseSeconds?: number | null } = {},
) {
  const worker = o.worker === undefined ? 'w-live' : o.worker;
  const lease = o.leaseSeconds === undefined ? 60 : o.leaseSeconds;
  await database.db.execute(sql`insert into whatsapp_accounts (clientid, user_id, state, status, worker_id, lease_until)
    values (${clientid}, ${owner.id}, 'connected', ${o.status ?? 'idle'}, ${worker},
            ${lease === null ? null : sql`now() + ${lease} * interval '1 second'`})`);
}

describe('the queue dashboard without Redis', () => {
  it('says it needs Redis (jobs run in the API process)', async () => {
    const dev = await createUser(database.db, { role: 'dev' });
    const res = await request(app).get('/api/dev/queues/').set('Authorization', `Bearer ${dev.token}`);
    expect(res.status).toBe(404);
    expect(res.body.msg).toMatch(/needs Redis/);
  });
});

describe('GET /api/health', () => {
  it('is ok (200) with the database up, no Redis in use, a live worker and nothing sending', async () => {
    await liveWorker('w-live');
    const res = await health();
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      ok: true,
      status: 'ok',
      reasons: [],
      database: { up: true, ms: expect.any(Number) },
      redis: null,
      workers: { live: 1, accounts: 0, sending: 0, unheld: 0, stalled: 0, waiting_for: [] },
    });
  });

  it('is degraded (503) with no live worker: nobody connects accounts or runs blasts', async () => {
    await database.db.execute(sql`insert into whatsapp_workers (worker_id, max_logins, expires_at)
      values ('w-dead', 20, now() - interval '1 minute')`);
    const res = await health();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ ok: false, status: 'degraded', reasons: ['no_worker'], database: { up: true } });
    expect(res.body.workers).toMatchObject({ live: 0 });
  });

  it('counts workers whose heartbeat runs and the accounts they hold under a live lease, not the dead ones', async () => {
    await liveWorker('w-live');
    await database.db.execute(sql`insert into whatsapp_workers (worker_id, max_logins, expires_at)
      values ('w-dead', 20, now() - interval '1 minute')`);
    await account('id-1');
    await account('id-2');
    await account('id-3', { worker: 'w-dead', leaseSeconds: -60 });
    const res = await health();
    expect(res.status).toBe(200);
    expect(res.body.workers).toMatchObject({ live: 1, accounts: 2, sending: 0, unheld: 0 });
  });

  it('stays ok while every sending account is held under a live lease', async () => {
    await liveWorker('w-live');
    await account('id-1', { status: 'sending' });
    await account('id-2', { status: 'sending' });
    const res = await health();
    expect(res.status).toBe(200);
    expect(res.body.workers).toMatchObject({ sending: 2, unheld: 0 });
  });

  it('is degraded when sending accounts are held by nobody, or their lease ran out longer ago than a takeover takes', async () => {
    await liveWorker('w-live');
    await account('id-held', { status: 'sending' });
    await account('id-nobody', { status: 'sending', worker: null, leaseSeconds: null });
    await account('id-ran-out', { status: 'sending', worker: 'w-gone', leaseSeconds: -60 });
    // idle accounts need no loop, held or not
    await account('id-idle', { worker: null, leaseSeconds: null });
    const res = await health();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ ok: false, status: 'degraded', reasons: ['accounts_unheld'] });
    expect(res.body.workers).toMatchObject({ live: 1, sending: 3, unheld: 2 });
  });

  it('gives a lease that just ran out two sweeps for another worker to take the account over', async () => {
    await liveWorker('w-live');
    await database.db.execute(sql`insert into whatsapp_accounts (clientid, user_id, state, status, worker_id, lease_until)
      values ('id-takeover', ${owner.id}, 'connected', 'sending', 'w-gone', now())`);
    const first = await health();
    expect(first.status).toBe(200);
    expect(first.body.workers).toMatchObject({ sending: 1, unheld: 0 });
    // nobody took it over: once the grace (2 × SWEEP_MS) has passed, it is flagged
    await expect
      .poll(async () => (await health()).body.reasons, { timeout: 10_000, interval: 250 })
      .toEqual(['accounts_unheld']);
  });

  it("is degraded when a live worker reports loops that should run and do not; a dead worker's report does not count", async () => {
    await liveWorker('w-live', { stalled: 3 });
    await liveWorker('w-fine');
    await database.db.execute(sql`insert into whatsapp_workers (worker_id, max_logins, expires_at, stalled)
      values ('w-dead', 20, now() - interval '1 minute', 5)`);
    const res = await health();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'degraded', reasons: ['loops_stalled'] });
    expect(res.body.workers).toMatchObject({ live: 2, stalled: 3 });
  });

  it('is degraded while a live worker waits for a dependency, and names each one once', async () => {
    await liveWorker('w-1', { waitingFor: 'redis' });
    await liveWorker('w-2', { waitingFor: 'redis' });
    await liveWorker('w-3', { waitingFor: 'database' });
    const res = await health();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'degraded', reasons: ['workers_waiting'] });
    expect(res.body.workers.waiting_for).toEqual(['database', 'redis']);
  });

  it('lists every reason at once', async () => {
    await database.db.execute(sql`insert into whatsapp_workers (worker_id, max_logins, expires_at, stalled, waiting_for)
      values ('w-dead', 20, now() - interval '1 minute', 2, 'redis')`);
    await account('id-1', { status: 'sending', worker: null, leaseSeconds: null });
    const res = await health();
    expect(res.status).toBe(503);
    expect(res.body.reasons).toEqual(['no_worker', 'accounts_unheld']);
  });
});

describe('GET /api/health when PostgreSQL does not answer', () => {
  /** The API on a database at `port`, and how long its health answer took. */
  async function healthOn(port: number) {
    const pgDown = postgresAt(port);
    const down = createApp({
      db: pgDown.db,
      jwtSecret: TEST_JWT_SECRET,
      logger: createLogger('silent'),
      dataDir: '/tmp',
    });
    const start = Date.now();
    const res = await request(down).get('/api/health');
    return { res, ms: Date.now() - start, down, end: pgDown.end };
  }

  it('answers 503 down within 2 s when the server accepts connections and never answers (a pool connect that hangs)', async () => {
    const hole = await blackHole();
    const { res, ms, down, end } = await healthOn(hole.port);
    try {
      expect(ms).toBeLessThan(2000);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        ok: false,
        status: 'down',
        reasons: ['database_down'],
        database: { up: false },
        redis: null,
        workers: null,
      });
      // the probes still hang: later checks wait on them instead of opening more connections
      const opened = hole.accepted();
      for (let i = 0; i < 3; i++) {
        const again = Date.now();
        expect((await request(down).get('/api/health')).status).toBe(503);
        expect(Date.now() - again).toBeLessThan(2000);
      }
      expect(hole.accepted()).toBe(opened);
    } finally {
      // the reset ends the pool's hanging connects, so the pool can close
      await hole.close();
      await end();
    }
  });

  it('answers 503 down at once when nothing listens on the port', async () => {
    const { res, ms, end } = await healthOn(await closedPort());
    expect(ms).toBeLessThan(2000);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 'down', reasons: ['database_down'], workers: null });
    await end();
  });
});
