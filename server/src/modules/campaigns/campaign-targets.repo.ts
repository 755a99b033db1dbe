import { type Db, rows } from '@wa/core/db/client';
import type { PhoneNumberDto, PhoneStatus } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { PHONE_COLS, type PhoneRow, phoneSearch, toPhoneDto } from '../phone-numbers/phone-numbers.repo';

/**
 * SQL for a campaign's targets: the phone_numbers rows with its campaign_id (issue 22), read as the
 * pool's are. Every statement names the campaign, so nothing here reads another's. Its rows are
 * written by the bulk importer (campaignTargetImport) alone.
 */
export class CampaignTargetsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Newest first. A campaign's list is counted as it is asked for (the table's cached row count is
   * the pool's): its rows come off the (campaign_id, number) index, a campaign at a time.
   */
  async page(
    campaignId: number,
    opts: { offset: number; limit: number; search?: string; status?: PhoneStatus },
  ): Promise<{ total: number; data: PhoneNumberDto[] }> {
    const where = sql.join(
      [
        sql`campaign_id = ${campaignId}`,
        opts.search ? phoneSearch(opts.search) : sql`true`,
        opts.status ? sql`status = ${opts.status}` : sql`true`,
      ],
      sql` and `,
    );
    const [[count], list] = await Promise.all([
      rows<{ n: number }>(this.db, sql`select count(*)::int as n from phone_numbers where ${where}`),
      rows<PhoneRow>(
        this.db,
        sql`select ${PHONE_COLS} from phone_numbers where ${where}
            order by id desc limit ${opts.limit} offset ${opts.offset}`,
      ),
    ]);
    return { total: Number(count?.n ?? 0), data: list.map(toPhoneDto) };
  }

  /** The campaign's targets after `afterId` in id order, for the streamed export. */
  async after(campaignId: number, afterId: number, limit: number): Promise<PhoneNumberDto[]> {
    const list = await rows<PhoneRow>(
      this.db,
      sql`select ${PHONE_COLS} from phone_numbers where campaign_id = ${campaignId} and id > ${afterId}
          order by id limit ${limit}`,
    );
    return list.map(toPhoneDto);
  }
}
