import type { Actor } from '@wa/core/actor';
import { counterScope } from '@wa/core/counter-scope';
import type { Db } from '@wa/core/db/client';
import { badRequest, conflict, forbidden, notFound } from '@wa/core/errors';
import { pageMeta, pageWindow } from '@wa/core/paging';
import { parse } from '@wa/core/validate';
import {
  BONUS_SENT,
  type BonusDto,
  type CounterUser,
  createBonusBody,
  formatRupiah,
  PAGE_SIZE,
  type Paged,
  type TotalBonusResponse,
} from '@wa/shared';
import { UsersRepo } from '../users/users.repo';
import { WithdrawRepo } from '../withdraw/withdraw.repo';
import { BonusRepo } from './bonus.repo';

const isStaff = (actor: Actor) => actor.role === 'admin' || actor.role === 'dev';

/** The refusal when taking a bonus back would leave the member owing money already withdrawn. */
export const bonusDeleteRefused = (balance: number, nominal: number) =>
  `Bonus tidak dapat dihapus karena saldo member tidak mencukupi (saldo ${formatRupiah(balance)}, bonus ${formatRupiah(nominal)}).`;

/** The rules of bonuses (§2 Bonus, §3 Bonus, §5 Bonus, §7 Message log, withdraw and bonus). */
export class BonusService {
  private readonly repo: BonusRepo;
  private readonly users: UsersRepo;

  constructor(private readonly db: Db) {
    this.repo = new BonusRepo(db);
    this.users = new UsersRepo(db);
  }

  /** total/{userId}: a member their own; admin and dev anyone's, or `all`. */
  async total(actor: Actor, userId: CounterUser): Promise<TotalBonusResponse> {
    const scope = await counterScope(actor, userId, this.users);
    return { totalBonus: await this.repo.total(scope) };
  }

  /** list-per-page: admin and dev see every bonus or one user's; a member only their own, whatever they ask. */
  async listPerPage(actor: Actor, page: number, userId?: number): Promise<Paged<BonusDto>> {
    if (!isStaff(actor) && actor.role !== 'member') throw forbidden();
    const owner = isStaff(actor) ? (userId ?? null) : actor.id;
    const { limit, offset } = pageWindow(page);
    const { total, data } = await this.repo.page({ userId: owner, limit, offset });
    return { data, meta: pageMeta(page, total, PAGE_SIZE) };
  }

  /** create: admin and dev give a member a bonus; the giver is the caller, never the body's adminId. */
  async create(actor: Actor, body: unknown): Promise<{ bonus: BonusDto; msg: string }> {
    if (!isStaff(actor)) throw forbidden();
    const input = parse(createBonusBody, body ?? {});
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
   * withdrawal takes (`WithdrawRepo.lockUser`), so a request and a delete at the same moment
   * cannot both spend the same rupiah.
   */
  async remove(actor: Actor, id: number): Promise<{ id: number; msg: string }> {
    if (!isStaff(actor)) throw forbidden();
    const found = await this.repo.find(id);
    if (!found) throw notFound('Bonus not found');
    await this.db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const withdrawals = new WithdrawRepo(t);
      const bonuses = new BonusRepo(t);
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
