import { type Db, type Nullable, type Prefixed, type RawRow, rows } from '@wa/core/db/client';
import type { generators, validators, whatsappAccounts } from '@wa/core/db/schema/index';
import { RUNNING, TOOL_TABLES, type ToolKind } from '@wa/core/db/tool-tables';
import {
  type GeneratorDto,
  type ToolResultRow,
  type ToolStatus,
  type ValidatorDto,
  validatorFileUrl,
} from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/** A tool's account, left joined under `w_` (see ToolsRepo.select). */
type JoinedAccount = Prefixed<
  'w_',
  Nullable<Pick<RawRow<typeof whatsappAccounts>, 'id' | 'clientid' | 'pushname' | 'phonenumber'>>
>;
/** A generator's row (`t.*`) with its account; `progress` is a numeric (text), the numbers bigints. */
type GeneratorRow = RawRow<typeof generators> & JoinedAccount;
/** A validator's row (`t.*`) with its account; `progress` is a numeric (text). */
type ValidatorRow = RawRow<typeof validators> & JoinedAccount;
type Row = GeneratorRow | ValidatorRow;

const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

function common(r: Row) {
  return {
    id: num(r.id),
    user_id: r.user_id === null ? null : num(r.user_id),
    whatsapp_id: r.whatsapp_id === null ? null : num(r.whatsapp_id),
    b_insert: (num(r.b_insert) ? 1 : 0) as 0 | 1,
    interval_min: num(r.interval_min),
    interval_max: num(r.interval_max),
    count_success: num(r.count_success),
    count_fail: num(r.count_fail),
    progress: Math.round(num(r.progress) * 100) / 100,
    status: String(r.status) as ToolStatus,
    state: str(r.state),
    Whatsapp:
      r.w_id === null || r.w_id === undefined
        ? null
        : {
            id: num(r.w_id),
            clientid: String(r.w_clientid),
            pushname: str(r.w_pushname),
            phonenumber: str(r.w_phonenumber),
          },
    createdAt: new Date(String(r.created_at)).toISOString(),
  };
}

export const toGenerator = (r: GeneratorRow): GeneratorDto => ({
  ...common(r),
  start_number: String(r.start_number),
  end_number: String(r.end_number),
  current_number: str(r.current_number),
});

export const toValidator = (r: ValidatorRow): ValidatorDto => ({
  ...common(r),
  fileName: String(r.file_name),
  fileUrl: validatorFileUrl(num(r.id)),
  total: num(r.total),
  position: num(r.position),
});

/** What a tool runs on and how: the fields both tools share. */
export interface ToolSettings {
  whatsappId: number;
  bInsert: 0 | 1;
  intervalMin: number;
  intervalMax: number;
}

/** A generator's range. */
export interface GeneratorRange {
  startNumber: string;
  endNumber: string;
}

/** A validator's upload: its original name, the stored file and how many numbers it holds. */
export interface ValidatorUpload {
  fileName: string;
  storedName: string;
  total: number;
}

/** SQL of the generator and validator tables; nothing else. */
export class ToolsRepo {
  private readonly t: (typeof TOOL_TABLES)[ToolKind];

  constructor(
    private readonly db: Db,
    readonly kind: ToolKind,
  ) {
    this.t = TOOL_TABLES[kind];
  }

  private select(where: SQL, tail: SQL = sql``): SQL {
    return sql`select t.*, w.id as w_id, w.clientid as w_clientid, w.pushname as w_pushname,
                      w.phonenumber as w_phonenumber
               from ${this.t.table} t left join whatsapp_accounts w on w.id = t.whatsapp_id
               where ${where} ${tail}`;
  }

  /** The row's DTO: a generator's row is the one with a range (the repository's kind chose the table). */
  private dto(r: Row) {
    return 'start_number' in r ? toGenerator(r) : toValidator(r);
  }

  async find(id: number): Promise<GeneratorDto | ValidatorDto | null> {
    const [r] = await rows<Row>(this.db, this.select(sql`t.id = ${id}`));
    return r ? this.dto(r) : null;
  }

  async page(filter: { userId?: number; search?: string }, limit: number, offset: number) {
    const parts: SQL[] = [sql`true`];
    if (filter.userId !== undefined) parts.push(sql`t.user_id = ${filter.userId}`);
    if (filter.search) {
      const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      parts.push(
        this.kind === 'generator'
          ? sql`(w.phonenumber like ${like} or w.pushname ilike ${like} or t.start_number::text like ${like})`
          : sql`(w.phonenumber like ${like} or w.pushname ilike ${like} or t.file_name ilike ${like})`,
      );
    }
    const where = sql.join(parts, sql` and `);
    const [{ n } = { n: 0 }] = await rows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from ${this.t.table} t left join whatsapp_accounts w on w.id = t.whatsapp_id
          where ${where}`,
    );
    const data = await rows<Row>(this.db, this.select(where, sql`order by t.id desc limit ${limit} offset ${offset}`));
    return { total: n, data: data.map((r) => this.dto(r)) };
  }

  private async insert(values: SQL): Promise<number> {
    const [r] = await rows<{ id: number }>(this.db, sql`insert into ${this.t.table} ${values} returning id`);
    if (!r) throw new Error('insert returned nothing');
    return r.id;
  }

  async insertGenerator(userId: number, s: ToolSettings, range: GeneratorRange): Promise<number> {
    return this.insert(sql`(user_id, whatsapp_id, start_number, end_number, b_insert, interval_min, interval_max)
      values (${userId}, ${s.whatsappId}, ${range.startNumber}, ${range.endNumber}, ${s.bInsert}, ${s.intervalMin},
              ${s.intervalMax})`);
  }

  async insertValidator(userId: number, s: ToolSettings, upload: ValidatorUpload): Promise<number> {
    return this.insert(sql`(user_id, whatsapp_id, b_insert, interval_min, interval_max, file_name, file_url, total)
      values (${userId}, ${s.whatsappId}, ${s.bInsert}, ${s.intervalMin}, ${s.intervalMax}, ${upload.fileName},
              ${upload.storedName}, ${upload.total})`);
  }

  /**
   * A run starts: the switch the holder's loop reads flips to running (generating or validating),
   * only from idle, so of two starts one wins; whether it flipped.
   */
  async startRun(id: number): Promise<boolean> {
    const r = await rows<{ id: number }>(
      this.db,
      sql`update ${this.t.table} set status = ${RUNNING[this.kind]}, state = null, updated_at = now()
          where id = ${id} and status = 'idle' returning id`,
    );
    return r.length > 0;
  }

  /** A run stops (or its start is undone): the switch goes back to idle; the loop ends after the number in flight. */
  async stopRun(id: number): Promise<void> {
    await this.db.execute(sql`update ${this.t.table} set status = 'idle', updated_at = now() where id = ${id}`);
  }

  /** A generator's new settings and range; it starts over from the first number. */
  async restartGenerator(id: number, s: ToolSettings, range: GeneratorRange): Promise<void> {
    await this.restart(
      id,
      sql`whatsapp_id = ${s.whatsappId}, start_number = ${range.startNumber}, end_number = ${range.endNumber},
          b_insert = ${s.bInsert}, interval_min = ${s.intervalMin}, interval_max = ${s.intervalMax},
          current_number = null`,
    );
  }

  /** A validator's new settings (its file stays); it starts over from the first number. */
  async restartValidator(id: number, s: ToolSettings): Promise<void> {
    await this.restart(
      id,
      sql`whatsapp_id = ${s.whatsappId}, b_insert = ${s.bInsert}, interval_min = ${s.intervalMin},
          interval_max = ${s.intervalMax}, position = 0`,
    );
  }

  /** Starts over: counts, progress and results go (an edit changes what the tool checks). */
  private async restart(id: number, set: SQL): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`delete from ${this.t.results} where ${this.t.fk} = ${id}`);
      await tx.execute(sql`update ${this.t.table} set ${set}, count_success = 0, count_fail = 0, progress = 0,
                            state = null, updated_at = now() where id = ${id}`);
    });
  }

  async delete(id: number): Promise<boolean> {
    const r = await rows<{ id: number }>(this.db, sql`delete from ${this.t.table} where id = ${id} returning id`);
    return r.length > 0;
  }

  /**
   * A validator's upload: its original name, and the file_url column, which names the stored file
   * (the stored name, or '/uploads/validators/<name>' in rows from before the file route).
   */
  async storedFile(id: number): Promise<{ fileName: string; stored: string } | null> {
    const [r] = await rows<Pick<RawRow<typeof validators>, 'file_name' | 'file_url'>>(
      this.db,
      sql`select file_name, file_url from validators where id = ${id}`,
    );
    return r ? { fileName: r.file_name, stored: r.file_url } : null;
  }

  async results(id: number): Promise<ToolResultRow[]> {
    return rows<ToolResultRow>(
      this.db,
      sql`select number, name from ${this.t.results} where ${this.t.fk} = ${id} order by id`,
    );
  }
}
