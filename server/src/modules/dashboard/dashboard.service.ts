import type { Actor } from '@wa/core/actor';
import { counterScope, type UserRoles } from '@wa/core/counter-scope';
import { assertCan } from '@wa/core/policy';
import { ALL_USERS, type CounterUser, type DashboardCounters } from '@wa/shared';
import type { BonusService } from '../bonus/bonus.service';
import type { MessageLogService } from '../messagelog/messagelog.service';
import type { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import type { ProxiesService } from '../proxies/proxies.service';
import type { UsersService } from '../users/users.service';
import type { WhatsappService } from '../whatsapp/whatsapp.service';
import type { WithdrawService } from '../withdraw/withdraw.service';

/** The services whose counters a dashboard shows: each figure is theirs, read as their routes read it. */
export interface DashboardSources {
  roles: UserRoles;
  accounts: Pick<WhatsappService, 'count'>;
  logs: Pick<MessageLogService, 'count' | 'todayCount' | 'totalCount' | 'todayIncome'>;
  withdrawals: Pick<WithdrawService, 'balance'>;
  bonuses: Pick<BonusService, 'total'>;
  users: Pick<UsersService, 'activeCount'>;
  proxies: Pick<ProxiesService, 'countUse'>;
  phones: Pick<PhoneNumbersService, 'countBlast'>;
}

/**
 * A dashboard's figures in one answer (issue 23, §2 Dashboard): the dashboard asked five or six
 * counter routes on every open and after live events; now it asks this one. Each figure comes from
 * the service behind its own counter route, with that service's access check, so the two always
 * agree.
 */
export class DashboardService {
  constructor(private readonly from: DashboardSources) {}

  /**
   * `userId`'s figures (the member dashboard), or with `all` everybody's (the admin and dev
   * dashboard). Who may ask is the counters' rule (`counterScope`): a member their own only, admin
   * and dev anyone's and `all`, staff and clients nothing (403); an id of nobody is a 404.
   */
  async counters(actor: Actor, userId: CounterUser): Promise<DashboardCounters> {
    const scope = await counterScope(actor, userId, this.from.roles);
    if (scope === ALL_USERS) {
      // the catalogue's counts leave their check to their routes (catalogue.manage): asked here
      assertCan(actor, 'catalogue.manage');
      const [proxyCount, phoneCount, whatsappCount, usersActiveCount, todayCount, totalCount] = await Promise.all([
        this.from.proxies.countUse(),
        this.from.phones.countBlast(),
        this.from.accounts.count(actor, ALL_USERS),
        this.from.users.activeCount(actor),
        this.from.logs.todayCount(actor, ALL_USERS),
        this.from.logs.totalCount(actor, ALL_USERS),
      ]);
      return { scope: 'all', proxyCount, phoneCount, whatsappCount, usersActiveCount, todayCount, totalCount };
    }
    const id = scope.userId;
    const [whatsappCount, messageLogCount, income, balance, bonus] = await Promise.all([
      this.from.accounts.count(actor, id),
      this.from.logs.count(actor, id),
      this.from.logs.todayIncome(actor, id),
      this.from.withdrawals.balance(actor, id),
      this.from.bonuses.total(actor, id),
    ]);
    return {
      scope: 'user',
      whatsappCount,
      messageLogCount,
      todayIncome: income.income,
      balance: balance.balance,
      totalBonus: bonus.totalBonus,
    };
  }
}
