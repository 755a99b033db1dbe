import { MIN_WITHDRAW, WITHDRAW_CODE_NO_BANK, WITHDRAW_MINIMUM_MSG, WITHDRAW_REQUESTED_MSG } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { NO_BANK_MSG } from '../../server/src/modules/withdraw/withdraw.service';
import { apiCalls, useApi } from '../support/api';
import { testDbKind } from '../support/db';
import { createUser, OFFICE_USERS, useUsers } from '../support/factories';
import { BANK, moneyHelpers } from '../support/money';

/**
 * Asking for a withdrawal and moving it (§2 Withdraw; §4 Withdraw status; §8): every role's refusal,
 * bad input, the withdraw minimum, code 1 for missing bank details, the balance and its atomic check.
 */

const h = useApi();
const { admin, dev, staff, other } = useUsers(() => h.database.db, {
  ...OFFICE_USERS,
  other: { role: 'member', firstname: 'Oki', lastname: 'Setiawan' },
});
const { get, post, put } = apiCalls(h);
const { log, setBank, memberWith, balanceOf, withdrawalsOf } = moneyHelpers(h);

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
    // a fraction or a huge negative below the minimum says the minimum too, not a number-format rule
    for (const nominal of [9_999, '5000', 0, -10_000, 1, 9_999.5, '5000.5', -2_000_000_000_000]) {
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
