import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/src/config';
import { type Database, openDatabase, rows } from '../../core/src/db/client';
import { InProcessQueue } from '../../core/src/jobs/queue';
import { createLogger } from '../../core/src/logger';
import { InProcessBus } from '../../core/src/realtime/bus';
import { DbSessionStore } from '../../workers/src/drivers/session-store';
import { SimDriver } from '../../workers/src/drivers/sim';
import type { SessionStore } from '../../workers/src/drivers/types';
import { type Engine, startEngine } from '../../workers/src/engine/index';
import { createTestDatabase, testDbKind } from '../support/db';
import { createUser } from '../support/factories';
import { until } from '../support/wait';

/**
 * Issue 19: in a mass restore (the accounts of workers that all went away, taken up again by the
 * workers that remain) a session held by a live worker is never restored on a second one. Three
 * engines, each with its own connection pool as separate worker processes have, share one
 * PostgreSQL and restore 1,000 simulated accounts. Each session takes a while to start, as a
 * browser does, so restoring a batch outlasts a lease: the accounts a sweep claimed and has not
 * started yet must keep their lease, or another worker takes them and both run them.
 */
const onPostgres = testDbKind() === 'postgres';
const ACCOUNTS = 1000;
const LEASE_MS = 2000;
/** how long each restore takes to start (a browser launch, in real life seconds) */
const START_MS = 15;

process.env.SIM_RESTORE_DELAY_MS = '5';

let database: (Database & { url: string | null }) | null = null;
const pools: Database[] = [];
const engines: Engine[] = [];
const dataDirs: string[] = [];
/** every device each engine started a session for, by engine */
const started: Array<Set<string>> = [];

/** The database's session store, whose loads take START_MS: a session that starts as slowly as a browser. */
function slowStore(db: Database['db']): SessionStore {
  const store = new DbSessionStore(db);
  return {
    exists: (id) => store.exists(id),
    save: (id, data) => store.save(id, data),
    delete: (id) => store.delete(id),
    load: async (id) => {
      await new Promise((r) => setTimeout(r, START_MS));
      return store.load(id);
    },
  };
}

async function startWorker(i: number): Promise<Engine> {
  const pool = await openDatabase({ databaseUrl: database?.url ?? null, pgliteDir: '' });
  pools.push(pool);
  const dataDir = mkdtempSync(path.join(tmpdir(), `wa-restore-${i}-`));
  dataDirs.push(dataDir);
  const seen = new Set<string>();
  started.push(seen);
  const engine = await startEngine({
    config: { waDriver: 'sim', dataDir, chromePath: '/usr/bin/chromium', sim: loadConfig().sim },
    db: pool.db,
    queue: new InProcessQueue(),
    bus: new InProcessBus(),
    log: createLogger('silent'),
    leaseMs: LEASE_MS,
    sweepMs: 300,
    driver: (_store, db) => {
      const sim = new SimDriver(slowStore(db), loadConfig().sim);
      return {
        name: sim.name,
        createSession: (options) => {
          seen.add(options.clientId);
          return sim.createSession(options);
        },
        control: (id) => sim.control(id),
        close: () => sim.close(),
      };
    },
  });
  engines.push(engine);
  return engine;
}

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase();
  const member = await createUser(database.db, { role: 'member' });
  // the accounts of workers that went away: every lease has run out, every session is stored
  await database.db.execute(sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state, worker_id, lease_until)
    select 'id-1760000000000-' || g, ${member.id}, '628130000' || lpad(g::text, 4, '0'), 'connected', 'gone-host-1-x',
           now() - interval '1 minute'
    from generate_series(1, ${ACCOUNTS}) g`);
  await database.db.execute(sql`insert into whatsapp_sessions (session_id, data)
    select 'id-1760000000000-' || g,
           convert_to(json_build_object('phonenumber', '628130000' || lpad(g::text, 4, '0'), 'pushname', 'Akun ' || g)::text, 'UTF8')
    from generate_series(1, ${ACCOUNTS}) g`);
}, 60_000);

afterAll(async () => {
  for (const e of engines) await e.close().catch(() => {});
  for (const p of pools) await p.close().catch(() => {});
  await database?.close();
  for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

describe.skipIf(!onPostgres)('a mass restore over three workers (PostgreSQL)', () => {
  it('restores 1,000 accounts, each on exactly one worker, none taken from a live one', async () => {
    await Promise.all([0, 1, 2].map((i) => startWorker(i)));
    const db = database?.db as Database['db'];
    await until(
      async () => {
        const [r] = await rows<{ n: number }>(
          db,
          sql`select count(*)::int as n from whatsapp_accounts where state = 'connected' and lease_until > now()
                and worker_id in (select worker_id from whatsapp_workers)`,
        );
        return r?.n === ACCOUNTS && engines.reduce((n, e) => n + e.host.size, 0) === ACCOUNTS;
      },
      'every account held and connected',
      60_000,
    );
    // no account was ever started on two workers: restored twice means held twice
    const twice = [...started[0]!].filter((id) => started[1]!.has(id) || started[2]!.has(id));
    const twiceMore = [...started[1]!].filter((id) => started[2]!.has(id));
    expect([...twice, ...twiceMore]).toEqual([]);
    expect(started.reduce((n, s) => n + s.size, 0)).toBe(ACCOUNTS);
    // the work was shared, and each worker's sessions are exactly the rows that name it
    for (const e of engines) {
      const [r] = await rows<{ n: number }>(
        db,
        sql`select count(*)::int as n from whatsapp_accounts where worker_id = ${e.host.workerId}`,
      );
      expect(r?.n).toBe(e.host.size);
    }
  }, 90_000);
});
