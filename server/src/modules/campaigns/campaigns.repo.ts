import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { campaigns } from '@wa/core/db/schema/index';
import { likePattern, pageWindow } from '@wa/core/paging';
import type { CampaignDto, CampaignStatus, CampaignStopReason } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/** A campaign's row with its client's name, as every query here reads it. */
type CampaignRow = RawRow<typeof campaigns> & { client_name: string };

const iso = (d: string | Date | null) => (d === null ? null : new Date(d).toISOString());

const toDto = (r: CampaignRow): CampaignDto => ({
  id: r.id,
  name: r.name,
  client_id: r.client_id,
  client_name: r.client_name,
  status: r.status as CampaignStatus,
  stop_reason: r.stop_reason as CampaignStopReason | null,
  priority: r.priority,
  start_at: iso(r.start_at),
  end_at: iso(r.end_at),
  window_start: r.window_start,
  window_end: r.window_end,
  budget_messages: r.budget_messages,
  budget_amount: r.budget_amount === null ? null : Number(r.budget_amount),
  price_per_delivered: r.price_per_delivered,
  sent: r.sent,
  delivered: r.delivered,
  read: r.read,
  failed: r.failed,
  replied: r.replied,
  optout: r.optout,
  spent: Number(r.spent),
  unknown: r.unknown,
  created_at: iso(r.created_at) ?? '',
  updated_at: iso(r.updated_at) ?? '',
});

/** The columns a campaign is written with (the API's names), each optional on an update. */
export interface CampaignTerms {
  name?: string;
  start_at?: string | null;
  end_at?: string | null;
  window_start?: string | null;
  window_end?: string | null;
  budget_messages?: number | null;
  budget_amount?: number | null;
  price_per_delivered?: number;
  priority?: number;
}

const TERM_COLUMNS = [
  'name',
  'start_at',
  'end_at',
  'window_start',
  'window_end',
  'budget_messages',
  'budget_amount',
  'price_per_delivered',
  'priority',
] as const satisfies readonly (keyof CampaignTerms)[];

const selectCampaign = sql`select c.*, trim(u.firstname || ' ' || u.lastname) as client_name
  from campaigns c join users u on u.id = c.client_id`;

/** Campaigns: every statement takes the campaign's id and, for a client, their own id. */
export class CampaignsRepo {
  constructor(readonly db: Db) {}

  /** The user's role, or null when there is no such user. */
  async roleOf(userId: number): Promise<string | null> {
    const [r] = await rows<{ role: string }>(this.db, sql`select role from users where id = ${userId}`);
    return r?.role ?? null;
  }

  async list(opts: {
    clientId: number | null;
    status?: CampaignStatus;
    search?: string;
    page: number;
  }): Promise<{ data: CampaignDto[]; total: number }> {
    const where: SQL[] = [sql`true`];
    if (opts.clientId !== null) where.push(sql`c.client_id = ${opts.clientId}`);
    if (opts.status) where.push(sql`c.status = ${opts.status}`);
    if (opts.search) where.push(sql`c.name ilike ${likePattern(opts.search)}`);
    const cond = sql.join(where, sql` and `);
    const { limit, offset } = pageWindow(opts.page);
    const [list, [count]] = await Promise.all([
      rows<CampaignRow>(
        this.db,
        sql`${selectCampaign} where ${cond} order by c.id desc limit ${limit} offset ${offset}`,
      ),
      rows<{ n: number }>(this.db, sql`select count(*)::int as n from campaigns c where ${cond}`),
    ]);
    return { data: list.map(toDto), total: Number(count?.n ?? 0) };
  }

  /** Every user with the client role, by name. */
  async clients(): Promise<Array<{ id: number; name: string; email: string }>> {
    return rows(
      this.db,
      sql`select id, trim(firstname || ' ' || lastname) as name, email from users
          where role = 'client' order by lower(firstname), lower(lastname), id`,
    );
  }

  async get(id: number): Promise<CampaignDto | null> {
    const [r] = await rows<CampaignRow>(this.db, sql`${selectCampaign} where c.id = ${id}`);
    return r ? toDto(r) : null;
  }

  async insert(clientId: number, createdBy: number, terms: CampaignTerms & { name: string }): Promise<CampaignDto> {
    const cols = TERM_COLUMNS.filter((c) => terms[c] !== undefined);
    const [made] = await rows<{ id: number }>(
      this.db,
      sql`insert into campaigns (${sql.join(
        [sql`client_id`, sql`created_by`, ...cols.map((c) => sql.identifier(c))],
        sql`, `,
      )}) values (${sql.join(
        [sql`${clientId}`, sql`${createdBy}`, ...cols.map((c) => sql`${terms[c]}`)],
        sql`, `,
      )}) returning id`,
    );
    return (await this.get(made.id)) as CampaignDto;
  }

  /** Writes the given terms while the campaign is in one of `statuses`; null when it is not (or gone). */
  async update(id: number, terms: CampaignTerms, statuses: readonly CampaignStatus[]): Promise<CampaignDto | null> {
    const cols = TERM_COLUMNS.filter((c) => terms[c] !== undefined);
    const set = sql.join(
      [...cols.map((c) => sql`${sql.identifier(c)} = ${terms[c]}`), sql`updated_at = now()`],
      sql`, `,
    );
    const done = await rows<{ id: number }>(
      this.db,
      sql`update campaigns set ${set} where id = ${id} and status in ${inList(statuses)} returning id`,
    );
    return done.length ? this.get(id) : null;
  }

  /** Moves the campaign from `from` to `to` if it is still `from`; null when it was not. */
  async move(
    id: number,
    from: CampaignStatus,
    to: CampaignStatus,
    stopReason: CampaignStopReason | null,
  ): Promise<CampaignDto | null> {
    const done = await rows<{ id: number }>(
      this.db,
      sql`update campaigns set status = ${to}, stop_reason = ${stopReason}, updated_at = now()
          where id = ${id} and status = ${from} returning id`,
    );
    return done.length ? this.get(id) : null;
  }

  /** Deletes the campaign while it is in one of `statuses`. */
  async remove(id: number, statuses: readonly CampaignStatus[]): Promise<boolean> {
    const done = await rows<{ id: number }>(
      this.db,
      sql`delete from campaigns where id = ${id} and status in ${inList(statuses)} returning id`,
    );
    return done.length > 0;
  }
}

/** `(a, b, c)` of parameters, for `in`. */
const inList = (values: readonly string[]) =>
  sql`(${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;
