import { type Db, type Int8, type RawRow, rows } from '@wa/core/db/client';
import type { proxies } from '@wa/core/db/schema/index';
import { likePattern } from '@wa/core/paging';
import type { ProxyDto, ProxyStatus } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/** Single-row writers of proxies take this advisory lock; imports need none (chunked INSERT … ON CONFLICT). */
export const PROXY_INSERT_LOCK = 727_274_102;

/** The columns of COLS. */
type Row = Pick<
  RawRow<typeof proxies>,
  'id' | 'value' | 'status' | 'count_use' | 'checked_at' | 'latency_ms' | 'check_error'
>;

export function toProxyDto(r: Row): ProxyDto {
  const status = r.status === 'active' || r.status === 'in use' ? r.status : 'nonactive';
  return {
    id: r.id,
    value: r.value,
    status,
    count_use: Number(r.count_use),
    checked_at: r.checked_at ? new Date(r.checked_at).toISOString() : null,
    latency_ms: r.latency_ms === null ? null : Number(r.latency_ms),
    check_error: r.check_error,
  };
}

const COLS = sql`id, value, status, count_use, checked_at, latency_ms, check_error`;

/** SQL for proxies; nothing else. */
export class ProxiesRepo {
  constructor(private readonly db: Db) {}

  async page(opts: { offset: number; limit: number; search?: string }): Promise<{ total: number; data: ProxyDto[] }> {
    const where = opts.search ? sql`value ilike ${likePattern(opts.search)}` : sql`true`;
    // table_stats.row_count is a bigint
    const [c] = opts.search
      ? await rows<{ n: number }>(this.db, sql`select count(*)::int as n from proxies where ${where}`)
      : await rows<{ n: Int8 }>(this.db, sql`select row_count as n from table_stats where name = 'proxies'`);
    const list = await rows<Row>(
      this.db,
      sql`select ${COLS} from proxies where ${where} order by id desc limit ${opts.limit} offset ${opts.offset}`,
    );
    return { total: Number(c?.n ?? 0), data: list.map(toProxyDto) };
  }

  async after(afterId: number, limit: number): Promise<ProxyDto[]> {
    const list = await rows<Row>(
      this.db,
      sql`select ${COLS} from proxies where id > ${afterId} order by id limit ${limit}`,
    );
    return list.map(toProxyDto);
  }

  async find(id: number): Promise<ProxyDto | null> {
    const [r] = await rows<Row>(this.db, sql`select ${COLS} from proxies where id = ${id}`);
    return r ? toProxyDto(r) : null;
  }

  async findByValue(value: string): Promise<ProxyDto | null> {
    const [r] = await rows<Row>(this.db, sql`select ${COLS} from proxies where value = ${value}`);
    return r ? toProxyDto(r) : null;
  }

  /** Inserts one proxy under the insert lock; null when the value exists already. */
  async insert(value: string): Promise<ProxyDto | null> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${PROXY_INSERT_LOCK})`);
      const [r] = await rows<Row>(
        tx,
        sql`insert into proxies (value) values (${value}) on conflict do nothing returning ${COLS}`,
      );
      return r ? toProxyDto(r) : null;
    });
  }

  async update(id: number, patch: { value?: string; status?: ProxyStatus }): Promise<ProxyDto | null> {
    const sets: SQL[] = [sql`updated_at = now()`];
    if (patch.value !== undefined) sets.push(sql`value = ${patch.value}`);
    if (patch.status !== undefined) sets.push(sql`status = ${patch.status}`);
    const [r] = await rows<Row>(
      this.db,
      sql`update proxies set ${sql.join(sets, sql`, `)} where id = ${id} returning ${COLS}`,
    );
    return r ? toProxyDto(r) : null;
  }

  async delete(id: number): Promise<boolean> {
    return (await rows(this.db, sql`delete from proxies where id = ${id} returning id`)).length > 0;
  }

  /** Proxies never assigned to an account, and assigned at least once. */
  async countUse(): Promise<{ unUsed: number; used: number }> {
    const [r] = await rows<{ unused: number; used: number }>(
      this.db,
      sql`select count(*) filter (where count_use = 0)::int as unused, count(*) filter (where count_use > 0)::int as used
          from proxies`,
    );
    return { unUsed: Number(r.unused), used: Number(r.used) };
  }
}
