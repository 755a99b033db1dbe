import { EFFECTIVE_FEE } from '@wa/core/accounts/effective-fee';
import { type Db, type Int8, type RawRow, rows } from '@wa/core/db/client';
import { type apiKeys, levels, type settings, users } from '@wa/core/db/schema/index';
import { likePattern } from '@wa/core/paging';
import { normalizeRole, type ReferralItem, type UserDto } from '@wa/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import { userIncomeSql } from '../messagelog/messagelog.repo';

type User = RawRow<typeof users>;

/** What ending a user's sessions did: the token version after it, and the API keys it revoked. */
export interface SessionsEnded {
  tokenVersion: number;
  keysRevoked: number;
}

/** What selectUsers selects: the user's columns, the effective fee and intervals, the level, income and accounts. */
type UserRow = Pick<
  User,
  | 'id'
  | 'firstname'
  | 'lastname'
  | 'email'
  | 'role'
  | 'level_id'
  | 'referral_code'
  | 'referrer_id'
  | 'account_name'
  | 'account_bank'
  | 'account_number'
  | 'created_at'
> &
  Pick<RawRow<typeof settings>, 'colors'> & {
    /** the level's name (left joined) */
    level: RawRow<typeof levels>['name'] | null;
    level_rank: number | null;
    /** EFFECTIVE_FEE: the user's own, else the level's, else the settings' price */
    blast_fee: number;
    blast_interval_min: number;
    blast_interval_max: number;
    /** userIncomeSql: a bigint */
    income: Int8;
    whatsapps: number;
  };

/** The colour of a level: the settings' colours in turn, by the level's rank (§3 Setting.colors). */
export function levelColor(colors: string, rank: number | null): string | null {
  if (rank === null) return null;
  const list = colors
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  return list.length ? list[rank % list.length] : null;
}

function toDto(r: UserRow): UserDto {
  const rank = r.level_rank === null ? null : Number(r.level_rank);
  return {
    id: r.id,
    firstname: r.firstname,
    lastname: r.lastname,
    email: r.email,
    role: normalizeRole(r.role) ?? 'member',
    level: r.level,
    level_id: r.level_id,
    color: levelColor(r.colors, rank),
    blast_fee: Number(r.blast_fee),
    blast_interval_min: Number(r.blast_interval_min),
    blast_interval_max: Number(r.blast_interval_max),
    referral_code: r.referral_code,
    referrer_id: r.referrer_id,
    account_name: r.account_name,
    account_bank: r.account_bank,
    account_number: r.account_number,
    createdAt: new Date(r.created_at).toISOString(),
    income: Number(r.income),
    whatsapps: Number(r.whatsapps),
  };
}

/**
 * One select for every user read: effective fee and intervals, level, colour, income, accounts.
 * A page (`order`, with its limit and offset) is cut before the per-user figures are computed,
 * so the last page of many members costs what the first does.
 */
function selectUsers(where: SQL, page?: { order: SQL; limit: number; offset: number }): SQL {
  const cut = page ? sql`${page.order} limit ${page.limit} offset ${page.offset}` : sql``;
  return sql`
    select u.id, u.firstname, u.lastname, u.email, u.role, u.level_id, l.name as level,
      case when l.id is null then null else
        (select count(*) from levels l2
          where l2.requirement_blast < l.requirement_blast
             or (l2.requirement_blast = l.requirement_blast and l2.id < l.id))::int
      end as level_rank,
      s.colors,
      ${EFFECTIVE_FEE} as blast_fee,
      coalesce(u.blast_interval_min, s.interval_min) as blast_interval_min,
      coalesce(u.blast_interval_max, s.interval_max) as blast_interval_max,
      u.referral_code, u.referrer_id, u.account_name, u.account_bank, u.account_number, u.created_at,
      ${userIncomeSql(sql`u.id`)} as income,
      (select count(*)::int from whatsapp_accounts w where w.user_id = u.id) as whatsapps
    from (select u.* from users u where ${where} ${cut}) u
    left join levels l on l.id = u.level_id
    cross join (select * from settings where id = 1) s
    ${page?.order ?? sql``}`;
}

function searchClause(search: string | undefined): SQL {
  if (!search) return sql`true`;
  const like = likePattern(search);
  return sql`(u.firstname ilike ${like} or u.lastname ilike ${like} or u.email ilike ${like}
    or (u.firstname || ' ' || u.lastname) ilike ${like})`;
}

export interface NewUser {
  firstname: string;
  lastname: string;
  email: string;
  passwordHash: string;
  role: string;
  referralCode: string;
  referrerId: number | null;
}

export type UserPatch = Partial<{
  firstname: string;
  lastname: string;
  email: string;
  passwordHash: string;
  accountName: string | null;
  accountBank: string | null;
  accountNumber: string | null;
  role: string;
  levelId: number | null;
  blastFee: number | null;
  blastIntervalMin: number | null;
  blastIntervalMax: number | null;
}>;

/** SQL for users; nothing else. */
export class UsersRepo {
  constructor(private readonly db: Db) {}

  async findDto(id: number): Promise<UserDto | null> {
    const [row] = await rows<UserRow>(this.db, selectUsers(sql`u.id = ${id}`));
    return row ? toDto(row) : null;
  }

  async roleOf(id: number): Promise<string | null> {
    const [row] = await this.db.select({ role: users.role }).from(users).where(eq(users.id, id));
    return row?.role ?? null;
  }

  /** The role and token version a token is checked against. */
  async authState(id: number): Promise<{ role: string; tokenVersion: number } | null> {
    const [row] = await this.db
      .select({ role: users.role, tokenVersion: users.tokenVersion })
      .from(users)
      .where(eq(users.id, id));
    return row ?? null;
  }

  /** The stored password hash, for checking a current password. */
  async passwordHash(id: number): Promise<string | null> {
    const [row] = await this.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id));
    return row?.hash ?? null;
  }

  /** Ends every token signed before now, the API keys untouched (endSessions ends both); returns the new version. */
  async bumpTokenVersion(id: number): Promise<number> {
    const [row] = await this.db
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning({ tokenVersion: users.tokenVersion });
    return row?.tokenVersion ?? 0;
  }

  async findAuthByEmail(email: string) {
    const [row] = await this.db
      .select({ id: users.id, passwordHash: users.passwordHash, tokenVersion: users.tokenVersion })
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    return row ?? null;
  }

  async emailTaken(email: string, exceptId?: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(
        exceptId === undefined
          ? sql`lower(${users.email}) = ${email.toLowerCase()}`
          : sql`lower(${users.email}) = ${email.toLowerCase()} and ${users.id} <> ${exceptId}`,
      );
    return Boolean(row);
  }

  async idByReferralCode(code: string): Promise<number | null> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(sql`upper(${users.referralCode}) = ${code.toUpperCase()}`);
    return row?.id ?? null;
  }

  async referralCodeTaken(code: string): Promise<boolean> {
    return (await this.idByReferralCode(code)) !== null;
  }

  async insert(user: NewUser): Promise<number> {
    const [row] = await this.db.insert(users).values(user).returning({ id: users.id });
    return row.id;
  }

  /**
   * Applies a patch; with `endTokens` the token version is bumped in the same statement, so the
   * change and the end of the older tokens happen together. Returns the token version after it.
   */
  async update(id: number, patch: UserPatch, endTokens = false): Promise<number> {
    const [row] = await this.db
      .update(users)
      .set({ ...patch, ...(endTokens ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}), updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning({ tokenVersion: users.tokenVersion });
    return row?.tokenVersion ?? 0;
  }

  /**
   * Ends every session of the user: the token version goes up (with `patch`, a password change,
   * applied in the same statement) and every live API key of the user is revoked, in one
   * transaction. "Sign out everywhere" and a password change: a key made in a stolen session must
   * not outlive the owner taking the account back.
   */
  async endSessions(id: number, patch: UserPatch = {}): Promise<SessionsEnded> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ ...patch, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning({ tokenVersion: users.tokenVersion });
      const revoked = await rows<Pick<RawRow<typeof apiKeys>, 'id'>>(
        tx,
        sql`update api_keys set revoked_at = now() where user_id = ${id} and revoked_at is null returning id`,
      );
      return { tokenVersion: row?.tokenVersion ?? 0, keysRevoked: revoked.length };
    });
  }

  async levelExists(id: number): Promise<boolean> {
    const [row] = await this.db.select({ id: levels.id }).from(levels).where(eq(levels.id, id));
    return Boolean(row);
  }

  /** Users of a role; 'admin' counts every role that is not member, staff, dev or client (§6). */
  async countRole(role: 'admin' | 'dev'): Promise<number> {
    const where = role === 'dev' ? sql`role = 'dev'` : sql`role not in ('member', 'staff', 'dev', 'client')`;
    const [row] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from users where ${where}`);
    return Number(row.n);
  }

  /** Members, lightweight, for selects (bonus form). */
  async listMembers(): Promise<Pick<UserDto, 'id' | 'firstname' | 'lastname' | 'email'>[]> {
    return rows(
      this.db,
      sql`select id, firstname, lastname, email from users where role = 'member' order by firstname, lastname, id`,
    );
  }

  async membersPage(opts: { search?: string; status?: 'active' | 'inactive'; limit: number; offset: number }) {
    // active: an account connected or sending right now (as the dashboard counts active members)
    const live = sql`exists (select 1 from whatsapp_accounts w where w.user_id = u.id and w.state in ('connected', 'sending'))`;
    const status = opts.status === 'active' ? live : opts.status === 'inactive' ? sql`not ${live}` : sql`true`;
    const where = sql`u.role = 'member' and ${searchClause(opts.search)} and ${status}`;
    const [count] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from users u where ${where}`);
    const list = await rows<UserRow>(
      this.db,
      selectUsers(where, { order: sql`order by u.created_at desc, u.id desc`, limit: opts.limit, offset: opts.offset }),
    );
    return { total: Number(count.n), data: list.map(toDto) };
  }

  /** Members with at least one account connected or sending right now. */
  async activeMembers(): Promise<number> {
    const [row] = await rows<{ n: number }>(
      this.db,
      sql`select count(distinct w.user_id)::int as n from whatsapp_accounts w
          join users u on u.id = w.user_id
          where u.role = 'member' and w.state in ('connected', 'sending')`,
    );
    return Number(row.n);
  }

  /**
   * Users referred by `referrerId`, or every referred user when null. `income` is what each one
   * earned their referrer: the referral fees of their successful sends paid to that referrer.
   */
  async referralsPage(opts: { referrerId: number | null; limit: number; offset: number }) {
    const where = opts.referrerId === null ? sql`u.referrer_id is not null` : sql`u.referrer_id = ${opts.referrerId}`;
    const [count] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from users u where ${where}`);
    const list = await rows<
      Pick<User, 'id' | 'firstname' | 'lastname' | 'email'> & { createdAt: string; income: Int8 }
    >(
      this.db,
      sql`select u.id, u.firstname, u.lastname, u.email, u.created_at as "createdAt",
            (select coalesce(sum(d.referral_income), 0)::bigint from account_daily d
              where d.user_id = u.id and d.referrer_id = u.referrer_id) as income
          from users u where ${where}
          order by u.created_at desc, u.id desc limit ${opts.limit} offset ${opts.offset}`,
    );
    return {
      total: Number(count.n),
      list: list.map(
        (r): ReferralItem => ({ ...r, income: Number(r.income), createdAt: new Date(r.createdAt).toISOString() }),
      ),
    };
  }
}
