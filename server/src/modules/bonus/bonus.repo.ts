import type { CounterScope } from '@wa/core/counter-scope';
import { type Db, type Int8, type RawRow, rows } from '@wa/core/db/client';
import type { bonuses, users } from '@wa/core/db/schema/index';
import { ALL_USERS, type BonusDto } from '@wa/shared';
import { sql } from 'drizzle-orm';

type Bonus = RawRow<typeof bonuses>;
type BonusRow = Pick<Bonus, 'id' | 'user_id' | 'admin_id' | 'nominal' | 'reason' | 'created_at'> &
  Pick<RawRow<typeof users>, 'firstname' | 'lastname'>;

function toDto(r: BonusRow): BonusDto {
  return {
    id: r.id,
    userId: r.user_id,
    adminId: r.admin_id,
    nominal: Number(r.nominal),
    reason: r.reason,
    createdAt: new Date(r.created_at).toISOString(),
    User: { firstname: r.firstname, lastname: r.lastname },
  };
}

const SELECT = sql`select b.id, b.user_id, b.admin_id, b.nominal, b.reason, b.created_at, u.firstname, u.lastname
  from bonuses b join users u on u.id = b.user_id`;

/** SQL for bonuses; nothing else. */
export class BonusRepo {
  constructor(private readonly db: Db) {}

  /** Every bonus given, in whole rupiah. */
  async total(scope: CounterScope): Promise<number> {
    const [r] = await rows<{ total: Int8 }>(
      this.db,
      scope === ALL_USERS
        ? // everybody's: the total migration 0022's triggers keep, not a sum of every bonus
          sql`select coalesce(sum(t.total), 0)::bigint as total from money_totals t where t.name = 'bonuses'`
        : sql`select coalesce(sum(b.nominal), 0)::bigint as total from bonuses b where b.user_id = ${scope.userId}`,
    );
    return Number(r?.total ?? 0);
  }

  /** Newest first; one user's bonuses, or everybody's when `userId` is null. */
  async page(opts: { userId: number | null; limit: number; offset: number }) {
    const where = opts.userId === null ? sql`true` : sql`b.user_id = ${opts.userId}`;
    const [c] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from bonuses b where ${where}`);
    const list = await rows<BonusRow>(
      this.db,
      sql`${SELECT} where ${where} order by b.created_at desc, b.id desc limit ${opts.limit} offset ${opts.offset}`,
    );
    return { total: Number(c.n), data: list.map(toDto) };
  }

  async insert(v: { userId: number; adminId: number; nominal: number; reason: string }): Promise<BonusDto> {
    const [r] = await rows<{ id: number }>(
      this.db,
      sql`insert into bonuses (user_id, admin_id, nominal, reason)
          values (${v.userId}, ${v.adminId}, ${v.nominal}, ${v.reason}) returning id`,
    );
    const [row] = await rows<BonusRow>(this.db, sql`${SELECT} where b.id = ${r.id}`);
    return toDto(row);
  }

  /** Whose bonus it is and how much, or null when there is none with this id. */
  async find(id: number): Promise<{ userId: number; nominal: number } | null> {
    const [r] = await rows<Pick<Bonus, 'user_id' | 'nominal'>>(
      this.db,
      sql`select user_id, nominal from bonuses where id = ${id}`,
    );
    return r ? { userId: r.user_id, nominal: Number(r.nominal) } : null;
  }

  async delete(id: number): Promise<boolean> {
    return (await rows(this.db, sql`delete from bonuses where id = ${id} returning id`)).length > 0;
  }
}
