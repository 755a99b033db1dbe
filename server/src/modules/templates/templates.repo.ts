import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { messageTemplates } from '@wa/core/db/schema/index';
import type { TemplateDto } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/** The columns of COLS; `count_use` is the sum with the per-account uses. `button` is jsonb, parsed by either driver. */
type Row = Pick<RawRow<typeof messageTemplates>, 'id' | 'media' | 'text' | 'text_wa' | 'button' | 'status'> & {
  count_use: number;
};

function toDto(r: Row): TemplateDto {
  return {
    id: r.id,
    media: r.media,
    text: r.text,
    text_wa: r.text_wa,
    button: r.button,
    status: r.status === 'nonactive' ? 'nonactive' : 'active',
    count_use: Number(r.count_use),
  };
}

/**
 * A template's use count is its own `count_use` (uses before per-account rows, and one-off sends)
 * plus what each account's blast loop counted in `template_uses` (core/src/db/schema/catalogue.ts):
 * summed on read, so sends never wait on one template row.
 */
const COLS = sql`id, media, text, text_wa, button, status,
  (count_use + coalesce((select sum(u.uses) from template_uses u where u.template_id = message_templates.id), 0))::int as count_use`;

export type TemplateInput = Omit<TemplateDto, 'id' | 'count_use'>;

/**
 * The default pool's templates: the rows without a campaign. A campaign's variants (issue 22) are
 * message_templates rows too, and every statement here leaves them out, so no template screen
 * lists, counts, exports, changes or deletes one (campaign-templates.repo.ts has them).
 */
const POOL = sql`campaign_id is null`;

/** SQL for the default pool's message templates; nothing else. */
export class TemplatesRepo {
  constructor(private readonly db: Db) {}

  async all(): Promise<TemplateDto[]> {
    return (await rows<Row>(this.db, sql`select ${COLS} from message_templates where ${POOL} order by id desc`)).map(
      toDto,
    );
  }

  async page(limit: number, offset: number): Promise<{ total: number; data: TemplateDto[] }> {
    const [c] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from message_templates where ${POOL}`);
    const data = await rows<Row>(
      this.db,
      sql`select ${COLS} from message_templates where ${POOL} order by id desc limit ${limit} offset ${offset}`,
    );
    return { total: Number(c.n), data: data.map(toDto) };
  }

  async find(id: number): Promise<TemplateDto | null> {
    const [r] = await rows<Row>(this.db, sql`select ${COLS} from message_templates where id = ${id} and ${POOL}`);
    return r ? toDto(r) : null;
  }

  async insert(v: TemplateInput): Promise<TemplateDto> {
    const [r] = await rows<Row>(
      this.db,
      sql`insert into message_templates (media, text, text_wa, button, status)
          values (${v.media}, ${v.text}, ${v.text_wa}, ${JSON.stringify(v.button)}::jsonb, ${v.status}) returning ${COLS}`,
    );
    return toDto(r);
  }

  async update(id: number, v: Partial<TemplateInput>): Promise<TemplateDto | null> {
    const sets: SQL[] = [sql`updated_at = now()`];
    if (v.media !== undefined) sets.push(sql`media = ${v.media}`);
    if (v.text !== undefined) sets.push(sql`text = ${v.text}`);
    if (v.text_wa !== undefined) sets.push(sql`text_wa = ${v.text_wa}`);
    if (v.button !== undefined) sets.push(sql`button = ${JSON.stringify(v.button)}::jsonb`);
    if (v.status !== undefined) sets.push(sql`status = ${v.status}`);
    const [r] = await rows<Row>(
      this.db,
      sql`update message_templates set ${sql.join(sets, sql`, `)} where id = ${id} and ${POOL} returning ${COLS}`,
    );
    return r ? toDto(r) : null;
  }

  async delete(id: number): Promise<TemplateDto | null> {
    const [r] = await rows<Row>(
      this.db,
      sql`delete from message_templates where id = ${id} and ${POOL} returning ${COLS}`,
    );
    return r ? toDto(r) : null;
  }
}
