import { type Db, type RawRow, rows } from '@wa/core/db/client';
import { PHONE_INSERT_LOCK } from '@wa/core/db/locks';
import type { phoneNumbers, tableStats } from '@wa/core/db/schema/index';
import { type PoolCounts, poolCounts } from '@wa/core/ledger/pool-counts';
import type { ActiveStatus, PhoneNumberDto, PhoneStatus, ReceiverDto } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/** Rows between two cached bookmarks of the unfiltered list. */
export const BOOKMARK_STRIDE = 1000;

type Phone = RawRow<typeof phoneNumbers>;
/** The columns of PHONE_COLS. */
export type PhoneRow = Pick<
  Phone,
  'id' | 'number' | 'name' | 'status' | 'in_use' | 'count_success' | 'count_fail' | 'last_sent'
>;

export function toPhoneDto(r: PhoneRow): PhoneNumberDto {
  return {
    id: r.id,
    number: r.number,
    name: r.name,
    status: r.status === 'active' || r.status === 'optout' ? r.status : 'nonactive',
    in_use: Number(r.in_use),
    count_success: Number(r.count_success),
    count_fail: Number(r.count_fail),
    last_sent: r.last_sent ? new Date(r.last_sent).toISOString() : null,
  };
}

/** The columns of a phone number's DTO (toPhoneDto), also of a campaign's target. */
export const PHONE_COLS = sql`id, number, name, status, in_use, count_success, count_fail, last_sent`;

/**
 * The default pool: the rows without a campaign (a campaign's targets are its own, issue 22). Every
 * statement here says it, also where an id alone would do, so no route of the pool's screens reads
 * or changes a campaign's target; and the number lookups need it to use the pool's partial unique
 * index (phone_numbers_number_uq).
 */
const POOL = sql`campaign_id is null`;

/**
 * What a search means: digits are a number prefix (0812… and 812… read as 62812…), served by the
 * pool's unique index (with POOL in the same query); anything else is a case-insensitive prefix of
 * the name, served by its own index.
 */
export function phoneSearch(search: string): SQL {
  const digits = search.replace(/[\s\-+().]/g, '');
  if (/^\d+$/.test(digits)) {
    const prefix = digits.startsWith('0') ? `62${digits.slice(1)}` : digits.startsWith('8') ? `62${digits}` : digits;
    return sql`number like ${`${prefix.replace(/[\\%_]/g, '')}%`}`;
  }
  const prefix = search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql`lower(name) like ${`${prefix}%`}`;
}

/** SQL for the default pool of phone numbers (campaign_id null); nothing else. */
export class PhoneNumbersRepo {
  private bookmarks: { version: number; ids: number[] } | null = null;

  constructor(private readonly db: Db) {}

  async stats(): Promise<{ count: number; version: number }> {
    const [r] = await rows<Pick<RawRow<typeof tableStats>, 'row_count' | 'version'>>(
      this.db,
      sql`select row_count, version from table_stats where name = 'phone_numbers'`,
    );
    return { count: Number(r?.row_count ?? 0), version: Number(r?.version ?? 0) };
  }

  /**
   * Newest first. Without a search, a deep page starts from a cached bookmark id (every
   * BOOKMARK_STRIDE rows), refreshed when the table's version moves, so no page scans a million rows.
   */
  async page(opts: {
    offset: number;
    limit: number;
    search?: string;
    status?: PhoneStatus;
  }): Promise<{ total: number; data: PhoneNumberDto[] }> {
    if (opts.search || opts.status) {
      const where = sql.join(
        [
          POOL,
          opts.search ? phoneSearch(opts.search) : sql`true`,
          opts.status ? sql`status = ${opts.status}` : sql`true`,
        ],
        sql` and `,
      );
      const [c] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from phone_numbers where ${where}`);
      const list = await rows<PhoneRow>(
        this.db,
        sql`select ${PHONE_COLS} from phone_numbers where ${where} order by id desc limit ${opts.limit} offset ${opts.offset}`,
      );
      return { total: Number(c.n), data: list.map(toPhoneDto) };
    }
    const { count, version } = await this.stats();
    if (opts.offset >= count) return { total: count, data: [] };
    let anchor: SQL = POOL;
    let skip = opts.offset;
    if (opts.offset >= BOOKMARK_STRIDE) {
      const ids = await this.bookmarkIds(version);
      const k = Math.min(Math.floor(opts.offset / BOOKMARK_STRIDE), ids.length - 1);
      anchor = sql`${POOL} and id <= ${ids[k]}`;
      skip = opts.offset - k * BOOKMARK_STRIDE;
    }
    const list = await rows<PhoneRow>(
      this.db,
      sql`select ${PHONE_COLS} from phone_numbers where ${anchor} order by id desc limit ${opts.limit} offset ${skip}`,
    );
    return { total: count, data: list.map(toPhoneDto) };
  }

  private async bookmarkIds(version: number): Promise<number[]> {
    if (this.bookmarks?.version === version) return this.bookmarks.ids;
    const found = await rows<{ id: number }>(
      this.db,
      sql`select id from (select id, row_number() over (order by id desc) - 1 as rn from phone_numbers where ${POOL}) t
          where rn % ${BOOKMARK_STRIDE} = 0 order by rn`,
    );
    this.bookmarks = { version, ids: found.map((f) => f.id) };
    return this.bookmarks.ids;
  }

  /** Rows after `afterId` in id order, for streamed lists and exports. */
  async after(afterId: number, limit: number, onlyActive = false): Promise<PhoneNumberDto[]> {
    const list = await rows<PhoneRow>(
      this.db,
      sql`select ${PHONE_COLS} from phone_numbers where ${POOL} and id > ${afterId} ${onlyActive ? sql`and status = 'active'` : sql``}
          order by id limit ${limit}`,
    );
    return list.map(toPhoneDto);
  }

  async find(id: number): Promise<PhoneNumberDto | null> {
    const [r] = await rows<PhoneRow>(
      this.db,
      sql`select ${PHONE_COLS} from phone_numbers where ${POOL} and id = ${id}`,
    );
    return r ? toPhoneDto(r) : null;
  }

  async findByNumber(number: string): Promise<PhoneNumberDto | null> {
    const [r] = await rows<PhoneRow>(
      this.db,
      sql`select ${PHONE_COLS} from phone_numbers where ${POOL} and number = ${number}`,
    );
    return r ? toPhoneDto(r) : null;
  }

  /** Inserts one number into the pool under the insert lock; null when the pool has it already. */
  async insert(number: string, name: string): Promise<PhoneNumberDto | null> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${PHONE_INSERT_LOCK})`);
      const [r] = await rows<PhoneRow>(
        tx,
        sql`insert into phone_numbers (number, name) values (${number}, ${name})
            on conflict do nothing returning ${PHONE_COLS}`,
      );
      return r ? toPhoneDto(r) : null;
    });
  }

  async update(
    id: number,
    patch: { number?: string; name?: string; status?: ActiveStatus },
  ): Promise<PhoneNumberDto | null> {
    const sets: SQL[] = [];
    if (patch.number !== undefined) sets.push(sql`number = ${patch.number}`);
    if (patch.name !== undefined) sets.push(sql`name = ${patch.name}`);
    if (patch.status !== undefined) sets.push(sql`status = ${patch.status}`);
    if (!sets.length) return this.find(id);
    const [r] = await rows<PhoneRow>(
      this.db,
      sql`update phone_numbers set ${sql.join(sets, sql`, `)} where ${POOL} and id = ${id} returning ${PHONE_COLS}`,
    );
    return r ? toPhoneDto(r) : null;
  }

  async delete(id: number): Promise<boolean> {
    const r = await rows<{ id: number }>(
      this.db,
      sql`delete from phone_numbers where ${POOL} and id = ${id} returning id`,
    );
    return r.length > 0;
  }

  /**
   * Active numbers least recently sent first: never sent (in id order, off the blast's partial
   * index) before the longest ago. The blaster form offers these and a one-off send's 'All' takes
   * them, so both mean the same numbers. The second half only runs when the first runs short.
   */
  async receivers(opts: { search?: string; limit: number }): Promise<ReceiverDto[]> {
    const match = opts.search ? phoneSearch(opts.search) : sql`true`;
    const list = await rows<Pick<Phone, 'id' | 'number' | 'name'>>(
      this.db,
      sql`(select id, number, name from phone_numbers
           where ${POOL} and status = 'active' and last_sent is null and ${match}
           order by campaign_id, id limit ${opts.limit})
          union all
          (select id, number, name from phone_numbers
           where ${POOL} and status = 'active' and last_sent is not null and ${match}
           order by last_sent, id limit ${opts.limit})
          limit ${opts.limit}`,
    );
    return list.map((r) => ({ id: r.id, number: r.number, name: r.name }));
  }

  /**
   * Numbers sent to at least once, and active numbers never sent to (the blast's targets): kept by
   * triggers as numbers change (core/src/ledger/pool-counts.ts), never counted here.
   */
  countBlast(): Promise<PoolCounts> {
    return poolCounts(this.db);
  }
}
