import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/src/config';
import { type Database, rows } from '../../core/src/db/client';
import { InProcessQueue } from '../../core/src/jobs/queue';
import { createLogger } from '../../core/src/logger';
import { InProcessBus } from '../../core/src/realtime/bus';
import { startEngine } from '../../workers/src/engine/index';
import { createTestDatabase } from '../support/db';
import { createUser } from '../support/factories';

process.env.SIM_RESTORE_DELAY_MS = '20';

let database: Database;
let dataDir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'wa-takeover-'));
  const member = await createUser(database.db, { role: 'member' });
  // an account left behind by a process that crashed: its lease still runs for a minute
  await database.db.execute(sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state, worker_id, lease_until)
    values ('id-1760000000000-7', ${member.id}, '6281377770007', 'connected', 'old-host-1-x', now() + interval '1 minute')`);
  await database.db.execute(sql`insert into whatsapp_sessions (session_id, data)
    values ('id-1760000000000-7', ${Buffer.from(JSON.stringify({ phonenumber: '6281377770007', pushname: 'Lama' }))})`);
});
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function engineFor(exclusive: boolean) {
  const queue = new InProcessQueue();
  const engine = await startEngine({
    config: { waDriver: 'sim', dataDir, chromePath: '/usr/bin/chromium', sim: loadConfig().sim },
    db: database.db,
    queue,
    bus: new InProcessBus(),
    log: createLogger('silent'),
    exclusive,
  });
  return { engine, queue };
}

const account = async () =>
  (
    await rows<{ worker_id: string | null; state: string }>(
      database.db,
      sql`select worker_id, state from whatsapp_accounts where clientid = 'id-1760000000000-7'`,
    )
  )[0];

describe('taking over accounts at start', () => {
  it('a worker among others waits for a live lease to run out', async () => {
    const { engine, queue } = await engineFor(false);
    // its first sweep ran before startEngine returned; a window in which no later sweep or restore
    // may take the account either
    await new Promise((r) => setTimeout(r, 300));
    expect(await account()).toEqual({ worker_id: 'old-host-1-x', state: 'connected' });
    expect(engine.host.size).toBe(0);
    await engine.close();
    await queue.close();
  });

  it('the only engine (embedded mode) takes every account at once after a crash', async () => {
    const { engine, queue } = await engineFor(true);
    await expect
      .poll(async () => account(), { timeout: 5000 })
      .toEqual({ worker_id: engine.host.workerId, state: 'connected' });
    await engine.close();
    await queue.close();
    // a clean stop lets go of the lease for the next start
    expect((await account())?.worker_id).toBeNull();
  });
});
