import { type Db, type Int8, rows } from '@wa/core/db/client';
import { dayOf } from '@wa/core/ledger/daily';
import { pageWindow } from '@wa/core/paging';
import type {
  CampaignDto,
  CampaignReplyDto,
  CampaignReportRow,
  CampaignReportTotals,
  CampaignTopupDto,
} from '@wa/shared';
import { sql } from 'drizzle-orm';

const iso = (d: string | Date) => new Date(d).toISOString();

/** A lead: a number of the campaign that replied and has not opted out. */
export interface LeadRow {
  id: number;
  number: string;
  name: string;
  replies: number;
  first_reply: string;
  last_reply_at: string;
  variant_id: number | null;
}

type ReportRow = Omit<CampaignReportRow, 'cost' | 'margin' | 'fees'> & { fees: Int8 };

/** The report with every figure, the operator's included (a client's has its fees and margin taken out). */
type Whole<T> = Omit<T, 'fees' | 'margin'> & { fees: number; margin: number };
export interface WholeReport {
  rows: Whole<CampaignReportRow>[];
  totals: Whole<CampaignReportTotals>;
}

/**
 * A campaign's evidence (issue 22), read from its message logs and the replies attributed to it:
 * each message counts on the day it was sent (APP_TIMEZONE), with its variant; a reply and an
 * opt-out count for the message they answered. Every statement takes the campaign's id.
 */
export class CampaignReportRepo {
  constructor(
    readonly db: Db,
    private readonly timeZone: string,
  ) {}

  /** The report per day and variant, and its totals; cost is the delivered messages at the campaign's price. */
  async report(c: Pick<CampaignDto, 'id' | 'price_per_delivered'>): Promise<WholeReport> {
    const found = await rows<ReportRow>(
      this.db,
      sql`with r as (
            select i.phone_number_id, bool_or(i.optout) as optout from incoming_messages i
            where i.campaign_id = ${c.id} and i.phone_number_id is not null group by i.phone_number_id
          )
          select ${dayOf(sql`m.created_at`, this.timeZone)}::text as day, m.variant_id,
                 count(*) filter (where m.status in ('sent', 'delivered', 'read'))::int as sent,
                 count(*) filter (where m.status in ('delivered', 'read'))::int as delivered,
                 count(*) filter (where m.status = 'read')::int as read,
                 count(*) filter (where m.status = 'failed')::int as failed,
                 count(*) filter (where m.status = 'unknown')::int as unknown,
                 count(r.phone_number_id)::int as replied,
                 count(*) filter (where r.optout)::int as optout,
                 coalesce(sum(m.fee + m.referral_fee), 0)::bigint as fees
          from message_logs m left join r on r.phone_number_id = m.phone_number_id
          where m.campaign_id = ${c.id}
          group by 1, 2 order by 1, 2 nulls last`,
    );
    const list: WholeReport['rows'] = found.map((r) => {
      const cost = Number(r.delivered) * c.price_per_delivered;
      const fees = Number(r.fees);
      return {
        day: String(r.day).slice(0, 10),
        variant_id: r.variant_id,
        sent: Number(r.sent),
        delivered: Number(r.delivered),
        read: Number(r.read),
        failed: Number(r.failed),
        unknown: Number(r.unknown),
        replied: Number(r.replied),
        optout: Number(r.optout),
        cost,
        fees,
        margin: cost - fees,
      };
    });
    const totals: WholeReport['totals'] = {
      sent: 0,
      delivered: 0,
      read: 0,
      failed: 0,
      unknown: 0,
      replied: 0,
      optout: 0,
      cost: 0,
      fees: 0,
      margin: 0,
    };
    for (const r of list) for (const k of Object.keys(totals) as (keyof WholeReport['totals'])[]) totals[k] += r[k];
    return { rows: list, totals };
  }

  /** The campaign's replies, newest first, a page at a time, with their count. */
  async replies(campaignId: number, page: number): Promise<{ data: CampaignReplyDto[]; total: number }> {
    const { limit, offset } = pageWindow(page);
    const [c] = await rows<{ n: number }>(
      this.db,
      sql`select count(*)::int as n from incoming_messages where campaign_id = ${campaignId}`,
    );
    const found = await rows<{
      id: number;
      target: string;
      name: string | null;
      text: string;
      optout: boolean;
      variant_id: number | null;
      created_at: string | Date;
    }>(
      this.db,
      sql`select i.id, i.sender as target, p.name, i.text, i.optout, m.variant_id, i.created_at
          from incoming_messages i
          left join phone_numbers p on p.id = i.phone_number_id
          left join lateral (
            select l.variant_id from message_logs l
            where l.phone_number_id = i.phone_number_id and l.campaign_id = ${campaignId}
            order by l.id desc limit 1
          ) m on true
          where i.campaign_id = ${campaignId}
          order by i.id desc limit ${limit} offset ${offset}`,
    );
    return {
      total: Number(c?.n ?? 0),
      data: found.map((r) => ({
        id: r.id,
        target: r.target,
        name: r.name ?? '',
        text: r.text,
        optout: r.optout,
        variant_id: r.variant_id,
        at: iso(r.created_at),
      })),
    };
  }

  /**
   * Leads after the target `afterId` (in id order, for a streamed export): the campaign's targets
   * that replied and have not opted out, anywhere, since.
   */
  async leadsAfter(campaignId: number, afterId: number, limit: number): Promise<LeadRow[]> {
    const found = await rows<Omit<LeadRow, 'last_reply_at'> & { last_reply_at: string | Date }>(
      this.db,
      sql`select p.id, p.number, p.name, count(*)::int as replies,
                 (array_agg(i.text order by i.id))[1] as first_reply, max(i.created_at) as last_reply_at,
                 (select l.variant_id from message_logs l
                  where l.phone_number_id = p.id and l.campaign_id = ${campaignId} order by l.id desc limit 1) as variant_id
          from incoming_messages i join phone_numbers p on p.id = i.phone_number_id
          where i.campaign_id = ${campaignId} and p.id > ${afterId} and p.status <> 'optout'
          group by p.id
          having not bool_or(i.optout)
          order by p.id limit ${limit}`,
    );
    return found.map((r) => ({ ...r, last_reply_at: iso(r.last_reply_at) }));
  }

  async topups(campaignId: number): Promise<{ data: CampaignTopupDto[]; total: number }> {
    const found = await rows<{ id: number; amount: Int8; note: string; created_at: string | Date }>(
      this.db,
      sql`select id, amount, note, created_at from campaign_topups where campaign_id = ${campaignId} order by id desc`,
    );
    const data = found.map((t) => ({
      id: t.id,
      amount: Number(t.amount),
      note: t.note,
      created_at: iso(t.created_at),
    }));
    return { data, total: data.reduce((sum, t) => sum + t.amount, 0) };
  }

  /**
   * Records a top-up and adds it to the campaign's rupiah budget, in one statement; a campaign that
   * finished because its budget ran out is paused again (an admin resumes it). Null: the campaign
   * finished otherwise (or is gone), and nothing is written.
   */
  async topup(campaignId: number, amount: number, note: string, by: number): Promise<CampaignTopupDto | null> {
    const [t] = await rows<{ id: number; amount: Int8; note: string; created_at: string | Date }>(
      this.db,
      sql`with c as (
            update campaigns
            set budget_amount = coalesce(budget_amount, 0) + ${amount},
                status = case when status = 'finished' then 'paused' else status end,
                stop_reason = case when status = 'finished' then null else stop_reason end,
                updated_at = now()
            where id = ${campaignId} and (status <> 'finished' or stop_reason = 'budget')
            returning id
          )
          insert into campaign_topups (campaign_id, amount, note, created_by)
          select c.id, ${amount}, ${note}, ${by} from c
          returning id, amount, note, created_at`,
    );
    return t ? { id: t.id, amount: Number(t.amount), note: t.note, created_at: iso(t.created_at) } : null;
  }
}
