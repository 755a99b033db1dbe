import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountsRepo } from '../../core/src/accounts/accounts.repo';
import { EFFECTIVE_FEE } from '../../core/src/accounts/effective-fee';
import { type Database, rows } from '../../core/src/db/client';
import { createTestDatabase, testDbKind } from '../support/db';
import { createUser, type TestUser } from '../support/factories';
import { until } from '../support/wait';

let database: Database;
let accounts: AccountsRepo;
let member: TestUser;
let seq = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  accounts = new AccountsRepo(database.db);
  member = await createUser(database.db, { role: 'member' });
});
afterAll(async () => {
  await database.close();
});

/** A saved, connected account with a stored session (so a sweep may claim it). */
async function account(): Promise<{ id: number; clientid: string }> {
  seq += 1;
  const clientid = `id-1760000000000-${seq}`;
  const acc = await accounts.create({
    clientid,
    userId: member.id,
    phonenumber: `62813000000${seq}`,
    pushname: 'Uji',
    server: 'c.us',
    serialized: null,
    proxyId: null,
    interval: null,
  });
  await database.db.execute(
    sql`insert into whatsapp_sessions (session_id, data) values (${clientid}, ${Buffer.from('{}')})`,
  );
  return { id: acc.id, clientid };
}

const row = async (id: number) =>
  (
    await rows<{ state: string; status: string; suspended: boolean; worker_id: string | null }>(
      database.db,
      sql`select state, status, suspended, worker_id from whatsapp_accounts where id = ${id}`,
    )
  )[0];

describe('the account state machine (AccountsRepo)', () => {
  it('starts sending only from idle on a connected account that is not suspended, once', async () => {
    const a = await account();
    expect((await accounts.startSending(a.id))?.status).toBe('sending');
    expect(await accounts.startSending(a.id)).toBeNull();
    expect((await accounts.stopSending(a.id))?.status).toBe('idle');
    expect(await accounts.stopSending(a.id)).toBeNull();

    await accounts.applySessionState(a.id, 'disconnected');
    expect(await accounts.startSending(a.id)).toBeNull();
    await accounts.applySessionState(a.id, 'connected');
    await accounts.suspend(a.id);
    expect(await accounts.startSending(a.id)).toBeNull();
  });

  it('keeps a suspension sticky while the session is up or coming back, and shows a session that is down', async () => {
    const a = await account();
    expect(await accounts.suspend(a.id)).toBe(1);
    await accounts.applySessionState(a.id, 'connected');
    expect(await row(a.id)).toMatchObject({ state: 'suspended', suspended: true });
    await accounts.applySessionState(a.id, 'reconnecting...');
    expect(await row(a.id)).toMatchObject({ state: 'suspended' });
    await accounts.applySessionState(a.id, 'disconnected');
    expect(await row(a.id)).toMatchObject({ state: 'disconnected', suspended: true });
    // a relogin and an adopt follow the same rule
    await accounts.relogin(a.id, {
      clientid: `${a.clientid}-new`,
      phonenumber: null,
      pushname: null,
      server: null,
      serialized: null,
      proxyId: null,
    });
    expect(await row(a.id)).toMatchObject({ state: 'suspended' });
    await accounts.adopt(a.id, 'worker-a', 30_000, 'connected');
    expect(await row(a.id)).toMatchObject({ state: 'suspended', worker_id: 'worker-a' });

    expect(await accounts.suspend(a.id)).toBe(2);
    await accounts.liftSuspension(a.id);
    expect(await row(a.id)).toMatchObject({ state: 'disconnected', suspended: false });
    await accounts.applySessionState(a.id, 'connected');
    expect(await row(a.id)).toMatchObject({ state: 'connected' });
  });

  it('puts an account that leaves connected back to idle, but keeps sending through a rebuild', async () => {
    const a = await account();
    await accounts.startSending(a.id);
    await accounts.applySessionState(a.id, 'reconnecting...');
    expect(await row(a.id)).toMatchObject({ state: 'reconnecting...', status: 'sending' });
    await accounts.applySessionState(a.id, 'conflict');
    expect(await row(a.id)).toMatchObject({ state: 'conflict', status: 'idle' });
  });

  it('claims, renews and releases leases: one holder at a time', async () => {
    const a = await account();
    const mine = (claimed: { id: number }[]) => claimed.some((c) => c.id === a.id);
    await accounts.adopt(a.id, 'worker-a', 60_000, 'connected');
    // a live lease is not claimed, unless the only worker there is takes everything
    expect(
      mine(await accounts.claimExpired({ workerId: 'worker-b', leaseMs: 60_000, takeOver: false, limit: 100 })),
    ).toBe(false);
    expect([...(await accounts.renewLeases([a.id], 'worker-a', 60_000))]).toEqual([a.id]);

    await accounts.expireLease(a.id);
    const claimed = await accounts.claimExpired({ workerId: 'worker-b', leaseMs: 60_000, takeOver: false, limit: 100 });
    expect(claimed.find((c) => c.id === a.id)).toMatchObject({ clientid: a.clientid, user_id: member.id });
    expect(await row(a.id)).toMatchObject({ worker_id: 'worker-b', state: 'reconnecting...' });
    // the old holder's renewal no longer keeps it, and its release does not free it
    expect([...(await accounts.renewLeases([a.id], 'worker-a', 60_000))]).toEqual([]);
    await accounts.releaseLease(a.id, 'worker-a');
    expect((await row(a.id))?.worker_id).toBe('worker-b');
    await accounts.releaseLeases('worker-b');
    expect((await row(a.id))?.worker_id).toBeNull();

    await accounts.adopt(a.id, 'worker-a', 60_000, 'connected');
    expect(
      mine(await accounts.claimExpired({ workerId: 'worker-b', leaseMs: 60_000, takeOver: true, limit: 100 })),
    ).toBe(true);
  });

  it.skipIf(testDbKind() !== 'postgres')(
    'renews without holding one account while it waits for another: no deadlock with a writer of both (PostgreSQL)',
    async () => {
      const [x, y] = [await account(), await account()];
      for (const a of [x, y]) await accounts.adopt(a.id, 'worker-r', 60_000, 'connected');
      const [{ db }] = await rows<{ db: string }>(database.db, sql`select current_database() as db`);
      const url = new URL(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? '');
      url.pathname = `/${db}`;
      // another transaction writes both accounts, y first (an outcome statement of two accounts)
      const writer = new pg.Client({ connectionString: url.toString() });
      await writer.connect();
      try {
        await writer.query('begin');
        await writer.query('update whatsapp_accounts set count_success = count_success + 1 where id = $1', [y.id]);
        const renewal = accounts.renewLeases([x.id, y.id], 'worker-r', 60_000);
        // the renewal now waits for y (a lock wait shows in pg_stat_activity)
        await until(async () => {
          const [w] = await rows<{ n: number }>(
            database.db,
            sql`select count(*)::int as n from pg_stat_activity where datname = ${db} and wait_event_type = 'Lock'`,
          );
          return (w?.n ?? 0) > 0;
        }, 'the renewal to wait for the busy account');
        // x is free: were it held by the waiting renewal, this would deadlock (40P01) after deadlock_timeout
        await writer.query('update whatsapp_accounts set count_success = count_success + 1 where id = $1', [x.id]);
        await writer.query('commit');
        expect([...(await renewal)].sort((a, b) => a - b)).toEqual([x.id, y.id].sort((a, b) => a - b));
      } finally {
        await writer.end();
      }
    },
  );
});

describe('the effective fee (EFFECTIVE_FEE)', () => {
  it("is the member's own fee, else their level's, else the settings' price", async () => {
    const fee = async () =>
      (
        await rows<{ fee: number | null }>(
          database.db,
          sql`select ${EFFECTIVE_FEE} as fee from users u left join levels l on l.id = u.level_id
              cross join (select * from settings where id = 1) s where u.id = ${member.id}`,
        )
      )[0]?.fee;
    await database.db.execute(sql`update settings set price = 50 where id = 1`);
    expect(Number(await fee())).toBe(50);
    const [level] = await rows<{ id: number }>(
      database.db,
      sql`insert into levels (name, requirement_blast, blast_fee) values ('Perak', 10, 70) returning id`,
    );
    await database.db.execute(sql`update users set level_id = ${level?.id} where id = ${member.id}`);
    expect(Number(await fee())).toBe(70);
    await database.db.execute(sql`update users set blast_fee = 90 where id = ${member.id}`);
    expect(Number(await fee())).toBe(90);
  });
});
