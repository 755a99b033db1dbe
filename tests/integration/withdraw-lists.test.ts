import { beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, useApi } from '../support/api';
import { createUser, OFFICE_USERS, type TestUser, useUsers } from '../support/factories';
import { BANK, moneyHelpers } from '../support/money';

/**
 * What the withdrawals look like afterwards (§2 Withdraw; §7 Message log, withdraw and bonus): the
 * histories and figures per role, and the bank details shown to admin and the owner only.
 */

const h = useApi();
const { admin, dev, staff } = useUsers(() => h.database.db, OFFICE_USERS);
const { get, post, put } = apiCalls(h);
const { log, setBank, memberWith } = moneyHelpers(h);

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
