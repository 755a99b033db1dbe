import type { Actor } from '@wa/core/actor';
import { counterScope, type UserRoles } from '@wa/core/counter-scope';
import { badRequest, conflict, notFound } from '@wa/core/errors';
import { pageMeta, pageWindow } from '@wa/core/paging';
import { assertCan, canForAnyone } from '@wa/core/policy';
import {
  BONUS_SENT,
  type BonusDto,
  type CounterUser,
  type createBonusBody,
  formatRupiah,
  PAGE_SIZE,
  type Paged,
  type TotalBonusResponse,
} from '@wa/shared';
import type { z } from 'zod';
import type { Transaction } from '../transaction';
import type { WithdrawStore } from '../withdraw/withdraw.service';
import type { BonusRepo } from './bonus.repo';

export type CreateBonusInput = z.output<typeof createBonusBody>;

/** The repositories a bonus delete uses inside its transaction. */
export interface BonusDeleteRepos {
  bonuses: BonusRepo;
  withdrawals: Pick<WithdrawStore, 'lockUser' | 'balance'>;
}

/** The refusal when taking a bonus back would leave the member owing money already withdrawn. */
export const bonusDeleteRefused = (balance: number, nominal: number) =>
  `Bonus tidak dapat dihapus karena saldo member tidak mencukupi (saldo ${formatRupiah(balance)}, bonus ${formatRupiah(nominal)}).`;

/** The rules of bonuses (§2 Bonus, §3 Bonus, §5 Bonus, §7 Message log, withdraw and bonus). */
export class BonusService {
  constructor(
    private readonly repo: BonusRepo,
    private readonly users: UserRoles,
    private readonly transaction: Transaction<BonusDeleteRepos>,
  ) {}

  /** total/{userId}: a member their own; admin and dev anyone's, or `all`. */
  async total(actor: Actor, userId: CounterUser): Promise<TotalBonusResponse> {
    const scope = await counterScope(actor, userId, this.users);
    return { totalBonus: await this.repo.total(scope) };
  }

  /** list-per-page: admin and dev see every bonus or one user's; a member only their own, whatever they ask. */
  async listPerPage(actor: Actor, page: number, userId?: number): Promise<Paged<BonusDto>> {
    assertCan(actor, 'bonus.read');
    const owner = canForAnyone(actor, 'bonus.read') ? (userId ?? null) : actor.id;
    const { limit, offset } = pageWindow(page);
    const { total, data } = await this.repo.page({ userId: owner, limit, offset });
    return { data, meta: pageMeta(page, total, PAGE_SIZE) };
  }

  /** create: admin and dev give a member a bonus; the giver is the caller, never the body's adminId. */
  async create(actor: Actor, input: CreateBonusInput): Promise<{ bonus: BonusDto; msg: string }> {
    assertCan(actor, 'bonus.give');
    const role = await this.users.roleOf(input.userId);
    if (role !== 'member') throw badRequest('Member not found.', { userId: 'Member not found.' });
    const bonus = await this.repo.insert({
      userId: input.userId,
      adminId: actor.id,
      nominal: input.nominal,
      reason: input.reason,
    });
    return { bonus, msg: BONUS_SENT };
  }

  /**
   * delete: admin and dev take a bonus back, unless the member has already withdrawn it: the
   * balance must not go below 0. The check and the delete run under the user-row lock every
   * withdrawal takes (`WithdrawStore.lockUser`), so a request and a delete at the same moment
   * cannot both spend the same rupiah.
   */
  async remove(actor: Actor, id: number): Promise<{ id: number; msg: string }> {
    assertCan(actor, 'bonus.give');
    const found = await this.repo.find(id);
    if (!found) throw notFound('Bonus not found');
    await this.transaction(async ({ withdrawals, bonuses }) => {
      await withdrawals.lockUser(found.userId);
      // read again under the lock: another delete may have gone first
      const bonus = await bonuses.find(id);
      if (!bonus) throw notFound('Bonus not found');
      const balance = await withdrawals.balance({ userId: bonus.userId });
      if (balance - bonus.nominal < 0) throw conflict(bonusDeleteRefused(balance, bonus.nominal));
      await bonuses.delete(id);
    });
    return { id, msg: 'Bonus berhasil dihapus.' };
  }
}
