import {
  BONUS_SENT,
  type BonusDto,
  type CounterUser,
  createBonusBody,
  PAGE_SIZE,
  type Paged,
  type TotalBonusResponse,
} from '@wa/shared';
import type { Db } from '../../db/client';
import type { Actor } from '../../http/auth';
import { counterScope } from '../../http/counter-scope';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { pageMeta, pageWindow } from '../../http/paging';
import { parse } from '../../http/validate';
import { UsersRepo } from '../users/users.repo';
import { BonusRepo } from './bonus.repo';

const isStaff = (actor: Actor) => actor.role === 'admin' || actor.role === 'dev';

/** The rules of bonuses (§2 Bonus, §3 Bonus, §5 Bonus, §7 Message log, withdraw and bonus). */
export class BonusService {
  private readonly repo: BonusRepo;
  private readonly users: UsersRepo;

  constructor(db: Db) {
    this.repo = new BonusRepo(db);
    this.users = new UsersRepo(db);
  }

  /** total/{userId}: a member their own; admin and dev anyone's, or `all`. */
  async total(actor: Actor, userId: CounterUser): Promise<TotalBonusResponse> {
    const scope = await counterScope(actor, userId, (id) => this.users.roleOf(id));
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

  /** delete: admin and dev take a bonus back (the member's balance drops with it). */
  async remove(actor: Actor, id: number): Promise<{ id: number; msg: string }> {
    if (!isStaff(actor)) throw forbidden();
    if (!(await this.repo.delete(id))) throw notFound('Bonus not found');
    return { id, msg: 'Bonus berhasil dihapus.' };
  }
}
