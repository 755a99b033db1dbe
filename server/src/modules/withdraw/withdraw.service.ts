import type { Actor } from '@wa/core/actor';
import { type CounterScope, counterScope, type UserRoles } from '@wa/core/counter-scope';
import { AppError, badRequest, conflict, notFound } from '@wa/core/errors';
import { pageMeta, pageWindow } from '@wa/core/paging';
import { assertCan, can, canForAnyone } from '@wa/core/policy';
import { NO_WEBHOOKS, type WebhookEmitter } from '@wa/core/webhooks/webhooks';
import {
  type BalanceResponse,
  type CounterUser,
  formatRupiah,
  type IncomeResponse,
  PAGE_SIZE,
  type Paged,
  WITHDRAW_CODE_NO_BANK,
  WITHDRAW_REQUESTED_MSG,
  WITHDRAW_UPDATED,
  type WithdrawDto,
  type WithdrawStatus,
  type WithdrawTotalResponse,
  type withdrawRequestBody,
  type withdrawUpdateBody,
} from '@wa/shared';
import type { z } from 'zod';
import type { Transaction } from '../transaction';
import type { LockedUser } from './withdraw.repo';

export type WithdrawRequestInput = z.output<typeof withdrawRequestBody>;
export type WithdrawUpdateInput = z.output<typeof withdrawUpdateBody>;

/** What the withdrawal rules need of the tables (WithdrawRepo; an in-memory one in the unit tests). */
export interface WithdrawStore {
  balance(scope: CounterScope): Promise<number>;
  income(scope: CounterScope): Promise<number>;
  totalByStatus(scope: CounterScope, status: WithdrawStatus): Promise<number>;
  list(userId: number | null): Promise<WithdrawDto[]>;
  page(opts: { userId: number | null; limit: number; offset: number }): Promise<{ total: number; data: WithdrawDto[] }>;
  find(id: number): Promise<WithdrawDto | null>;
  ownerOf(id: number): Promise<number | null>;
  /** locks the user's row until the transaction ends (see WithdrawRepo.lockUser) */
  lockUser(userId: number): Promise<LockedUser | null>;
  insert(v: {
    userId: number;
    nominal: number;
    accountName: string;
    accountBank: string;
    accountNumber: string;
  }): Promise<number>;
  transition(id: number, from: readonly WithdrawStatus[], to: WithdrawStatus, by: number): Promise<boolean>;
}

/** The answer with code 1 (§8): the UI's 'Gagal' dialog sends the user to complete the profile. */
export const NO_BANK_MSG =
  'Data rekening belum lengkap. Silahkan lengkapi nama rekening, bank dan nomor rekening di profil Anda.';

const notEnough = (balance: number) => `Saldo tidak mencukupi. Saldo Anda saat ini ${formatRupiah(balance)}.`;

/**
 * §2: the transfer details (account_*) are for the admin who transfers and for the request's own
 * member; dev and staff handle requests without seeing where the money goes.
 */
function forViewer(actor: Actor, w: WithdrawDto): WithdrawDto {
  if (can(actor, 'withdraw.bank-details', { userId: w.userId })) return w;
  const { account_bank: _bank, account_number: _number, account_name: _name, ...names } = w.User;
  return { ...w, User: names };
}

/** §4 Withdraw status: where each status may be set from. */
const FROM: Record<WithdrawStatus, readonly WithdrawStatus[]> = {
  accepted: ['requested'],
  rejected: ['requested'],
  requested: ['accepted', 'rejected'],
};

/** The rules of withdrawals (§2 Withdraw, §3 Withdraw, §4 Withdraw status, §5 Withdraw, §7 Withdraw). */
export class WithdrawService {
  /** `transaction` binds a WithdrawStore to one database transaction (the user-row lock lives as long). */
  constructor(
    private readonly repo: WithdrawStore,
    private readonly users: UserRoles,
    private readonly transaction: Transaction<WithdrawStore>,
    private readonly webhooks: WebhookEmitter = NO_WEBHOOKS,
  ) {}

  /** withdraw.status for the request's owner's (and the admins') webhooks. */
  private hook(w: WithdrawDto): void {
    this.webhooks.emit('withdraw.status', w.userId, {
      user_id: w.userId,
      withdraw_id: w.id,
      amount: w.nominal,
      status: w.status,
    });
  }

  private scope(actor: Actor, userId: CounterUser): Promise<CounterScope> {
    return counterScope(actor, userId, this.users);
  }

  /** balance/{userId}: a member their own; admin and dev anyone's, or `all`. */
  async balance(actor: Actor, userId: CounterUser): Promise<BalanceResponse> {
    return { balance: await this.repo.balance(await this.scope(actor, userId)) };
  }

  /** income/{userId}: everything earned by blasting, own fees and referral fees, since the start. */
  async income(actor: Actor, userId: CounterUser): Promise<IncomeResponse> {
    return { income: await this.repo.income(await this.scope(actor, userId)) };
  }

  /** total-requested/{userId} and total-accepted/{userId}. */
  async total(actor: Actor, userId: CounterUser, status: 'requested' | 'accepted'): Promise<WithdrawTotalResponse> {
    return { total: await this.repo.totalByStatus(await this.scope(actor, userId), status) };
  }

  /**
   * request: a member or dev asks to withdraw from their own balance. The user's row is locked for
   * the check and the insert, so two requests at once cannot both spend the same rupiah; the bank
   * details read under that lock are kept on the request.
   */
  async request(actor: Actor, input: WithdrawRequestInput): Promise<{ withdraw: WithdrawDto; msg: string }> {
    assertCan(actor, 'withdraw.request', { userId: input.userId });
    const id = await this.transaction(async (repo) => {
      const user = await repo.lockUser(input.userId);
      if (!user) throw notFound('User not found');
      const accountName = user.account_name?.trim();
      const accountBank = user.account_bank?.trim();
      const accountNumber = user.account_number?.trim();
      if (!accountName || !accountBank || !accountNumber) {
        throw new AppError(400, NO_BANK_MSG, undefined, WITHDRAW_CODE_NO_BANK);
      }
      const balance = await repo.balance({ userId: input.userId });
      if (input.nominal > balance) throw badRequest(notEnough(balance), { nominal: notEnough(balance) });
      return repo.insert({ userId: input.userId, nominal: input.nominal, accountName, accountBank, accountNumber });
    });
    const withdraw = await this.repo.find(id);
    if (!withdraw) throw notFound('Withdrawal not found');
    this.hook(withdraw);
    return { withdraw: forViewer(actor, withdraw), msg: WITHDRAW_REQUESTED_MSG };
  }

  /**
   * update: an admin accepts or rejects a requested withdrawal (Terima, Tolak), or returns an
   * accepted or rejected one to requested (Batalkan). Reinstating a rejected one holds its money
   * again, so it needs the balance, checked under the same lock as a new request.
   */
  async update(actor: Actor, input: WithdrawUpdateInput): Promise<{ withdraw: WithdrawDto; msg: string }> {
    assertCan(actor, 'withdraw.decide');
    const owner = await this.repo.ownerOf(input.id);
    if (owner === null) throw notFound('Withdrawal not found');
    await this.transaction(async (repo) => {
      await repo.lockUser(owner);
      const current = await repo.find(input.id);
      if (!current) throw notFound('Withdrawal not found');
      if (!FROM[input.status].includes(current.status)) {
        throw conflict(
          input.status === 'requested'
            ? 'This withdrawal is still requested; there is nothing to cancel.'
            : `This withdrawal is already ${current.status}; cancel it first.`,
        );
      }
      if (current.status === 'rejected') {
        const balance = await repo.balance({ userId: owner });
        if (current.nominal > balance) {
          throw conflict(`Saldo member tidak mencukupi (${formatRupiah(balance)}).`);
        }
      }
      if (!(await repo.transition(input.id, FROM[input.status], input.status, actor.id))) {
        throw conflict('This withdrawal was changed meanwhile; reload the list.');
      }
    });
    const withdraw = await this.repo.find(input.id);
    if (!withdraw) throw notFound('Withdrawal not found');
    this.hook(withdraw);
    return { withdraw: forViewer(actor, withdraw), msg: WITHDRAW_UPDATED[input.status] };
  }

  /** history/{userId}: a member their own; admin, dev and staff anyone's (the details as `forViewer` allows). */
  async history(actor: Actor, userId: number): Promise<{ list: WithdrawDto[] }> {
    assertCan(actor, 'withdraw.read', { userId });
    if (userId !== actor.id && (await this.users.roleOf(userId)) === null) throw notFound('User not found');
    return { list: (await this.repo.list(userId)).map((w) => forViewer(actor, w)) };
  }

  /** histories: every withdrawal (admin, dev and staff). */
  async histories(actor: Actor): Promise<{ list: WithdrawDto[] }> {
    assertCan(actor, 'withdraw.handle');
    return { list: (await this.repo.list(null)).map((w) => forViewer(actor, w)) };
  }

  /** histories-per-page: a member only their own, whatever user_id says; the handlers all or one user's. */
  async historiesPerPage(actor: Actor, page: number, userId?: number): Promise<Paged<WithdrawDto>> {
    assertCan(actor, 'withdraw.read');
    const owner = canForAnyone(actor, 'withdraw.read') ? (userId ?? null) : actor.id;
    const { limit, offset } = pageWindow(page);
    const { total, data } = await this.repo.page({ userId: owner, limit, offset });
    return { data: data.map((w) => forViewer(actor, w)), meta: pageMeta(page, total, PAGE_SIZE) };
  }
}
