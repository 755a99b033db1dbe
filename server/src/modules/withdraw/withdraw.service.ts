import type { BalanceResponse, CounterUser } from '@wa/shared';
import type { Db } from '../../db/client';
import type { Actor } from '../../http/auth';
import { counterScope } from '../../http/counter-scope';
import { UsersRepo } from '../users/users.repo';
import { WithdrawRepo } from './withdraw.repo';

/** The rules of withdrawals (§2 Withdraw, §3 Withdraw, §7 Withdraw). */
export class WithdrawService {
  private readonly repo: WithdrawRepo;
  private readonly users: UsersRepo;

  constructor(db: Db) {
    this.repo = new WithdrawRepo(db);
    this.users = new UsersRepo(db);
  }

  /** balance/{userId}: a member their own; admin and dev anyone's, or `all`. */
  async balance(actor: Actor, userId: CounterUser): Promise<BalanceResponse> {
    const scope = await counterScope(actor, userId, (id) => this.users.roleOf(id));
    return { balance: await this.repo.balance(scope) };
  }
}
