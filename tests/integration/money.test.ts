import {
  BONUS_SENT,
  MIN_WITHDRAW,
  WITHDRAW_CODE_NO_BANK,
  WITHDRAW_MINIMUM_MSG,
  WITHDRAW_REQUESTED_MSG,
} from '@wa/shared';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_BANK_MSG } from '../../server/src/modules/withdraw/withdraw.service';
import { type ApiHarness, bearer, setupApi } from '../support/api';
import { testDbKind } from '../support/db';
import { createUser, type TestUser } from '../support/factories';

/**
 * Bonuses, referrals and withdrawals (§2 Bonus, referral, Withdraw; §4 Withdraw status; §5 Bonus and
 * Withdraw; §7 Message log, withdraw and bonus; §8): every route, every role's refusal, bad input,
 * the withdraw minimum, code 1 for missing bank details, the balance and its atomic check.
 */

let h: ApiHarness;
let admin: TestUser;
let dev: TestUser;
let staff: TestUser;
let member: TestUser;
let other: TestUser;

const BANK = { account_name: 'Siti Aminah', account_bank: 'BCA', account_number: '1234567890' };

const api = (p: string) => `/api${p}`;
const get = (p: string, u?: TestUser) => {
  const r = request(h.app).get(api(p));
  return u ? r.set(bearer(u.token)) : r;
};
const post = (p: string, u: TestUser | null, body: unknown) => {
  const r = request(h.app).post(api(p));
  return (u ? r.set(bearer(u.token)) : r).send(body as object);
};
const put = (p: string, u: TestUser | null, body: unknown) => {
  const r = request(h.app).put(api(p));
  return (u ? r.set(bearer(u.token)) : r).send(body as object);
};
const del = (p: string, u?: TestUser) => {
  const r = request(h.app).delete(api(p));
  return u ? r.set(bearer(u.token)) : r;
};

let seq = 0;
/** A settled message log: a successful send pays `fee`, and `referralFee` to `referrer`. */
async function log(
  user: TestUser,
  o: { status?: string; fee?: number; referrer?: TestUser | null; referralFee?: number } = {},
) {
  seq += 1;
  await h.database.db.execute(
    sql`insert into message_logs (user_id, target, status, fee, referrer_id, referral_fee)
        values (${user.id}, ${`62813${String(seq).padStart(8, '0')}`}, ${o.status ?? 'success'}, ${o.fee ?? 0},
                ${o.referrer?.id ?? null}, ${o.referralFee ?? 0})`,
  );
}
async function setBank(u: TestUser, bank: Partial<typeof BANK>) {
  const res = await put(`/admin/users/${u.id}`, u, bank);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
/** A member with bank details and `income` rupiah earned by blasting. */
async function memberWith(income: number, opts: { bank?: boolean } = {}) {
  const u = await createUser(h.database.db, { role: 'member' });
  if (opts.bank !== false) await setBank(u, BANK);
  if (income) await log(u, { fee: income });
  return u;
}
const balanceOf = async (u: TestUser) => (await get(`/admin/withdraw/balance/${u.id}`, u)).body.balance as number;
const withdrawalsOf = async (u: TestUser) => {
  const r = await h.database.db.execute(sql`select count(*)::int as n from withdrawals where user_id = ${u.id}`);
  return Number((r as unknown as { rows: { n: number }[] }).rows[0].n);
};

beforeAll(async () => {
  h = await setupApi();
  const db = h.database.db;
  admin = await createUser(db, { role: 'admin' });
  dev = await createUser(db, { role: 'dev' });
  staff = await createUser(db, { role: 'staff' });
  member = await createUser(db, { role: 'member', firstname: 'Siti', lastname: 'Aminah' });
  other = await createUser(db, { role: 'member', firstname: 'Oki', lastname: 'Setiawan' });
});
afterAll(() => h.close());

describe('bonus: POST /admin/bonus/create', () => {
  it('lets admin and dev send a member a bonus, the giver taken from the token', async () => {
    const res = await post('/admin/bonus/create', admin, {
      userId: member.id,
      nominal: 25_000,
      reason: 'Top blaster minggu ini',
      adminId: dev.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.msg).toBe(BONUS_SENT);
    expect(res.body.bonus).toMatchObject({
      userId: member.id,
      adminId: admin.id,
      nominal: 25_000,
      reason: 'Top blaster minggu ini',
      User: { firstname: 'Siti', lastname: 'Aminah' },
    });
    const byDev = await post('/admin/bonus/create', dev, {
      userId: String(other.id),
      nominal: '5000',
      reason: 'Promo',
    });
    expect(byDev.status).toBe(201);
    expect(byDev.body.bonus).toMatchObject({ adminId: dev.id, nominal: 5000 });
    expect((await get(`/admin/bonus/total/${member.id}`, member)).body).toEqual({ totalBonus: 25_000 });
  });

  it('refuses members, staff and callers without a token', async () => {
    const body = { userId: member.id, nominal: 1000, reason: 'x' };
    for (const u of [member, staff]) {
      const res = await post('/admin/bonus/create', u, { ...body, adminId: admin.id });
      expect(res.status, u.role).toBe(403);
      expect(res.body.msg).toEqual(expect.any(String));
    }
    expect((await post('/admin/bonus/create', null, body)).status).toBe(401);
    expect((await get(`/admin/bonus/total/${member.id}`, member)).body).toEqual({ totalBonus: 25_000 });
  });

  it('answers bad input with 400 and the field, never 500', async () => {
    const cases: [unknown, string, string][] = [
      [{ userId: member.id, reason: 'x' }, 'nominal', 'Nominal is required.'],
      [{ userId: member.id, nominal: 'banyak', reason: 'x' }, 'nominal', 'Nominal must be a number.'],
      [{ userId: member.id, nominal: 0, reason: 'x' }, 'nominal', 'Nominal must be at least 1.'],
      [{ userId: member.id, nominal: 10.5, reason: 'x' }, 'nominal', 'Nominal must be a whole number.'],
      [{ userId: member.id, nominal: 1000 }, 'reason', 'Keterangan is required.'],
      [{ userId: member.id, nominal: 1000, reason: '   ' }, 'reason', 'Keterangan is required.'],
      [{ nominal: 1000, reason: 'x' }, 'userId', 'Member is required.'],
      [{ userId: 'abc', nominal: 1000, reason: 'x' }, 'userId', 'Member must be a number.'],
      [{ userId: 2_000_000_000, nominal: 1000, reason: 'x' }, 'userId', 'Member not found.'],
      [{ userId: staff.id, nominal: 1000, reason: 'x' }, 'userId', 'Member not found.'],
      [{ userId: admin.id, nominal: 1000, reason: 'x' }, 'userId', 'Member not found.'],
    ];
    for (const [body, field, msg] of cases) {
      const res = await post('/admin/bonus/create', admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg, JSON.stringify(body)).toBe(msg);
      expect(res.body.errors[field]).toBe(msg);
    }
    for (const body of [[], 'text', null]) {
      expect((await post('/admin/bonus/create', admin, body)).status).toBe(400);
    }
    const malformed = await request(h.app)
      .post(api('/admin/bonus/create'))
      .set(bearer(admin.token))
      .set('content-type', 'application/json')
      .send('{"nominal":');
    expect(malformed.status).toBe(400);
    expect((await get(`/admin/bonus/total/${member.id}`, member)).body).toEqual({ totalBonus: 25_000 });
  });
});

describe('bonus: GET /admin/bonus/list-per-page', () => {
  it('gives admin and dev every bonus, newest first, or one member’s with user_id', async () => {
    for (const u of [admin, dev]) {
      const all = await get('/admin/bonus/list-per-page?page=1', u);
      expect(all.status).toBe(200);
      expect(all.body.meta).toMatchObject({ page: 1, totalPages: 1, total: 2 });
      expect(all.body.data.map((b: { userId: number }) => b.userId)).toEqual([other.id, member.id]);
      const one = await get(`/admin/bonus/list-per-page?page=1&user_id=${member.id}`, u);
      expect(one.body.data).toHaveLength(1);
      expect(one.body.data[0]).toMatchObject({ nominal: 25_000, createdAt: expect.any(String) });
    }
  });

  it('shows a member only their own bonuses, whatever user_id says', async () => {
    for (const q of ['', `&user_id=${other.id}`, `&user_id=${member.id}`]) {
      const res = await get(`/admin/bonus/list-per-page?page=1${q}`, member);
      expect(res.status).toBe(200);
      expect(res.body.data.map((b: { userId: number }) => b.userId)).toEqual([member.id]);
      expect(res.body.meta.totalPages).toBe(1);
    }
  });

  it('pages by 10 and refuses staff, no token and bad queries', async () => {
    const many = await memberWith(0);
    for (let i = 0; i < 11; i++) {
      expect(
        (await post('/admin/bonus/create', admin, { userId: many.id, nominal: 100 + i, reason: `#${i}` })).status,
      ).toBe(201);
    }
    const p1 = await get('/admin/bonus/list-per-page?page=1', many);
    expect(p1.body.meta).toMatchObject({ totalPages: 2, total: 11 });
    expect(p1.body.data).toHaveLength(10);
    expect(p1.body.data[0].nominal).toBe(110);
    expect((await get('/admin/bonus/list-per-page?page=2', many)).body.data).toHaveLength(1);
    expect((await get('/admin/bonus/list-per-page', staff)).status).toBe(403);
    expect((await get('/admin/bonus/list-per-page')).status).toBe(401);
    for (const q of ['page=0', 'page=abc', 'user_id=abc', 'user_id=-3']) {
      const res = await get(`/admin/bonus/list-per-page?${q}`, admin);
      expect(res.status, q).toBe(400);
      expect(res.body.msg).toEqual(expect.any(String));
    }
  });
});

describe('bonus: DELETE /admin/bonus/{id}', () => {
  it('lets admin and dev take a bonus back; members and staff may not', async () => {
    const a = (await post('/admin/bonus/create', admin, { userId: other.id, nominal: 700, reason: 'salah kirim' })).body
      .bonus;
    const b = (await post('/admin/bonus/create', admin, { userId: other.id, nominal: 300, reason: 'salah kirim' })).body
      .bonus;
    const before = (await get(`/admin/bonus/total/${other.id}`, other)).body.totalBonus;
    for (const u of [member, other, staff]) expect((await del(`/admin/bonus/${a.id}`, u)).status, u.role).toBe(403);
    expect((await del(`/admin/bonus/${a.id}`)).status).toBe(401);
    const res = await del(`/admin/bonus/${a.id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.id });
    expect((await del(`/admin/bonus/${b.id}`, dev)).status).toBe(200);
    expect((await get(`/admin/bonus/total/${other.id}`, other)).body.totalBonus).toBe(before - 1000);
    expect((await del(`/admin/bonus/${a.id}`, admin)).status).toBe(404);
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      expect((await del(`/admin/bonus/${id}`, admin)).status, id).toBe(400);
    }
  });
});

describe('referral: GET /admin/users/referral-per-page', () => {
  it("lists a member's referred users with what each earned the member", async () => {
    const referrer = await memberWith(0);
    const ani = await createUser(h.database.db, { role: 'member', firstname: 'Ani', referrerId: referrer.id });
    const budi = await createUser(h.database.db, { role: 'member', firstname: 'Budi', referrerId: referrer.id });
    await log(ani, { fee: 100, referrer, referralFee: 10 });
    await log(ani, { fee: 100, referrer, referralFee: 10 });
    // unsettled and failed sends pay nobody; a share paid to someone else is not this member's
    await log(ani, { status: 'fail', referrer, referralFee: 5 });
    await log(ani, { status: 'pending', fee: 100, referrer, referralFee: 10 });
    await log(ani, { fee: 100, referrer: other, referralFee: 7 });
    const res = await get('/admin/users/referral-per-page?page=1', referrer);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, meta: { totalPages: 1 } });
    const byName = Object.fromEntries(
      res.body.list.map((r: { firstname: string; income: number }) => [r.firstname, r.income]),
    );
    expect(byName).toEqual({ Ani: 20, Budi: 0 });
    expect(res.body.list.find((r: { id: number }) => r.id === budi.id)).toMatchObject({
      lastname: 'Tester',
      email: budi.email,
    });
    // the referral fees count in the referrer's balance too (DESIGN.md Money)
    expect(await balanceOf(referrer)).toBe(20);
  });
});

describe('withdraw: POST /admin/withdraw/request', () => {
  it('takes a request at the minimum, keeps the bank details of that moment, and holds the money', async () => {
    const u = await memberWith(30_000);
    const res = await post('/admin/withdraw/request', u, { nominal: MIN_WITHDRAW, userId: u.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.msg).toBe(WITHDRAW_REQUESTED_MSG);
    expect(res.body.withdraw).toMatchObject({ userId: u.id, nominal: 10_000, status: 'requested', User: BANK });
    expect(await balanceOf(u)).toBe(20_000);
    // a later profile edit does not redirect the pending transfer
    await setBank(u, { account_bank: 'BRI', account_number: '999', account_name: 'Orang Lain' });
    const history = await get(`/admin/withdraw/history/${u.id}`, u);
    expect(history.body.list[0].User).toMatchObject(BANK);
  });

  it(`refuses less than the minimum with '${WITHDRAW_MINIMUM_MSG}'`, async () => {
    const u = await memberWith(50_000);
    for (const nominal of [9_999, '5000', 0, -10_000, 1]) {
      const res = await post('/admin/withdraw/request', u, { nominal, userId: u.id });
      expect(res.status, String(nominal)).toBe(400);
      expect(res.body.msg).toBe(WITHDRAW_MINIMUM_MSG);
      expect(res.body.code).toBeUndefined();
    }
    expect(await withdrawalsOf(u)).toBe(0);
  });

  it('answers code 1 and a text when the bank details are incomplete', async () => {
    const none = await memberWith(50_000, { bank: false });
    const res = await post('/admin/withdraw/request', none, { nominal: 10_000, userId: none.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ msg: NO_BANK_MSG, code: WITHDRAW_CODE_NO_BANK });
    await setBank(none, { account_bank: 'BCA', account_number: '123' });
    const partial = await post('/admin/withdraw/request', none, { nominal: 10_000, userId: none.id });
    expect(partial.body.code).toBe(1);
    expect(await withdrawalsOf(none)).toBe(0);
    await setBank(none, { account_name: 'Lengkap' });
    expect((await post('/admin/withdraw/request', none, { nominal: 10_000, userId: none.id })).status).toBe(201);
  });

  it('refuses more than the balance and takes exactly the balance', async () => {
    const u = await memberWith(12_000);
    await post('/admin/bonus/create', admin, { userId: u.id, nominal: 3_000, reason: 'bonus' });
    expect(await balanceOf(u)).toBe(15_000);
    const over = await post('/admin/withdraw/request', u, { nominal: 15_001, userId: u.id });
    expect(over.status).toBe(400);
    expect(over.body.msg).toBe('Saldo tidak mencukupi. Saldo Anda saat ini Rp 15.000.');
    expect(await withdrawalsOf(u)).toBe(0);
    expect((await post('/admin/withdraw/request', u, { nominal: 15_000, userId: u.id })).status).toBe(201);
    expect(await balanceOf(u)).toBe(0);
    expect((await post('/admin/withdraw/request', u, { nominal: 10_000, userId: u.id })).status).toBe(400);
  });

  it('lets only one of many simultaneous requests spend the same balance', async () => {
    const u = await memberWith(25_000);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => post('/admin/withdraw/request', u, { nominal: 20_000, userId: u.id })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400, 400, 400, 400]);
    expect(await withdrawalsOf(u)).toBe(1);
    expect(await balanceOf(u)).toBe(5_000);
  });

  it(`keeps two requests that fit one at a time but not together apart (${testDbKind()})`, async () => {
    for (let round = 0; round < 5; round++) {
      const u = await memberWith(30_000);
      const [a, b, c] = await Promise.all([
        post('/admin/withdraw/request', u, { nominal: 12_000, userId: u.id }),
        post('/admin/withdraw/request', u, { nominal: 12_000, userId: u.id }),
        post('/admin/withdraw/request', u, { nominal: 12_000, userId: u.id }),
      ]);
      expect([a.status, b.status, c.status].sort()).toEqual([201, 201, 400]);
      expect(await balanceOf(u)).toBe(6_000);
    }
  });

  it('refuses a request for somebody else, by admin or staff, and bad input', async () => {
    const u = await memberWith(50_000);
    expect((await post('/admin/withdraw/request', u, { nominal: 10_000, userId: other.id })).status).toBe(403);
    for (const x of [admin, staff]) {
      expect((await post('/admin/withdraw/request', x, { nominal: 10_000, userId: x.id })).status, x.role).toBe(403);
    }
    expect((await post('/admin/withdraw/request', null, { nominal: 10_000, userId: u.id })).status).toBe(401);
    const cases: [unknown, string][] = [
      [{ userId: u.id }, 'Nominal is required.'],
      [{ nominal: 'sepuluh ribu', userId: u.id }, 'Nominal must be a number.'],
      [{ nominal: 10_000.5, userId: u.id }, 'Nominal must be a whole number.'],
      [{ nominal: 10_000 }, 'User is required.'],
      [{ nominal: 10_000, userId: 'me' }, 'User must be a number.'],
    ];
    for (const [body, msg] of cases) {
      const res = await post('/admin/withdraw/request', u, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    expect((await post('/admin/withdraw/request', u, [])).status).toBe(400);
    expect(await withdrawalsOf(u)).toBe(0);
  });

  it('lets a dev request for themselves', async () => {
    const d = await createUser(h.database.db, { role: 'dev' });
    await setBank(d, BANK);
    await log(d, { fee: 10_000 });
    expect((await post('/admin/withdraw/request', d, { nominal: 10_000, userId: d.id })).status).toBe(201);
  });
});

describe('withdraw: PUT /admin/withdraw/update (§4 Withdraw status)', () => {
  it('lets an admin accept, cancel, reject and cancel again, with the texts of §4', async () => {
    const u = await memberWith(40_000);
    const w = (await post('/admin/withdraw/request', u, { nominal: 25_000, userId: u.id })).body.withdraw;
    const step = async (status: string, msg: string, balance: number) => {
      const res = await put('/admin/withdraw/update', admin, { id: w.id, status });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.msg).toBe(msg);
      expect(res.body.withdraw).toMatchObject({ id: w.id, status });
      expect(await balanceOf(u)).toBe(balance);
    };
    await step('accepted', 'Permintaan withdraw Diterima', 15_000);
    expect((await get(`/admin/withdraw/total-accepted/${u.id}`, u)).body).toEqual({ total: 25_000 });
    expect((await get(`/admin/withdraw/total-requested/${u.id}`, u)).body).toEqual({ total: 0 });
    await step('requested', 'Dibatalkan', 15_000);
    await step('rejected', 'Ditolak', 40_000);
    await step('requested', 'Dibatalkan', 15_000);
    expect((await get(`/admin/withdraw/total-requested/${u.id}`, u)).body).toEqual({ total: 25_000 });
  });

  it('refuses a move §4 does not allow, and reinstating a rejected request the balance no longer covers', async () => {
    const u = await memberWith(30_000);
    const w = (await post('/admin/withdraw/request', u, { nominal: 20_000, userId: u.id })).body.withdraw;
    expect((await put('/admin/withdraw/update', admin, { id: w.id, status: 'requested' })).status).toBe(409);
    expect((await put('/admin/withdraw/update', admin, { id: w.id, status: 'accepted' })).status).toBe(200);
    expect((await put('/admin/withdraw/update', admin, { id: w.id, status: 'rejected' })).status).toBe(409);
    expect((await put('/admin/withdraw/update', admin, { id: w.id, status: 'accepted' })).status).toBe(409);
    const v = (await post('/admin/withdraw/request', u, { nominal: 10_000, userId: u.id })).body.withdraw;
    expect((await put('/admin/withdraw/update', admin, { id: v.id, status: 'rejected' })).status).toBe(200);
    await post('/admin/withdraw/request', u, { nominal: 10_000, userId: u.id });
    expect(await balanceOf(u)).toBe(0);
    const back = await put('/admin/withdraw/update', admin, { id: v.id, status: 'requested' });
    expect(back.status).toBe(409);
    expect(back.body.msg).toBe('Saldo member tidak mencukupi (Rp 0).');
    expect(await balanceOf(u)).toBe(0);
  });

  it('is for admins only: dev, staff and members are refused', async () => {
    const u = await memberWith(10_000);
    const w = (await post('/admin/withdraw/request', u, { nominal: 10_000, userId: u.id })).body.withdraw;
    for (const x of [dev, staff, u]) {
      const res = await put('/admin/withdraw/update', x, { id: w.id, status: 'accepted' });
      expect(res.status, x.role).toBe(403);
    }
    expect((await put('/admin/withdraw/update', null, { id: w.id, status: 'accepted' })).status).toBe(401);
    expect((await get(`/admin/withdraw/history/${u.id}`, u)).body.list[0].status).toBe('requested');
  });

  it('answers bad input with 400 and an unknown id with 404', async () => {
    for (const body of [
      { status: 'accepted' },
      { id: 'abc', status: 'accepted' },
      { id: 1 },
      { id: 1, status: 'paid' },
      { id: -1, status: 'accepted' },
      [],
    ]) {
      const res = await put('/admin/withdraw/update', admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toEqual(expect.any(String));
    }
    const missing = await put('/admin/withdraw/update', admin, { id: 2_000_000_000, status: 'accepted' });
    expect(missing.status).toBe(404);
  });
});

describe('withdraw: the lists and figures', () => {
  let u: TestUser;
  let v: TestUser;
  beforeAll(async () => {
    u = await memberWith(100_000);
    v = await memberWith(100_000);
    for (const n of [10_000, 11_000, 12_000]) await post('/admin/withdraw/request', u, { nominal: n, userId: u.id });
    await post('/admin/withdraw/request', v, { nominal: 20_000, userId: v.id });
  });

  it('history/{userId}: a member their own; admin, dev and staff anyone’s', async () => {
    const own = await get(`/admin/withdraw/history/${u.id}`, u);
    expect(own.status).toBe(200);
    expect(own.body.list.map((w: { nominal: number }) => w.nominal)).toEqual([12_000, 11_000, 10_000]);
    for (const x of [admin, dev, staff]) {
      const res = await get(`/admin/withdraw/history/${u.id}`, x);
      expect(res.status, x.role).toBe(200);
      expect(res.body.list).toHaveLength(3);
    }
    expect((await get(`/admin/withdraw/history/${v.id}`, u)).status).toBe(403);
    expect((await get(`/admin/withdraw/history/2000000000`, staff)).status).toBe(404);
    for (const id of ['abc', '0', 'all']) expect((await get(`/admin/withdraw/history/${id}`, admin)).status).toBe(400);
    expect((await get(`/admin/withdraw/history/${u.id}`)).status).toBe(401);
  });

  it('histories: every request for admin, dev and staff; members refused', async () => {
    for (const x of [admin, dev, staff]) {
      const res = await get('/admin/withdraw/histories', x);
      expect(res.status, x.role).toBe(200);
      const ids = res.body.list.map((w: { userId: number }) => w.userId);
      expect(ids).toContain(u.id);
      expect(ids).toContain(v.id);
      expect(res.body.list[0].User).toMatchObject({ firstname: expect.any(String), lastname: 'Tester' });
    }
    expect((await get('/admin/withdraw/histories', u)).status).toBe(403);
    expect((await get('/admin/withdraw/histories')).status).toBe(401);
  });

  it('histories-per-page: a member only their own whatever user_id says; the handlers all or one user’s', async () => {
    for (const q of ['', `&user_id=${v.id}`]) {
      const res = await get(`/admin/withdraw/histories-per-page?page=1${q}`, u);
      expect(res.status).toBe(200);
      expect(res.body.data.map((w: { userId: number }) => w.userId)).toEqual([u.id, u.id, u.id]);
      expect(res.body.meta).toMatchObject({ totalPages: 1, total: 3 });
    }
    for (const x of [admin, dev, staff]) {
      const all = await get('/admin/withdraw/histories-per-page?page=1', x);
      expect(all.status).toBe(200);
      expect(all.body.meta.total).toBeGreaterThanOrEqual(4);
      expect(all.body.data).toHaveLength(Math.min(10, all.body.meta.total));
      const one = await get(`/admin/withdraw/histories-per-page?page=1&user_id=${v.id}`, x);
      expect(one.body.data.map((w: { nominal: number }) => w.nominal)).toEqual([20_000]);
    }
    for (const q of ['page=0', 'page=x', 'user_id=x']) {
      expect((await get(`/admin/withdraw/histories-per-page?${q}`, admin)).status, q).toBe(400);
    }
    expect((await get('/admin/withdraw/histories-per-page')).status).toBe(401);
  });

  it('income, balance, total-requested and total-accepted: own for members, anyone for admin and dev, not staff', async () => {
    await log(u, { fee: 500 });
    const figures = async (x: TestUser) => ({
      income: (await get(`/admin/withdraw/income/${u.id}`, x)).body,
      balance: (await get(`/admin/withdraw/balance/${u.id}`, x)).body,
      requested: (await get(`/admin/withdraw/total-requested/${u.id}`, x)).body,
      accepted: (await get(`/admin/withdraw/total-accepted/${u.id}`, x)).body,
    });
    const expected = {
      income: { income: 100_500 },
      balance: { balance: 100_500 - 33_000 },
      requested: { total: 33_000 },
      accepted: { total: 0 },
    };
    for (const x of [u, admin, dev]) expect(await figures(x)).toEqual(expected);
    for (const route of ['income', 'balance', 'total-requested', 'total-accepted']) {
      expect((await get(`/admin/withdraw/${route}/${u.id}`, v)).status, route).toBe(403);
      expect((await get(`/admin/withdraw/${route}/${u.id}`, staff)).status, route).toBe(403);
      expect((await get(`/admin/withdraw/${route}/abc`, admin)).status, route).toBe(400);
      expect((await get(`/admin/withdraw/${route}/${u.id}`)).status, route).toBe(401);
    }
  });
});

describe('withdraw: the bank details go to admin and the owner only (§2)', () => {
  type Row = { id: number; userId: number; User: Record<string, unknown> };
  const ACCOUNT_KEYS = ['account_name', 'account_bank', 'account_number'];
  const DEV_BANK = { account_name: 'Dewi Dev', account_bank: 'MANDIRI', account_number: '5550001111' };
  let owner: TestUser;
  let another: TestUser;
  let devOwner: TestUser;

  beforeAll(async () => {
    owner = await memberWith(50_000);
    another = await createUser(h.database.db, { role: 'member' });
    await setBank(another, { account_name: 'Orang Lain', account_bank: 'BRI', account_number: '777' });
    await log(another, { fee: 20_000 });
    devOwner = await createUser(h.database.db, { role: 'dev' });
    await setBank(devOwner, DEV_BANK);
    await log(devOwner, { fee: 20_000 });
    for (const [x, n] of [
      [owner, 10_000],
      [owner, 15_000],
      [another, 10_000],
      [devOwner, 10_000],
    ] as const) {
      expect((await post('/admin/withdraw/request', x, { nominal: n, userId: x.id })).status).toBe(201);
    }
  });

  const hasAccount = (r: Row) => ACCOUNT_KEYS.every((k) => typeof r.User[k] === 'string');
  const noAccount = (r: Row) => ACCOUNT_KEYS.every((k) => !(k in r.User));
  /** What each caller must get for a row: admin every row's details, anyone else only their own. */
  const expectDetails = (x: TestUser, list: Row[]) => {
    expect(list.length, x.role).toBeGreaterThan(0);
    for (const r of list) {
      const shown = x.role === 'admin' || r.userId === x.id;
      expect(
        shown ? hasAccount(r) : noAccount(r),
        `${x.role} ${x.id} row of ${r.userId}: ${JSON.stringify(r.User)}`,
      ).toBe(true);
      expect(r.User).toMatchObject({ firstname: expect.any(String), lastname: expect.any(String) });
    }
  };

  it('history/{userId}: the details for admin and the owner; dev and staff get the rows without them', async () => {
    for (const x of [admin, dev, staff, owner]) {
      const res = await get(`/admin/withdraw/history/${owner.id}`, x);
      expect(res.status, x.role).toBe(200);
      expect(res.body.list, x.role).toHaveLength(2);
      expectDetails(x, res.body.list);
    }
    expect((await get(`/admin/withdraw/history/${owner.id}`, admin)).body.list[0].User).toMatchObject(BANK);
    expect((await get(`/admin/withdraw/history/${owner.id}`, owner)).body.list[0].User).toMatchObject(BANK);
    const devOwn = await get(`/admin/withdraw/history/${devOwner.id}`, devOwner);
    expect(devOwn.body.list[0].User).toMatchObject(DEV_BANK);
    expect((await get(`/admin/withdraw/history/${devOwner.id}`, staff)).body.list.every(noAccount)).toBe(true);
    const refused = await get(`/admin/withdraw/history/${owner.id}`, another);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain(BANK.account_number);
    const anon = await get(`/admin/withdraw/history/${owner.id}`);
    expect(anon.status).toBe(401);
    expect(JSON.stringify(anon.body)).not.toContain(BANK.account_number);
  });

  it("histories: every row's details for admin; dev only their own rows', staff none; members and no token refused", async () => {
    for (const x of [admin, dev, devOwner, staff]) {
      const res = await get('/admin/withdraw/histories', x);
      expect(res.status, x.role).toBe(200);
      expect(res.body.list.some((r: Row) => r.userId === owner.id)).toBe(true);
      expectDetails(x, res.body.list);
    }
    const admins = (await get('/admin/withdraw/histories', admin)).body.list as Row[];
    expect(admins.find((r) => r.userId === owner.id)?.User).toMatchObject(BANK);
    expect(admins.find((r) => r.userId === devOwner.id)?.User).toMatchObject(DEV_BANK);
    const staffs = (await get('/admin/withdraw/histories', staff)).body.list as Row[];
    expect(JSON.stringify(staffs)).not.toContain(BANK.account_number);
    for (const x of [owner, another]) expect((await get('/admin/withdraw/histories', x)).status).toBe(403);
    expect((await get('/admin/withdraw/histories')).status).toBe(401);
  });

  it('histories-per-page: the same, all or one user’s; a member their own with the details, never another’s', async () => {
    for (const x of [admin, dev, devOwner, staff]) {
      for (const q of ['', `&user_id=${owner.id}`, `&user_id=${devOwner.id}`]) {
        const res = await get(`/admin/withdraw/histories-per-page?page=1${q}`, x);
        expect(res.status, `${x.role} ${q}`).toBe(200);
        expectDetails(x, res.body.data);
      }
    }
    for (const x of [owner, another]) {
      for (const q of ['', `&user_id=${owner.id}`]) {
        const res = await get(`/admin/withdraw/histories-per-page?page=1${q}`, x);
        expect(res.status).toBe(200);
        expect(res.body.data.every((r: Row) => r.userId === x.id)).toBe(true);
        expectDetails(x, res.body.data);
      }
    }
    const own = await get('/admin/withdraw/histories-per-page?page=1', owner);
    expect(own.body.data.map((r: Row) => r.User)).toEqual([
      expect.objectContaining(BANK),
      expect.objectContaining(BANK),
    ]);
    const theirs = await get(`/admin/withdraw/histories-per-page?page=1&user_id=${owner.id}`, another);
    expect(JSON.stringify(theirs.body)).not.toContain(BANK.account_number);
    expect((await get('/admin/withdraw/histories-per-page?page=1')).status).toBe(401);
  });

  it('the request answers its owner with the details, the update answers the admin with them', async () => {
    const res = await post('/admin/withdraw/request', owner, { nominal: 10_000, userId: owner.id });
    expect(res.status).toBe(201);
    expect(res.body.withdraw.User).toMatchObject(BANK);
    const moved = await put('/admin/withdraw/update', admin, { id: res.body.withdraw.id, status: 'rejected' });
    expect(moved.status).toBe(200);
    expect(moved.body.withdraw.User).toMatchObject(BANK);
  });
});

describe('bonus: DELETE refuses to take back money already withdrawn', () => {
  const REFUSED = (balance: string, nominal: string) =>
    `Bonus tidak dapat dihapus karena saldo member tidak mencukupi (saldo ${balance}, bonus ${nominal}).`;
  const giveBonus = async (u: TestUser, nominal: number) => {
    const res = await post('/admin/bonus/create', admin, { userId: u.id, nominal, reason: 'bonus' });
    expect(res.status).toBe(201);
    return res.body.bonus.id as number;
  };
  const bonusCount = async (id: number) => {
    const r = await h.database.db.execute(sql`select count(*)::int as n from bonuses where id = ${id}`);
    return Number((r as unknown as { rows: { n: number }[] }).rows[0].n);
  };

  it('refuses (409 and a text) when the withdrawn bonus would leave the balance at −10.000, for admin and dev', async () => {
    const u = await memberWith(0);
    const id = await giveBonus(u, 10_000);
    const w = await post('/admin/withdraw/request', u, { nominal: 10_000, userId: u.id });
    expect(w.status).toBe(201);
    expect(await balanceOf(u)).toBe(0);
    for (const x of [admin, dev]) {
      const res = await del(`/admin/bonus/${id}`, x);
      expect(res.status, x.role).toBe(409);
      expect(res.body).toEqual({ msg: REFUSED('Rp 0', 'Rp 10.000') });
    }
    // the owner, another member and staff may not delete at all; no token is 401
    const another = await memberWith(0);
    for (const x of [u, another, staff]) expect((await del(`/admin/bonus/${id}`, x)).status, x.role).toBe(403);
    expect((await del(`/admin/bonus/${id}`)).status).toBe(401);
    expect(await bonusCount(id)).toBe(1);
    expect(await balanceOf(u)).toBe(0);
    expect((await get(`/admin/bonus/total/${u.id}`, u)).body.totalBonus).toBe(10_000);

    // once the withdrawal is rejected the money is back and the bonus can go
    const back = await put('/admin/withdraw/update', admin, { id: w.body.withdraw.id, status: 'rejected' });
    expect(back.status).toBe(200);
    const ok = await del(`/admin/bonus/${id}`, admin);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ id, msg: 'Bonus berhasil dihapus.' });
    expect(await balanceOf(u)).toBe(0);
  });

  it('refuses a delete one rupiah below 0 and allows one down to exactly 0', async () => {
    const u = await memberWith(9_999);
    const big = await giveBonus(u, 10_000);
    expect((await post('/admin/withdraw/request', u, { nominal: 10_000, userId: u.id })).status).toBe(201);
    expect(await balanceOf(u)).toBe(9_999);
    const below = await del(`/admin/bonus/${big}`, dev);
    expect(below.status).toBe(409);
    expect(below.body.msg).toBe(REFUSED('Rp 9.999', 'Rp 10.000'));
    const one = await giveBonus(u, 1);
    expect((await del(`/admin/bonus/${big}`, dev)).status).toBe(200);
    expect(await balanceOf(u)).toBe(0);
    const last = await del(`/admin/bonus/${one}`, admin);
    expect(last.status).toBe(409);
    expect(last.body.msg).toBe(REFUSED('Rp 0', 'Rp 1'));
    expect(await balanceOf(u)).toBe(0);
  });

  it(`lets either a withdrawal or the bonus delete pass when they race, never both (${testDbKind()})`, async () => {
    for (let round = 0; round < 8; round++) {
      // income 10.000 + bonus 20.000: each alone fits, any two together do not
      const u = await memberWith(10_000);
      const id = await giveBonus(u, 20_000);
      const results = await Promise.all([
        post('/admin/withdraw/request', u, { nominal: 20_000, userId: u.id }),
        del(`/admin/bonus/${id}`, round % 2 ? admin : dev),
        post('/admin/withdraw/request', u, { nominal: 20_000, userId: u.id }),
        del(`/admin/bonus/${id}`, round % 2 ? dev : admin),
      ]);
      const passed = results.filter((r) => r.status < 300);
      expect(passed, results.map((r) => `${r.status} ${JSON.stringify(r.body)}`).join('\n')).toHaveLength(1);
      for (const r of results) expect([200, 201, 400, 404, 409], JSON.stringify(r.body)).toContain(r.status);
      expect(await balanceOf(u)).toBe(10_000);
      expect((await withdrawalsOf(u)) + (1 - (await bonusCount(id)))).toBe(1);
    }
  });
});
