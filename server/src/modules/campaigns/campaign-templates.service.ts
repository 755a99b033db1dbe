import type { Actor } from '@wa/core/actor';
import { conflict, notFound } from '@wa/core/errors';
import type { FileStore } from '@wa/core/files/file-store';
import { assertCan, canForAnyone } from '@wa/core/policy';
import {
  CAMPAIGN_TEMPLATE_TEXTS,
  CAMPAIGN_TEMPLATES_MAX,
  CAMPAIGN_TEXTS,
  type CampaignDto,
  type CampaignTemplateDto,
  type CampaignTemplateFields,
  type UpdateCampaignTemplateBody,
} from '@wa/shared';
import { assertCaptionOrMedia, TemplateMedia, templateContent } from '../templates/template-content';
import { visibleCampaign } from './campaign-access';
import type { CampaignTemplatesRepo } from './campaign-templates.repo';
import type { CampaignsRepo } from './campaigns.repo';

type Saved = { data: CampaignTemplateDto; msg: string };

/**
 * A campaign's message variants (issue 22). Whoever may manage the campaign adds, re-weighs,
 * switches off and deletes its variants while it is not finished; only an admin or dev approves
 * one, and the blast sends approved ones only, so a client's words go out once an operator has
 * read them. A variant's text never changes after it is made (there is no edit), which is why a
 * change of weight or status keeps the approval. Another client's campaign is not found, as in
 * CampaignsService.
 */
export class CampaignTemplatesService {
  private readonly media: TemplateMedia;

  constructor(
    private readonly repo: CampaignTemplatesRepo,
    private readonly campaigns: CampaignsRepo,
    files: FileStore,
  ) {
    this.media = new TemplateMedia(files);
  }

  async list(actor: Actor, campaignId: number): Promise<{ data: CampaignTemplateDto[] }> {
    await visibleCampaign(this.campaigns, actor, 'campaign.read', campaignId);
    return { data: await this.repo.list(campaignId) };
  }

  /** A new variant from the template form; its medium is stored before the row points at it. */
  async create(
    actor: Actor,
    campaignId: number,
    input: CampaignTemplateFields,
    file: Express.Multer.File | undefined,
  ): Promise<Saved> {
    await this.open(actor, campaignId);
    const content = templateContent(input);
    const media = file ? this.media.urlOf(file) : null;
    assertCaptionOrMedia(content, media);
    const approvedBy = canForAnyone(actor, 'campaign.approve') ? actor.id : null;
    const data = await this.media.withStored(file, async () => {
      const made = await this.repo.insert(
        campaignId,
        { ...content, media, weight: input.weight, approvedBy },
        CAMPAIGN_TEMPLATES_MAX,
      );
      // refused: the campaign finished meanwhile, or it has its variants already (the medium goes again)
      if (!made) throw await this.whyRefused(actor, campaignId);
      return made;
    });
    return { data, msg: data.approved ? CAMPAIGN_TEMPLATE_TEXTS.saved : CAMPAIGN_TEMPLATE_TEXTS.awaitingApproval };
  }

  async update(actor: Actor, campaignId: number, id: number, b: UpdateCampaignTemplateBody): Promise<Saved> {
    await this.open(actor, campaignId);
    const data = await this.repo.update(campaignId, id, b);
    if (!data) throw await this.missed(actor, campaignId);
    return { data, msg: CAMPAIGN_TEMPLATE_TEXTS.updated };
  }

  async remove(actor: Actor, campaignId: number, id: number): Promise<{ id: number; msg: string }> {
    await this.open(actor, campaignId);
    const gone = await this.repo.delete(campaignId, id);
    if (!gone) throw await this.missed(actor, campaignId);
    await this.media.remove(gone.media);
    return { id, msg: CAMPAIGN_TEMPLATE_TEXTS.deleted };
  }

  /** Admins and devs; a variant approved already keeps its first approval and is answered as it is. */
  async approve(actor: Actor, campaignId: number, id: number): Promise<Saved> {
    assertCan(actor, 'campaign.approve');
    await this.open(actor, campaignId);
    const data = await this.repo.approve(campaignId, id, actor.id);
    if (!data) throw await this.missed(actor, campaignId);
    return { data, msg: CAMPAIGN_TEMPLATE_TEXTS.approved };
  }

  /** The campaign the actor manages, while it is not finished (its variants are its report then). */
  private async open(actor: Actor, id: number): Promise<CampaignDto> {
    const c = await visibleCampaign(this.campaigns, actor, 'campaign.manage', id);
    if (c.status === 'finished') throw conflict(CAMPAIGN_TEXTS.finished);
    return c;
  }

  /** Why an add was refused after the checks: the campaign finished meanwhile, or it is full. */
  private async whyRefused(actor: Actor, campaignId: number): Promise<Error> {
    await this.open(actor, campaignId);
    return conflict(CAMPAIGN_TEMPLATE_TEXTS.tooMany);
  }

  /** Why a write found no variant: the campaign finished meanwhile (409), or it has no such variant (404). */
  private async missed(actor: Actor, campaignId: number): Promise<Error> {
    await this.open(actor, campaignId);
    return notFound(CAMPAIGN_TEMPLATE_TEXTS.notFound);
  }
}
