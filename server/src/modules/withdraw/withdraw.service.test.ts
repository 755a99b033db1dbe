import type { CounterScope, UserRoles } from '@wa/core/counter-scope';
import { as, refused } from '@wa/core/testing/refusals';
import {
  ALL_USERS,
  formatRupiah,
  type Role,
  WITHDRAW_CODE_NO_BANK,
  WITHDRAW_REQUESTED_MSG,
  WITHDRAW_UPDATED,
  type WithdrawDto,
  type WithdrawStatus,
} from '@wa/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Transaction } from '../transaction';
import type { LockedUser } from './withdraw.repo';
import { NO_BANK_MSG, WithdrawService, type WithdrawStore } from './withdraw.service';

interface MemoryUser extends LockedUser {
  role: Role;
  firstname: string;
  income: number;
}

/** Users, their income and their withdrawals in memory, with the balance rule of docs/PRODUCT.md §4 Money. */
class MemoryMoney implements WithdrawStore, UserRoles {
  readonly users = new Map<number, MemoryUser>();
  readonly rows: WithdrawDto[] = [];

  addUser(id: number, role: Role, income = 0, bank = true) {
    this.users.set(id, {
      role,
      firstname: `User${id}`,
      income,
      account_name: bank ? `Name ${id}` : null,
      account_bank: bank ? 'BCA' : null,
      account_number: bank ? `0000${id}` : ' ',
    });
  }

  private owned(scope: CounterScope) {
    return this.rows.filter((w) => scope === ALL_USERS || w.userId === scope.userId);
  }

  async roleOf(id: number) {
    return this.users.get(id)?.role ?? null;
  }
  async income(scope: CounterScope) {
    return [...this.users.entries()]
      .filter(([id]) => scope === ALL_USERS || id === scope.userId)
      .reduce((sum, [, u]) => sum + u.income, 0);
  }
  async balance(scope: CounterScope) {
    const held = this.owned(scope).filter((w) => w.status !== 'rejected');
    return (await this.income(scope)) - held.reduce((sum, w) => sum + w.nominal, 0);
  }
  async totalByStatus(scope: CounterScope, status: WithdrawStatus) {
    return this.owned(scope)
      .filter((w) => w.status === status)
      .reduce((sum, w) => sum + w.nominal, 0);
  }
  async list(userId: number | null) {
    return this.rows.filter((w) => userId === null || w.userId === userId).map((w) => structuredClone(w));
  }
  async page(opts: { userId: number | null; limit: number; offset: number }) {
    const all = await this.list(opts.userId);
    return { total: all.length, data: all.slice(opts.offset, opts.offset + opts.limit) };
  }
  async find(id: number) {
    const w = this.rows.find((r) => r.id === id);
    return w ? structuredClone(w) : null;
  }
  async ownerOf(id: number) {
    return this.rows.find((r) => r.id === id)?.userId ?? null;
  }
  async lockUser(userId: number) {
    return this.users.get(userId) ?? null;
  }
  async insert(v: {
    userId: number;
    nominal: number;
    accountName: string;
    accountBank: string;
    accountNumber: string;
  }) {
    const id = this.rows.length + 1;
    const at = new Date(0).toISOString();
    this.rows.push({
      id,
      userId: v.userId,
      nominal: v.nominal,
      status: 'requested',
      createdAt: at,
      updatedAt: at,
      User: {
        firstname: this.users.get(v.userId)?.firstname ?? '',
        lastname: 'Test',
        account_name: v.accountName,
        account_bank: v.accountBank,
        account_number: v.accountNumber,
      },
    });
    return id;
  }
  async transition(id: number, from: readonly WithdrawStatus[], to: WithdrawStatus) {
    const w = this.rows.find((r) => r.id === id);
    if (!w || !from.includes(w.status)) return false;
    w.status = to;
    return true;
  }
}

const MEMBER = 1;
const POOR = 2;
const NO_BANK = 3;
const STAFF = 4;
const ADMIN = 5;
const DEV = 6;
const member = as(MEMBER, 'member');
const admin = as(ADMIN, 'admin');

let money: MemoryMoney;
let withdraw: WithdrawService;

beforeEach(() => {
  money = new MemoryMoney();
  money.addUser(MEMBER, 'member', 100_000);
  money.addUser(POOR, 'member', 5_000);
  money.addUser(NO_BANK, 'member', 100_000, false);
  money.addUser(STAFF, 'staff');
  money.addUser(ADMIN, 'admin');
  money.addUser(DEV, 'dev', 50_000);
  const inline: Transaction<WithdrawStore> = (work) => work(money);
  withdraw = new WithdrawService(money, money, inline);
});

describe('requesting a withdrawal', () => {
  it('a member asks for their own balance and the bank details of that moment are kept', async () => {
    const { withdraw: w, msg } = await withdraw.request(member, { userId: MEMBER, nominal: 60_000 });
    expect(msg).toBe(WITHDRAW_REQUESTED_MSG);
    expect(w).toMatchObject({ userId: MEMBER, nominal: 60_000, status: 'requested', User: { account_bank: 'BCA' } });
    expect(await withdraw.balance(member, MEMBER)).toEqual({ balance: 40_000 });
    expect((await withdraw.request(as(DEV, 'dev'), { userId: DEV, nominal: 10_000 })).withdraw.userId).toBe(DEV);
  });

  it('only members and devs request, and only for themselves', async () => {
    expect(await refused(withdraw.request(member, { userId: POOR, nominal: 10_000 }))).toEqual({
      status: 403,
      msg: 'You can only request a withdrawal for yourself.',
    });
    for (const actor of [as(STAFF, 'staff'), admin]) {
      expect(await refused(withdraw.request(actor, { userId: actor.id, nominal: 10_000 }))).toEqual({
        status: 403,
        msg: 'You are not allowed to do this.',
      });
    }
  });

  it('needs complete bank details (code 1) and the balance', async () => {
    expect(await refused(withdraw.request(as(NO_BANK, 'member'), { userId: NO_BANK, nominal: 10_000 }))).toEqual({
      status: 400,
      msg: NO_BANK_MSG,
      code: WITHDRAW_CODE_NO_BANK,
    });
    expect(await refused(withdraw.request(as(POOR, 'member'), { userId: POOR, nominal: 10_000 }))).toEqual({
      status: 400,
      msg: `Saldo tidak mencukupi. Saldo Anda saat ini ${formatRupiah(5_000)}.`,
    });
    await withdraw.request(member, { userId: MEMBER, nominal: 100_000 });
    expect((await refused(withdraw.request(member, { userId: MEMBER, nominal: 10_000 }))).status).toBe(400);
  });
});

describe('deciding on a withdrawal', () => {
  it('only an admin accepts, rejects or cancels, and each only from where §4 allows', async () => {
    const { withdraw: w } = await withdraw.request(member, { userId: MEMBER, nominal: 30_000 });
    for (const actor of [as(DEV, 'dev'), as(STAFF, 'staff'), member]) {
      expect((await refused(withdraw.update(actor, { id: w.id, status: 'accepted' }))).status).toBe(403);
    }
    expect(await refused(withdraw.update(admin, { id: w.id, status: 'requested' }))).toEqual({
      status: 409,
      msg: 'This withdrawal is still requested; there is nothing to cancel.',
    });
    expect((await withdraw.update(admin, { id: w.id, status: 'accepted' })).msg).toBe(WITHDRAW_UPDATED.accepted);
    expect(await refused(withdraw.update(admin, { id: w.id, status: 'rejected' }))).toEqual({
      status: 409,
      msg: 'This withdrawal is already accepted; cancel it first.',
    });
    expect((await withdraw.update(admin, { id: w.id, status: 'requested' })).withdraw.status).toBe('requested');
    expect((await refused(withdraw.update(admin, { id: 99, status: 'accepted' }))).status).toBe(404);
  });

  it('a rejected request gives its money back; reinstating it needs that money again', async () => {
    const { withdraw: first } = await withdraw.request(member, { userId: MEMBER, nominal: 80_000 });
    await withdraw.update(admin, { id: first.id, status: 'rejected' });
    expect(await withdraw.balance(member, MEMBER)).toEqual({ balance: 100_000 });
    await withdraw.request(member, { userId: MEMBER, nominal: 50_000 });
    expect(await refused(withdraw.update(admin, { id: first.id, status: 'requested' }))).toEqual({
      status: 409,
      msg: `Saldo member tidak mencukupi (${formatRupiah(50_000)}).`,
    });
  });
});

describe('reading withdrawals', () => {
  it('a member reads their own history; the handlers anyone’s; bank details only for the admin and the owner', async () => {
    await withdraw.request(member, { userId: MEMBER, nominal: 20_000 });
    expect((await withdraw.history(member, MEMBER)).list).toHaveLength(1);
    expect((await refused(withdraw.history(as(POOR, 'member'), MEMBER))).status).toBe(403);
    expect((await withdraw.history(admin, MEMBER)).list[0]?.User.account_number).toBe(`0000${MEMBER}`);
    for (const actor of [as(DEV, 'dev'), as(STAFF, 'staff')]) {
      const [row] = (await withdraw.history(actor, MEMBER)).list;
      expect(row?.User).toEqual({ firstname: `User${MEMBER}`, lastname: 'Test' });
    }
    expect(await refused(withdraw.history(admin, 99))).toEqual({ status: 404, msg: 'User not found' });
  });

  it('every request at once is for the handlers; a member’s paged list is their own whatever they ask', async () => {
    await withdraw.request(member, { userId: MEMBER, nominal: 20_000 });
    await withdraw.request(as(DEV, 'dev'), { userId: DEV, nominal: 20_000 });
    expect((await withdraw.histories(as(STAFF, 'staff'))).list).toHaveLength(2);
    expect((await refused(withdraw.histories(member))).status).toBe(403);
    expect((await withdraw.historiesPerPage(as(POOR, 'member'), 1, MEMBER)).data).toEqual([]);
    expect((await withdraw.historiesPerPage(admin, 1)).meta.total).toBe(2);
    expect((await withdraw.historiesPerPage(admin, 1, DEV)).meta.total).toBe(1);
  });

  it('counters: a member their own, admin and dev anyone’s or all, staff none', async () => {
    expect((await refused(withdraw.balance(member, POOR))).status).toBe(403);
    expect((await refused(withdraw.balance(member, ALL_USERS))).status).toBe(403);
    expect((await refused(withdraw.income(as(STAFF, 'staff'), STAFF))).status).toBe(403);
    expect(await withdraw.income(admin, ALL_USERS)).toEqual({ income: 255_000 });
    expect(await withdraw.total(as(DEV, 'dev'), MEMBER, 'accepted')).toEqual({ total: 0 });
    expect(await refused(withdraw.balance(admin, 99))).toEqual({ status: 404, msg: 'User not found' });
  });
});
