import type { Actor } from '@wa/core/actor';
import { type CounterScope, counterScope, type UserRoles } from '@wa/core/counter-scope';
import { today } from '@wa/core/ledger/daily';
import { assertCan, canForAnyone } from '@wa/core/policy';
import type {
  CounterUser,
  IncomeResponse,
  MessageLogCount,
  MessageLogItem,
  MessageLogListQuery,
  Paged,
  SuccessFailCount,
} from '@wa/shared';
import type { MessageLogRepo } from './messagelog.repo';

const LOG_PAGE_SIZE = 20;

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
    return this.repo.counts(await this.scope(actor, userId), today(this.timeZone));
  }

  /** total-count/{userId}: every settled send (§3 totalCount). */
  async totalCount(actor: Actor, userId: CounterUser): Promise<SuccessFailCount> {
    return this.repo.counts(await this.scope(actor, userId));
  }

  /**
   * list-per-page: the message log itself, newest first (issue 11): admin, dev and staff anyone's,
   * a member their own whatever `user_id` says.
   */
  async list(actor: Actor, q: MessageLogListQuery): Promise<Paged<MessageLogItem>> {
    assertCan(actor, 'report.read', q.user_id === undefined ? undefined : { userId: q.user_id });
    const userId = canForAnyone(actor, 'report.read') ? q.user_id : actor.id;
    const f = { userId, whatsappId: q.whatsapp_id, status: q.status, search: q.search };
    const days = await this.repo.logDays(f);
    const offset = (q.page - 1) * LOG_PAGE_SIZE;
    let counted: { total: number; capped: boolean };
    let data: MessageLogItem[];
    if (f.search && !days && f.status !== 'pending') {
      // a search: its count and its page among the newest logs at once; a full page there is the
      // answer, else the matches themselves are sorted (at once when the count says they are few)
      const [c, newest] = await Promise.all([
        this.repo.logCount(f, null),
        this.repo.newestMatches(f, LOG_PAGE_SIZE, offset),
      ]);
      counted = c;
      data =
        newest.length === LOG_PAGE_SIZE
          ? newest
          : await this.repo.logPage(f, LOG_PAGE_SIZE, offset, this.timeZone, null, !c.capped, true);
    } else {
      counted = await this.repo.logCount(f, days);
      data = await this.repo.logPage(f, LOG_PAGE_SIZE, offset, this.timeZone, days);
    }
    const { total } = counted;
    return {
      data,
      meta: { page: q.page, totalPages: Math.max(1, Math.ceil(total / LOG_PAGE_SIZE)), total, pageSize: LOG_PAGE_SIZE },
    };
  }

  /** today-income/{userId}: fees and referral fees earned since local midnight, whole rupiah. */
  async todayIncome(actor: Actor, userId: CounterUser): Promise<IncomeResponse> {
    return { income: await this.repo.income(await this.scope(actor, userId), today(this.timeZone)) };
  }
}
