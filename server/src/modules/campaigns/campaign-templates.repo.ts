import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { messageTemplates } from '@wa/core/db/schema/index';
import type { ActiveStatus, CampaignTemplateDto, TemplateButtonDto } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

type Row = Pick<
  RawRow<typeof messageTemplates>,
  'id' | 'campaign_id' | 'media' | 'text' | 'text_wa' | 'button' | 'status' | 'weight' | 'approved_at'
>;

const COLS = sql`id, campaign_id, media, text, text_wa, button, status, weight, approved_at`;

const toDto = (r: Row): CampaignTemplateDto => ({
  id: r.id,
  campaign_id: Number(r.campaign_id),
  media: r.media,
  text: r.text,
  text_wa: r.text_wa,
  button: r.button,
  status: r.status === 'nonactive' ? 'nonactive' : 'active',
  weight: r.weight,
  approved: r.approved_at !== null,
  approved_at: r.approved_at === null ? null : new Date(r.approved_at).toISOString(),
});

/** A new variant's columns; `approvedBy` set: approved as it is made, by them. */
export interface VariantInput {
  media: string | null;
  text: string;
  text_wa: string;
  button: TemplateButtonDto[];
  status: ActiveStatus;
  weight: number;
  approvedBy: number | null;
}

/**
 * A campaign's variants: message_templates rows with its campaign_id (the default pool's are
 * templates.repo.ts's). Every statement names the campaign, so a variant is only ever reached
 * through its own campaign, and every write holds only while that campaign is not finished: a
 * campaign that finishes meanwhile is not changed after all (the write answers null).
 */
export class CampaignTemplatesRepo {
  constructor(private readonly db: Db) {}

  async list(campaignId: number): Promise<CampaignTemplateDto[]> {
    const list = await rows<Row>(
      this.db,
      sql`select ${COLS} from message_templates where campaign_id = ${campaignId} order by id`,
    );
    return list.map(toDto);
  }

  /**
   * Adds a variant while the campaign is not finished and has fewer than `max` variants; null
   * otherwise. (The count is a statement's snapshot: two adds at once may both pass at max - 1.)
   */
  async insert(campaignId: number, v: VariantInput, max: number): Promise<CampaignTemplateDto | null> {
    const [r] = await rows<Row>(
      this.db,
      sql`insert into message_templates (campaign_id, media, text, text_wa, button, status, weight, approved_at, approved_by)
          select ${campaignId}, ${v.media}, ${v.text}, ${v.text_wa}, ${JSON.stringify(v.button)}::jsonb, ${v.status},
                 ${v.weight}, case when ${v.approvedBy}::int is null then null else now() end, ${v.approvedBy}::int
          where ${open(campaignId)}
            and (select count(*) from message_templates where campaign_id = ${campaignId}) < ${max}
          returning ${COLS}`,
    );
    return r ? toDto(r) : null;
  }

  /** Changes the weight and/or status; the approval stays. */
  async update(
    campaignId: number,
    id: number,
    v: { weight?: number; status?: ActiveStatus },
  ): Promise<CampaignTemplateDto | null> {
    const sets: SQL[] = [sql`updated_at = now()`];
    if (v.weight !== undefined) sets.push(sql`weight = ${v.weight}`);
    if (v.status !== undefined) sets.push(sql`status = ${v.status}`);
    return this.one(
      sql`update message_templates set ${sql.join(sets, sql`, `)}
          where ${variant(campaignId, id)} and ${open(campaignId)} returning ${COLS}`,
    );
  }

  /** Approves the variant by `by`; one approved already keeps its first approval (time and approver). */
  async approve(campaignId: number, id: number, by: number): Promise<CampaignTemplateDto | null> {
    // in SET every column is read as it was, so both ends test the old approved_at
    return this.one(
      sql`update message_templates set
            approved_at = coalesce(approved_at, now()),
            approved_by = case when approved_at is null then ${by}::int else approved_by end,
            updated_at = case when approved_at is null then now() else updated_at end
          where ${variant(campaignId, id)} and ${open(campaignId)} returning ${COLS}`,
    );
  }

  async delete(campaignId: number, id: number): Promise<CampaignTemplateDto | null> {
    return this.one(
      sql`delete from message_templates where ${variant(campaignId, id)} and ${open(campaignId)} returning ${COLS}`,
    );
  }

  private async one(query: SQL): Promise<CampaignTemplateDto | null> {
    const [r] = await rows<Row>(this.db, query);
    return r ? toDto(r) : null;
  }
}

/** The campaign's own variant `id`. */
const variant = (campaignId: number, id: number) => sql`id = ${id} and campaign_id = ${campaignId}`;

/** The campaign is still there and not finished. */
const open = (campaignId: number) =>
  sql`exists (select 1 from campaigns where id = ${campaignId} and status <> 'finished')`;
