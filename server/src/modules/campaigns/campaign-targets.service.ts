import type { Actor } from '@wa/core/actor';
import { conflict, notFound } from '@wa/core/errors';
import type { ImportFile } from '@wa/core/imports/records';
import { pageMeta, pageWindow } from '@wa/core/paging';
import {
  CAMPAIGN_TARGET_EXPORT,
  CAMPAIGN_TARGET_TEXTS,
  CAMPAIGN_TEXTS,
  type Paged,
  type PhoneNumberDto,
  type PhoneStatus,
  SKIPPED_GONE,
} from '@wa/shared';
import type { BulkOutcome } from '../../imports/bulk-import';
import type { BulkTarget } from '../../imports/bulk-target';
import type { SkippedStore } from '../../imports/skipped-store';
import { PHONE_IMPORT } from '../phone-numbers/phone-numbers.service';
import { visibleCampaign } from './campaign-access';
import type { CampaignTargetsRepo } from './campaign-targets.repo';
import type { CampaignsRepo } from './campaigns.repo';

/**
 * How a campaign's import reads and checks rows: the pool's columns and rules (PHONE_IMPORT), into
 * the campaign's own list, a duplicate only of a number that list holds (the pool and the other
 * campaigns may hold it too), and never a number opted out anywhere.
 */
export function campaignTargetImport(campaignId: number): BulkTarget {
  return { ...PHONE_IMPORT, scope: { column: 'campaign_id', value: campaignId }, suppressOptOuts: true };
}

/** Runs the bulk importer for `owner` into the campaign's targets (createApp binds the database). */
export type CampaignImport = (file: ImportFile, owner: number, campaignId: number) => Promise<BulkOutcome>;

/**
 * Reads an upload while it arrives and hands it to `run` (the route's receiveImport): the service
 * says what to do with the file, never touching the request.
 */
export type ReceiveUpload = (run: (file: ImportFile) => Promise<BulkOutcome>) => Promise<BulkOutcome>;

/** A foreign key violation: the campaign went (deleted) while its import ran. */
const isGone = (err: unknown) => (err as { code?: string } | null)?.code === '23503';

/**
 * A campaign's targets (issue 22): whoever may read the campaign lists and exports them; whoever
 * may manage it imports into it, until it is finished. Another client's campaign is not found, as
 * in CampaignsService.
 */
export class CampaignTargetsService {
  constructor(
    private readonly campaigns: Pick<CampaignsRepo, 'get'>,
    private readonly repo: CampaignTargetsRepo,
    private readonly importFile: CampaignImport,
    private readonly skipped: SkippedStore,
  ) {}

  async page(
    actor: Actor,
    campaignId: number,
    q: { page: number; search?: string; status?: PhoneStatus },
  ): Promise<Paged<PhoneNumberDto>> {
    await visibleCampaign(this.campaigns, actor, 'campaign.read', campaignId);
    const { total, data } = await this.repo.page(campaignId, {
      ...pageWindow(q.page),
      search: q.search,
      status: q.status,
    });
    return { data, meta: pageMeta(q.page, total) };
  }

  /**
   * The export's pages (targets after an id, in id order), once the actor may read the campaign:
   * asked before the download starts, so a refusal is still a JSON 4xx.
   */
  async exportPages(actor: Actor, campaignId: number): Promise<(afterId: number) => Promise<PhoneNumberDto[]>> {
    await visibleCampaign(this.campaigns, actor, 'campaign.read', campaignId);
    return (afterId) => this.repo.after(campaignId, afterId, 5000);
  }

  /**
   * Imports an upload into the campaign's targets for the actor (§3 Import result; the full
   * skipped list is theirs to download). The campaign is checked before the upload is read, so a
   * refused import parses nothing; one finished meanwhile still gets the rows its import began with.
   */
  async import(actor: Actor, campaignId: number, receive: ReceiveUpload): Promise<BulkOutcome> {
    const c = await visibleCampaign(this.campaigns, actor, 'campaign.manage', campaignId);
    if (c.status === 'finished') throw conflict(CAMPAIGN_TARGET_TEXTS.finished);
    return receive((file) =>
      this.importFile(file, actor.id, campaignId).catch((err: unknown) => {
        if (isGone(err)) throw notFound(CAMPAIGN_TEXTS.notFound);
        throw err;
      }),
    );
  }

  /** The full skipped list of one of the actor's recent imports, as CSV (404 when gone or not theirs). */
  async skippedList(actor: Actor, campaignId: number, importId: string) {
    await visibleCampaign(this.campaigns, actor, 'campaign.manage', campaignId);
    const stream = this.skipped.open(actor.id, importId);
    if (!stream) throw notFound(SKIPPED_GONE);
    return { stream, filename: CAMPAIGN_TARGET_EXPORT.skipped(campaignId) };
  }
}
