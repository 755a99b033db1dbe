import type { Actor } from '@wa/core/actor';
import { conflict } from '@wa/core/errors';
import { pageMeta } from '@wa/core/paging';
import { assertCan, canForAnyone } from '@wa/core/policy';
import {
  CAMPAIGN_TEXTS,
  CAMPAIGN_TOPUP_TEXTS,
  type CampaignDto,
  type CampaignReplyDto,
  type CampaignReport,
  type CampaignTopupBody,
  type CampaignTopupDto,
  type Paged,
} from '@wa/shared';
import { visibleCampaign } from './campaign-access';
import type { CampaignReportRepo, LeadRow } from './campaign-report.repo';
import type { CampaignsRepo } from './campaigns.repo';

/** Leads read per round trip of the streamed export. */
const LEAD_PAGE = 1000;

/**
 * What a campaign proves (issue 22): its report, replies and leads for whoever may read the
 * campaign (its client, admins and devs), and its top-ups, which only admins and devs record.
 * Nothing here carries a member's identity.
 */
export class CampaignReportService {
  constructor(
    private readonly repo: CampaignReportRepo,
    private readonly campaigns: CampaignsRepo,
  ) {}

  /**
   * The report as `actor` may see it: fees and margin are the operator's (admins and devs); a
   * client's report has them null, and `operator` says which it is (the export leaves them out).
   */
  async report(actor: Actor, id: number): Promise<CampaignReport & { operator: boolean }> {
    const c = await visibleCampaign(this.campaigns, actor, 'campaign.read', id);
    const whole = await this.repo.report(c);
    if (canForAnyone(actor, 'campaign.price')) return { ...whole, operator: true };
    const hide = <T extends { fees: number; margin: number }>(r: T) => ({ ...r, fees: null, margin: null });
    return { rows: whole.rows.map(hide), totals: hide(whole.totals), operator: false };
  }

  async replies(actor: Actor, id: number, page: number): Promise<Paged<CampaignReplyDto>> {
    await visibleCampaign(this.campaigns, actor, 'campaign.read', id);
    const { data, total } = await this.repo.replies(id, page);
    return { data, meta: pageMeta(page, total) };
  }

  /** The campaign, checked, and a reader of its leads page by page (for streamDownload). */
  async leads(actor: Actor, id: number): Promise<(afterId: number) => Promise<LeadRow[]>> {
    await visibleCampaign(this.campaigns, actor, 'campaign.read', id);
    return (afterId) => this.repo.leadsAfter(id, afterId, LEAD_PAGE);
  }

  async topups(actor: Actor, id: number): Promise<{ data: CampaignTopupDto[]; total: number }> {
    await visibleCampaign(this.campaigns, actor, 'campaign.read', id);
    return this.repo.topups(id);
  }

  async topup(
    actor: Actor,
    id: number,
    b: CampaignTopupBody,
  ): Promise<{ data: CampaignDto; topup: CampaignTopupDto; msg: string }> {
    assertCan(actor, 'campaign.topup');
    const c = await visibleCampaign(this.campaigns, actor, 'campaign.read', id);
    if (c.status === 'finished' && c.stop_reason !== 'budget') throw conflict(CAMPAIGN_TOPUP_TEXTS.finished);
    const topup = await this.repo.topup(id, b.amount, b.note ?? '', actor.id);
    if (!topup) throw conflict(CAMPAIGN_TOPUP_TEXTS.finished);
    const data = await this.campaigns.get(id);
    if (!data) throw conflict(CAMPAIGN_TEXTS.notFound);
    return { data, topup, msg: CAMPAIGN_TOPUP_TEXTS.recorded };
  }
}
