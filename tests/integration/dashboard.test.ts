import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rebuildDaily } from '@wa/core/ledger/daily';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { type ApiHarness, bearer, setupApi } from '../support/api';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';

/**
 * The dashboard counters (§2 Dashboard, §3 Counters, §7 Message log, withdraw and bonus) over rows
 * seeded straight into the tables: settled and transient sends, today and yesterday in the
 * server's zone (Asia/Jakarta by default), fees, referral fees, bonuses and withdrawals.
 */

let h: ApiHarness;
let admin: TestUser;
let dev: TestUser;
let staff: TestUser;
/** the referrer of `member` */
let referrer: TestUser;
let member: TestUser;
let other: TestUser;

type When = 'today' | 'yesterday';
interface LogRow {
  user: TestUser;
  status: 'sent' | 'failed' | 'pending' | 'unknown';
  when: When;
  fee?: number;
  referrer?: TestUser;
  referralFee?: number;
  feeDue?: number;
  referralFeeDue?: number;
}

/** One second after or before local midnight in `zone`: the edges of "today". */
const at = (when: When, zone: string) => {
  const midnight = sql`(date_trunc('day', now() at time zone ${zone}::text) at time zone ${zone}::text)`;
  return when === 'today' ? sql`${midnight} + interval '1 second'` : sql`${midnight} - interval '1 second'`;
};

let seq = 0;
async function insertLogs(list: LogRow[], zone = 'Asia/Jakarta') {
  for (const l of list) {
    seq += 1;
    await h.database.db.execute(
      sql`insert into message_logs (user_id, target, status, fee, referrer_id, referral_fee, fee_due, referral_fee_due, created_at)
          values (${l.user.id}, ${`62812000${String(seq).padStart(5, '0')}`}, ${l.status}, ${l.fee ?? 0},
                  ${l.referrer?.id ?? null}, ${l.referralFee ?? 0}, ${l.feeDue ?? 0}, ${l.referralFeeDue ?? 0},
                  ${at(l.when, zone)})`,
    );
  }
  // logs written around the engine: the ledger's day rows are recounted from them
  await rebuildDaily(h.database.db, zone);
}

beforeAll(async () => {
  h = await setupApi();
  const db = h.database.db;
  admin = await createUser(db, { role: 'admin' });
  dev = await createUser(db, { role: 'dev' });
  staff = await createUser(db, { role: 'staff' });
  referrer = await createUser(db, { role: 'member', firstname: 'Rudi' });
  member = await createUser(db, { role: 'member', firstname: 'Siti', referrerId: referrer.id });
  other = await createUser(db, { role: 'member', firstname: 'Oki' });

  await insertLogs([
    // member, today: two paid sends with the referrer's share, one fail, and two unsettled rows
    // (a claim in flight, one the worker died on) that are neither counted nor paid
    { user: member, status: 'sent', when: 'today', fee: 100, referrer, referralFee: 10 },
    { user: member, status: 'sent', when: 'today', fee: 100, referrer, referralFee: 10 },
    { user: member, status: 'failed', when: 'today' },
    { user: member, status: 'pending', when: 'today' },
    { user: member, status: 'unknown', when: 'today' },
    // member, yesterday: one paid send, one fail, and a send whose fee is held for its delivery
    // receipt (payout on delivery), which is no income until it comes
    { user: member, status: 'sent', when: 'yesterday', fee: 150, referrer, referralFee: 15 },
    { user: member, status: 'failed', when: 'yesterday' },
    { user: member, status: 'sent', when: 'yesterday', feeDue: 50, referrer, referralFeeDue: 5 },
    // the referrer's own sends
    { user: referrer, status: 'sent', when: 'today', fee: 80 },
    { user: referrer, status: 'failed', when: 'yesterday' },
    // somebody else
    { user: other, status: 'sent', when: 'yesterday', fee: 40 },
  ]);
  await db.execute(sql`insert into bonuses (user_id, admin_id, nominal, reason) values
    (${member.id}, ${admin.id}, 1000, 'Top blaster'), (${member.id}, ${admin.id}, 500, 'Referral push'),
    (${referrer.id}, ${admin.id}, 250, 'Welcome'), (${other.id}, ${admin.id}, 3000000000, 'Beyond int4')`);
  await db.execute(sql`insert into withdrawals (user_id, nominal, status) values
    (${member.id}, 300, 'requested'), (${member.id}, 200, 'accepted'), (${member.id}, 5000, 'rejected')`);
});
afterAll(() => h.close());

const get = (p: string, u?: TestUser, app: Express = h.app) => {
  const r = request(app).get(`/api${p}`);
  return u ? r.set(bearer(u.token)) : r;
};

/** The six counters of one user id as the API gives them. */
async function figures(userId: number | string, as: TestUser, app: Express = h.app) {
  const read = async (p: string) => {
    const res = await get(p, as, app);
    expect(res.status, `${p}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  return {
    count: await read(`/admin/messagelog/count/${userId}`),
    todayCount: await read(`/admin/messagelog/today-count/${userId}`),
    totalCount: await read(`/admin/messagelog/total-count/${userId}`),
    todayIncome: await read(`/admin/messagelog/today-income/${userId}`),
    balance: await read(`/admin/withdraw/balance/${userId}`),
    totalBonus: await read(`/admin/bonus/total/${userId}`),
  };
}

const ROUTES = [
  '/admin/messagelog/count',
  '/admin/messagelog/today-count',
  '/admin/messagelog/today-income',
  '/admin/messagelog/total-count',
  '/admin/withdraw/balance',
  '/admin/bonus/total',
];

describe('a member dashboard', () => {
  it('counts only settled sends, today from local midnight, and sums income, balance and bonus', async () => {
    expect(await figures(member.id, member)).toEqual({
      count: { successCount: 4, failCount: 2 },
      todayCount: { success: 2, fail: 1 },
      totalCount: { success: 4, fail: 2 },
      // the member's own fees of today; pending and unknown rows do not pay
      todayIncome: { income: 200 },
      // income 350 + bonuses 1500 − withdrawals requested or accepted 500 (the rejected one is given back)
      balance: { balance: 1350 },
      totalBonus: { totalBonus: 1500 },
    });
  });

  it("adds the referral fees of the referred members' successful sends to the referrer's income", async () => {
    expect(await figures(referrer.id, referrer)).toEqual({
      count: { successCount: 1, failCount: 1 },
      todayCount: { success: 1, fail: 0 },
      totalCount: { success: 1, fail: 1 },
      // own fee 80 + today's referral fees 10 + 10
      todayIncome: { income: 100 },
      // income 80 + referral fees 35, + bonus 250
      balance: { balance: 365 },
      totalBonus: { totalBonus: 250 },
    });
  });

  it('keeps whole rupiah beyond 32 bits and gives zeros to a member with nothing today', async () => {
    expect(await figures(other.id, other)).toEqual({
      count: { successCount: 1, failCount: 0 },
      todayCount: { success: 0, fail: 0 },
      totalCount: { success: 1, fail: 0 },
      todayIncome: { income: 0 },
      balance: { balance: 3_000_000_040 },
      totalBonus: { totalBonus: 3_000_000_000 },
    });
  });

  it("refuses another user's figures and the global ones with 403", async () => {
    for (const route of ROUTES) {
      for (const id of [referrer.id, admin.id, 'all', '0']) {
        const res = await get(`${route}/${id}`, member);
        expect(res.status, `${route}/${id}`).toBe(403);
        expect(res.body.msg).toEqual(expect.any(String));
      }
    }
  });
});

describe('the admin and dev dashboards', () => {
  it('read the global figures with all or 0', async () => {
    const all = {
      count: { successCount: 6, failCount: 3 },
      todayCount: { success: 3, fail: 1 },
      totalCount: { success: 6, fail: 3 },
      // fees 100 + 100 + 80 and referral fees 10 + 10 of today
      todayIncome: { income: 300 },
      // income 505 + bonuses 3 000 001 750 − withdrawals 500
      balance: { balance: 3_000_001_755 },
      totalBonus: { totalBonus: 3_000_001_750 },
    };
    expect(await figures('all', admin)).toEqual(all);
    expect(await figures('0', dev)).toEqual(all);
  });

  it("read any one user's figures, and 404 for a user that does not exist", async () => {
    const mine = await figures(member.id, member);
    expect(await figures(member.id, admin)).toEqual(mine);
    expect(await figures(member.id, dev)).toEqual(mine);
    expect((await figures(admin.id, admin)).count).toEqual({ successCount: 0, failCount: 0 });
    for (const route of ROUTES) {
      const res = await get(`${route}/2000000000`, admin);
      expect(res.status, route).toBe(404);
      expect(res.body).toEqual({ msg: 'User not found' });
    }
  });
});

describe('refusals', () => {
  it('refuses staff with 403, their own id included', async () => {
    for (const route of ROUTES) {
      for (const id of [staff.id, member.id, 'all']) {
        const res = await get(`${route}/${id}`, staff);
        expect(res.status, `${route}/${id}`).toBe(403);
        expect(res.body.msg).toEqual(expect.any(String));
      }
    }
  });

  it('answers a bad user id with 400 and a message, never 500', async () => {
    for (const route of ROUTES) {
      for (const id of ['abc', '-1', '1.5', '1e3', '99999999999', '%20', 'ALL', '0x10']) {
        for (const u of [admin, member]) {
          const res = await get(`${route}/${id}`, u);
          expect(res.status, `${route}/${id}`).toBe(400);
          expect(res.body.msg).toBe("userId must be a user id or 'all'");
        }
      }
    }
  });

  it('answers without a token with 401', async () => {
    for (const route of ROUTES) {
      const res = await get(`${route}/${member.id}`);
      expect(res.status, route).toBe(401);
      expect(res.body).toEqual({ msg: 'Authorization token is missing' });
      const forged = await request(h.app).get(`/api${route}/${member.id}`).set(bearer('not-a-token'));
      expect(forged.status).toBe(401);
    }
  });
});

describe('the other figures the dashboard reads', () => {
  it("lets a member read the banner text and the member's own WhatsApp count", async () => {
    await h.database.db.execute(sql`update settings set info = 'Promo blast akhir bulan!' where id = 1`);
    await h.database.db.execute(sql`insert into whatsapp_accounts (clientid, user_id, state) values
      ('id-1-1', ${member.id}, 'connected'), ('id-1-2', ${member.id}, 'disconnected'), ('id-1-3', ${other.id}, 'connected')`);
    const setting = await get('/admin/setting/get', member);
    expect(setting.status).toBe(200);
    expect(setting.body.setting.info).toBe('Promo blast akhir bulan!');
    const wa = await get(`/admin/whatsapp/count/${member.id}`, member);
    expect(wa.body).toEqual({ connectedCount: 1, disconnectedCount: 1 });
  });

  it('gives admin and dev the active members, unused proxies and unblasted numbers, and refuses members', async () => {
    await h.database.db.execute(
      sql`insert into proxies (value, count_use) values ('10.0.0.1:8080', 0), ('10.0.0.2:8080', 3)`,
    );
    await h.database.db.execute(sql`insert into phone_numbers (number, status, last_sent) values
      ('6281300000001', 'active', null), ('6281300000002', 'active', null), ('6281300000003', 'active', now())`);
    for (const u of [admin, dev]) {
      expect((await get('/admin/users/active', u)).body).toEqual({ count: 2 });
      expect((await get('/admin/proxy/count-use', u)).body).toEqual({ unUsed: 1, used: 1 });
      expect((await get('/admin/phonenumber/count-blast', u)).body).toEqual({ blasted: 1, unBlasted: 2 });
    }
    for (const p of ['/admin/users/active', '/admin/proxy/count-use', '/admin/phonenumber/count-blast']) {
      expect((await get(p, member)).status, p).toBe(403);
    }
  });
});

describe('the day follows APP_TIMEZONE', () => {
  it('counts from local midnight of the configured zone', async () => {
    const zone = 'Pacific/Kiritimati'; // UTC+14: its day is never the same as UTC's or Jakarta's edges
    const kiri = createApp({
      db: h.database.db,
      jwtSecret: TEST_JWT_SECRET,
      logger: createLogger('silent'),
      dataDir: mkdtempSync(path.join(tmpdir(), 'wa-tz-')),
      timezone: zone,
    });
    const islander = await createUser(h.database.db, { role: 'member', firstname: 'Teuea' });
    await insertLogs(
      [
        { user: islander, status: 'sent', when: 'today', fee: 7 },
        { user: islander, status: 'failed', when: 'today' },
        { user: islander, status: 'sent', when: 'yesterday', fee: 9 },
      ],
      zone,
    );
    expect((await get(`/admin/messagelog/today-count/${islander.id}`, islander, kiri)).body).toEqual({
      success: 1,
      fail: 1,
    });
    expect((await get(`/admin/messagelog/today-income/${islander.id}`, islander, kiri)).body).toEqual({ income: 7 });
    expect((await get(`/admin/messagelog/total-count/${islander.id}`, islander, kiri)).body).toEqual({
      success: 2,
      fail: 1,
    });
  });
});

describe('a dashboard in one call (issue 23)', () => {
  const one = (userId: number | string, as: TestUser) => get(`/admin/dashboard/counters/${userId}`, as);
  /** What the single counter routes say, read one by one as the dashboard used to. */
  const read = async (p: string, as: TestUser) => {
    const res = await get(p, as);
    expect(res.status, `${p}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };

  it('gives a member their own figures, each as its own counter route gives it', async () => {
    for (const u of [member, referrer, other]) {
      const res = await one(u.id, u);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        scope: 'user',
        whatsappCount: await read(`/admin/whatsapp/count/${u.id}`, u),
        messageLogCount: await read(`/admin/messagelog/count/${u.id}`, u),
        todayIncome: (await read(`/admin/messagelog/today-income/${u.id}`, u)).income,
        balance: (await read(`/admin/withdraw/balance/${u.id}`, u)).balance,
        totalBonus: (await read(`/admin/bonus/total/${u.id}`, u)).totalBonus,
      });
    }
    // the seeded figures themselves, so the comparison is not of two empty answers (today's
    // income moved with the time-zone test's recount above)
    expect((await one(member.id, member)).body).toMatchObject({
      whatsappCount: { connectedCount: 1, disconnectedCount: 1 },
      messageLogCount: { successCount: 4, failCount: 2 },
      balance: 1350,
      totalBonus: 1500,
    });
  });

  it("gives admin and dev everybody's figures with all or 0, each as its own counter route gives it", async () => {
    for (const u of [admin, dev]) {
      const expected = {
        scope: 'all',
        proxyCount: await read('/admin/proxy/count-use', u),
        phoneCount: await read('/admin/phonenumber/count-blast', u),
        whatsappCount: await read('/admin/whatsapp/count/all', u),
        usersActiveCount: await read('/admin/users/active', u),
        todayCount: await read('/admin/messagelog/today-count/all', u),
        totalCount: await read('/admin/messagelog/total-count/all', u),
      };
      for (const id of ['all', '0']) {
        const res = await one(id, u);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body).toEqual(expected);
      }
    }
    expect((await one('all', admin)).body).toMatchObject({
      proxyCount: { unUsed: 1, used: 1 },
      phoneCount: { blasted: 1, unBlasted: 2 },
      usersActiveCount: { count: 2 },
    });
  });

  it("gives admin and dev one member's figures as the member reads them, and 404 for nobody", async () => {
    const mine = (await one(member.id, member)).body;
    expect((await one(member.id, admin)).body).toEqual(mine);
    expect((await one(member.id, dev)).body).toEqual(mine);
    const res = await one(2_000_000_000, admin);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ msg: 'User not found' });
  });

  it("refuses a member another user's figures and everybody's, staff and clients any, with 403", async () => {
    for (const id of [referrer.id, admin.id, 'all', '0']) {
      const res = await one(id, member);
      expect(res.status, String(id)).toBe(403);
      expect(res.body.msg).toEqual(expect.any(String));
    }
    const client = await createUser(h.database.db, { role: 'client' });
    for (const [u, ids] of [
      [staff, [staff.id, member.id, 'all']],
      [client, [client.id, member.id, 'all']],
    ] as const) {
      for (const id of ids) {
        const res = await one(id, u);
        expect(res.status, `${u.role} ${id}`).toBe(403);
        expect(res.body.msg).toEqual(expect.any(String));
      }
    }
  });

  it('answers a bad user id with 400 and no token with 401', async () => {
    for (const id of ['abc', '-1', '1.5', 'ALL']) {
      const res = await one(id, admin);
      expect(res.status, id).toBe(400);
      expect(res.body.msg).toBe("userId must be a user id or 'all'");
    }
    const res = await get(`/admin/dashboard/counters/${member.id}`);
    expect(res.status).toBe(401);
  });
});
