import type { Actor } from '@wa/core/actor';
import { type CounterScope, counterScope, type UserRoles } from '@wa/core/counter-scope';
import type { CounterUser, IncomeResponse, MessageLogCount, SuccessFailCount } from '@wa/shared';
import { type MessageLogRepo, todayIn } from './messagelog.repo';

/** The dashboard counters over the message log (§2 Dashboard, §3 Counters, §7 Message log). */
export class MessageLogService {
  /** `timeZone`: the IANA zone whose calendar day "today" is (config APP_TIMEZONE). */
  constructor(
    private readonly repo: MessageLogRepo,
    private readonly users: UserRoles,
    private readonly timeZone: string,
  ) {}

  private scope(actor: Actor, userId: CounterUser): Promise<CounterScope> {
    return counterScope(actor, userId, this.users);
  }

  /** count/{userId}: every settled send (§3 messageLogCount). */
  async count(actor: Actor, userId: CounterUser): Promise<MessageLogCount> {
    const { success, fail } = await this.repo.counts(await this.scope(actor, userId));
    return { successCount: success, failCount: fail };
  }

  /** today-count/{userId}: settled sends since local midnight (§3 todayCount). */
  async todayCount(actor: Actor, userId: CounterUser): Promise<SuccessFailCount> {
    return this.repo.counts(await this.scope(actor, userId), todayIn(this.timeZone));
  }

  /** total-count/{userId}: every settled send (§3 totalCount). */
  async totalCount(actor: Actor, userId: CounterUser): Promise<SuccessFailCount> {
    return this.repo.counts(await this.scope(actor, userId));
  }

  /** today-income/{userId}: fees and referral fees earned since local midnight, whole rupiah. */
  async todayIncome(actor: Actor, userId: CounterUser): Promise<IncomeResponse> {
    return { income: await this.repo.income(await this.scope(actor, userId), todayIn(this.timeZone)) };
  }
}
