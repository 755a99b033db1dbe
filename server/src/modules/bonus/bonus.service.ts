import type { CounterUser, TotalBonusResponse } from '@wa/shared';
import type { Db } from '../../db/client';
import type { Actor } from '../../http/auth';
import { counterScope } from '../../http/counter-scope';
import { UsersRepo } from '../users/users.repo';
import { BonusRepo } from './bonus.repo';

/** The rules of bonuses (§2 Bonus, §3 Bonus, §7 Message log, withdraw and bonus). */
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
}
