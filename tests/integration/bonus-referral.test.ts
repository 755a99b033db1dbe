import { BONUS_SENT } from '@wa/shared';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { apiCalls, bearer, useApi } from '../support/api';
import { testDbKind } from '../support/db';
import { createUser, OFFICE_USERS, type TestUser, useUsers } from '../support/factories';
import { moneyHelpers } from '../support/money';

/**
 * Bonuses and referrals (§2 Bonus, referral; §5 Bonus; §7 Message log, withdraw and bonus; §8):
 * every route, every role's refusal, bad input, and a bonus that cannot be taken back once the
 * money is withdrawn. The withdrawals themselves: withdraw-requests.test.ts, withdraw-lists.test.ts.
 */

const h = useApi();
const { admin, dev, staff, member, other } = useUsers(() => h.database.db, {
  ...OFFICE_USERS,
  member: { role: 'member', firstname: 'Siti', lastname: 'Aminah' },
  other: { role: 'member', firstname: 'Oki', lastname: 'Setiawan' },
});
const { get, post, put, del } = apiCalls(h);
const { log, memberWith, balanceOf, withdrawalsOf, bonusCount } = moneyHelpers(h);

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
      .post('/api/admin/bonus/create')
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
    // sends WhatsApp refused pay nobody, nor unsettled ones; a share paid to someone else is not this member's
    await log(ani, { status: 'failed', referrer });
    await log(ani, { status: 'pending', fee: 100, referrer, referralFee: 10 });
    const cici = await createUser(h.database.db, { role: 'member', firstname: 'Cici', referrerId: other.id });
    await log(cici, { fee: 100, referrer: other, referralFee: 7 });
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
    // the referral fees count in the referrer's balance too (docs/PRODUCT.md §4 Money)
    expect(await balanceOf(referrer)).toBe(20);
  });

  it('shows one "Pendapatan" for a member: own fees + referral fees, in the members list as in withdraw/income', async () => {
    const earner = await memberWith(3000);
    const dani = await createUser(h.database.db, { role: 'member', firstname: 'Dani', referrerId: earner.id });
    await log(dani, { fee: 3900, referrer: earner, referralFee: 390 });
    const income = (await get(`/admin/withdraw/income/${earner.id}`, earner)).body.income;
    expect(income).toBe(3390);
    const members = await get(`/admin/users/members-per-page?page=1&search=${encodeURIComponent(earner.email)}`, admin);
    expect(members.status).toBe(200);
    expect(members.body.data.find((u: { id: number }) => u.id === earner.id)?.income).toBe(income);
    expect((await get(`/admin/users/${earner.id}`, admin)).body.user.income).toBe(income);
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
