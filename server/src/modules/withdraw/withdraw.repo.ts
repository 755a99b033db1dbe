import type { CounterScope } from '@wa/core/counter-scope';
import { type Db, type Int8, type RawRow, rows } from '@wa/core/db/client';
import type { users, withdrawals } from '@wa/core/db/schema/index';
import { ALL_USERS, type WithdrawDto, type WithdrawStatus } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';
import { incomeSql } from '../messagelog/messagelog.repo';

/** The statuses whose withdrawals hold money (migration 0022's `withdrawals_held` total names the same). */
const HOLDING = sql`('requested', 'accepted')`;

type Withdrawal = RawRow<typeof withdrawals>;
type User = RawRow<typeof users>;

/**
 * The columns of SELECT: the withdrawal's (its status one of WithdrawStatus, the only ones written),
 * its user's name, and the bank details.
 */
type WithdrawRow = Pick<
  Withdrawal,
  'id' | 'user_id' | 'nominal' | 'created_at' | 'updated_at' | 'account_bank' | 'account_number' | 'account_name'
> &
  Pick<User, 'firstname' | 'lastname'> & { status: WithdrawStatus };

function toDto(r: WithdrawRow): WithdrawDto {
  return {
    id: r.id,
    userId: r.user_id,
    nominal: Number(r.nominal),
    status: r.status,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
    User: {
      firstname: r.firstname,
      lastname: r.lastname,
      account_bank: r.account_bank,
      account_number: r.account_number,
      account_name: r.account_name,
    },
  };
}

// the bank details kept at request time; a row without them (inserted by hand) shows the profile's
const SELECT = sql`select w.id, w.user_id, w.nominal, w.status, w.created_at, w.updated_at, u.firstname, u.lastname,
    coalesce(w.account_bank, u.account_bank) as account_bank,
    coalesce(w.account_number, u.account_number) as account_number,
    coalesce(w.account_name, u.account_name) as account_name
  from withdrawals w join users u on u.id = w.user_id`;

const ownerOf = (userId: number | null): SQL => (userId === null ? sql`true` : sql`w.user_id = ${userId}`);

/** The bank details on a user's profile, and the user's role, read under a row lock. */
export type LockedUser = Pick<User, 'role' | 'account_name' | 'account_bank' | 'account_number'>;

/** SQL for withdrawals; nothing else. */
export class WithdrawRepo {
  constructor(private readonly db: Db) {}

  /**
   * The balance of docs/PRODUCT.md §4 Money: income (own fees + referral fees) + bonuses − withdrawals
   * requested or accepted, in whole rupiah, from the rows themselves (no stored running total).
   */
  async balance(scope: CounterScope): Promise<number> {
    // everybody's: the totals migration 0022's triggers keep (money_totals), not a sum of every row
    const bonus =
      scope === ALL_USERS
        ? sql`(select coalesce(sum(t.total), 0) from money_totals t where t.name = 'bonuses')`
        : sql`(select coalesce(sum(b.nominal), 0) from bonuses b where b.user_id = ${scope.userId})`;
    const held =
      scope === ALL_USERS
        ? sql`(select coalesce(sum(t.total), 0) from money_totals t where t.name = 'withdrawals_held')`
        : sql`(select coalesce(sum(w.nominal), 0) from withdrawals w where w.user_id = ${scope.userId} and w.status in ${HOLDING})`;
    const [r] = await rows<{ balance: Int8 }>(
      this.db,
      sql`select (${incomeSql(scope)} + ${bonus} - ${held})::bigint as balance`,
    );
    return Number(r?.balance ?? 0);
  }

  /** Every rupiah earned by blasting (own fees + referral fees), as the balance counts it. */
  async income(scope: CounterScope): Promise<number> {
    const [r] = await rows<{ income: Int8 }>(this.db, sql`select ${incomeSql(scope)} as income`);
    return Number(r?.income ?? 0);
  }

  /** The sum of the withdrawals in one status. */
  async totalByStatus(scope: CounterScope, status: WithdrawStatus): Promise<number> {
    const owner = scope === ALL_USERS ? sql`true` : sql`w.user_id = ${scope.userId}`;
    const [r] = await rows<{ total: Int8 }>(
      this.db,
      sql`select coalesce(sum(w.nominal), 0)::bigint as total from withdrawals w
          where ${owner} and w.status = ${status}`,
    );
    return Number(r?.total ?? 0);
  }

  /** Newest first; one user's withdrawals, or everybody's when `userId` is null. */
  async list(userId: number | null): Promise<WithdrawDto[]> {
    const list = await rows<WithdrawRow>(
      this.db,
      sql`${SELECT} where ${ownerOf(userId)} order by w.created_at desc, w.id desc`,
    );
    return list.map(toDto);
  }

  async page(opts: { userId: number | null; limit: number; offset: number }) {
    const where = ownerOf(opts.userId);
    const [c] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from withdrawals w where ${where}`);
    const list = await rows<WithdrawRow>(
      this.db,
      sql`${SELECT} where ${where} order by w.created_at desc, w.id desc limit ${opts.limit} offset ${opts.offset}`,
    );
    return { total: Number(c.n), data: list.map(toDto) };
  }

  async find(id: number): Promise<WithdrawDto | null> {
    const [r] = await rows<WithdrawRow>(this.db, sql`${SELECT} where w.id = ${id}`);
    return r ? toDto(r) : null;
  }

  /** The owner of a withdrawal, or null when there is none with this id. */
  async ownerOf(id: number): Promise<number | null> {
    const [r] = await rows<Pick<Withdrawal, 'user_id'>>(this.db, sql`select user_id from withdrawals where id = ${id}`);
    return r?.user_id ?? null;
  }

  /**
   * Locks the user's row until the transaction ends: every change that can lower the user's balance
   * (a request, a rejected one reinstated, a bonus taken back) takes this lock first, so two of them
   * for the same user run one after the other and each sees the other's row. Call inside a transaction.
   */
  async lockUser(userId: number): Promise<LockedUser | null> {
    const [r] = await rows<LockedUser>(
      this.db,
      sql`select role, account_name, account_bank, account_number from users where id = ${userId} for update`,
    );
    return r ?? null;
  }

  async insert(v: {
    userId: number;
    nominal: number;
    accountName: string;
    accountBank: string;
    accountNumber: string;
  }): Promise<number> {
    const [r] = await rows<{ id: number }>(
      this.db,
      sql`insert into withdrawals (user_id, nominal, status, account_name, account_bank, account_number)
          values (${v.userId}, ${v.nominal}, 'requested', ${v.accountName}, ${v.accountBank}, ${v.accountNumber})
          returning id`,
    );
    return r.id;
  }

  /**
   * Moves a withdrawal to `to` only from one of the `from` statuses, in one statement, so two
   * admins clicking at once cannot both move it. False when it was not in a `from` status.
   */
  async transition(id: number, from: readonly WithdrawStatus[], to: WithdrawStatus, by: number): Promise<boolean> {
    const allowed = sql.join(
      from.map((s) => sql`${s}`),
      sql`, `,
    );
    const moved = await rows(
      this.db,
      sql`update withdrawals set status = ${to}, processed_by = ${by}, updated_at = now()
          where id = ${id} and status in (${allowed}) returning id`,
    );
    return moved.length > 0;
  }
}
