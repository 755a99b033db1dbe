import type { Actor } from '@wa/core/actor';
import { type CounterScope, counterScope } from '@wa/core/counter-scope';
import type { Db } from '@wa/core/db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '@wa/core/errors';
import { pageMeta, pageWindow } from '@wa/core/paging';
import { parse } from '@wa/core/validate';
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
  withdrawRequestBody,
  withdrawUpdateBody,
} from '@wa/shared';
import { UsersRepo } from '../users/users.repo';
import { WithdrawRepo } from './withdraw.repo';

/** The answer with code 1 (§8): the UI's 'Gagal' dialog sends the user to complete the profile. */
export const NO_BANK_MSG =
  'Data rekening belum lengkap. Silahkan lengkapi nama rekening, bank dan nomor rekening di profil Anda.';

const notEnough = (balance: number) => `Saldo tidak mencukupi. Saldo Anda saat ini ${formatRupiah(balance)}.`;

/** Roles that handle withdrawal requests (§2 /withdraw/requested). */
const HANDLERS = ['admin', 'dev', 'staff'];

/**
 * §2: the transfer details (account_*) are for the admin who transfers and for the request's own
 * member; dev and staff handle requests without seeing where the money goes.
 */
function forViewer(actor: Actor, w: WithdrawDto): WithdrawDto {
  if (actor.role === 'admin' || w.userId === actor.id) return w;
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
  private readonly repo: WithdrawRepo;
  private readonly users: UsersRepo;

  constructor(private readonly db: Db) {
    this.repo = new WithdrawRepo(db);
    this.users = new UsersRepo(db);
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
  async request(actor: Actor, body: unknown): Promise<{ withdraw: WithdrawDto; msg: string }> {
    if (actor.role !== 'member' && actor.role !== 'dev') throw forbidden();
    const input = parse(withdrawRequestBody, body ?? {});
    if (input.userId !== actor.id) throw forbidden('You can only request a withdrawal for yourself.');
    const id = await this.db.transaction(async (tx) => {
      const repo = new WithdrawRepo(tx as unknown as Db);
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
    return { withdraw: forViewer(actor, withdraw), msg: WITHDRAW_REQUESTED_MSG };
  }

  /**
   * update: an admin accepts or rejects a requested withdrawal (Terima, Tolak), or returns an
   * accepted or rejected one to requested (Batalkan). Reinstating a rejected one holds its money
   * again, so it needs the balance, checked under the same lock as a new request.
   */
  async update(actor: Actor, body: unknown): Promise<{ withdraw: WithdrawDto; msg: string }> {
    if (actor.role !== 'admin') throw forbidden();
    const input = parse(withdrawUpdateBody, body ?? {});
    const owner = await this.repo.ownerOf(input.id);
    if (owner === null) throw notFound('Withdrawal not found');
    await this.db.transaction(async (tx) => {
      const repo = new WithdrawRepo(tx as unknown as Db);
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
    return { withdraw: forViewer(actor, withdraw), msg: WITHDRAW_UPDATED[input.status] };
  }

  /** history/{userId}: a member their own; admin, dev and staff anyone's (the details as `forViewer` allows). */
  async history(actor: Actor, userId: number): Promise<{ list: WithdrawDto[] }> {
    if (actor.role === 'member') {
      if (userId !== actor.id) throw forbidden();
    } else if (!HANDLERS.includes(actor.role)) throw forbidden();
    else if (userId !== actor.id && (await this.users.roleOf(userId)) === null) throw notFound('User not found');
    return { list: (await this.repo.list(userId)).map((w) => forViewer(actor, w)) };
  }

  /** histories: every withdrawal (admin, dev and staff). */
  async histories(actor: Actor): Promise<{ list: WithdrawDto[] }> {
    if (!HANDLERS.includes(actor.role)) throw forbidden();
    return { list: (await this.repo.list(null)).map((w) => forViewer(actor, w)) };
  }

  /** histories-per-page: a member only their own, whatever user_id says; the handlers all or one user's. */
  async historiesPerPage(actor: Actor, page: number, userId?: number): Promise<Paged<WithdrawDto>> {
    let owner: number | null;
    if (actor.role === 'member') owner = actor.id;
    else if (HANDLERS.includes(actor.role)) owner = userId ?? null;
    else throw forbidden();
    const { limit, offset } = pageWindow(page);
    const { total, data } = await this.repo.page({ userId: owner, limit, offset });
    return { data: data.map((w) => forViewer(actor, w)), meta: pageMeta(page, total, PAGE_SIZE) };
  }
}
