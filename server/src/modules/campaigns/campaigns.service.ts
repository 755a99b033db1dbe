import type { Actor } from '@wa/core/actor';
import { badRequest, conflict } from '@wa/core/errors';
import { pageMeta } from '@wa/core/paging';
import { assertCan, canForAnyone } from '@wa/core/policy';
import {
  APPROVED_MOVES,
  CAMPAIGN_MOVES,
  CAMPAIGN_STATUSES,
  CAMPAIGN_TEXTS,
  type CampaignDto,
  type CampaignListQuery,
  type CampaignStatus,
  CLIENT_EDITABLE,
  type CreateCampaignBody,
  DELETABLE,
  type Paged,
  type UpdateCampaignBody,
} from '@wa/shared';
import { visibleCampaign } from './campaign-access';
import type { CampaignsRepo, CampaignTerms } from './campaigns.repo';

/** The statuses an admin or dev may still change a campaign's terms in: any but finished. */
const OPERATOR_EDITABLE = CAMPAIGN_STATUSES.filter((s) => s !== 'finished');

/**
 * Campaigns (issue 22): a client makes and runs their own; an admin or dev makes one for a client,
 * approves it, and sets its price and priority. A campaign of another client is not found, as one
 * that does not exist. Every status move is a compare-and-set on the status it was read in, so two
 * moves at once never both apply.
 */
export class CampaignsService {
  constructor(private readonly repo: CampaignsRepo) {}

  async list(actor: Actor, q: CampaignListQuery): Promise<Paged<CampaignDto>> {
    assertCan(actor, 'campaign.read');
    const everyone = canForAnyone(actor, 'campaign.read');
    const clientId = everyone ? (q.client_id ?? null) : actor.id;
    const { data, total } = await this.repo.list({ clientId, status: q.status, search: q.search, page: q.page });
    return { data, meta: pageMeta(q.page, total) };
  }

  /** The users a campaign may be made for (admins and devs choose one). */
  async clients(actor: Actor): Promise<{ data: Array<{ id: number; name: string; email: string }> }> {
    assertCan(actor, 'campaign.clients');
    return { data: await this.repo.clients() };
  }

  async get(actor: Actor, id: number): Promise<CampaignDto> {
    return this.visible(actor, 'campaign.read', id);
  }

  async create(actor: Actor, b: CreateCampaignBody): Promise<CampaignDto> {
    assertCan(actor, 'campaign.manage');
    let clientId = actor.id;
    if (canForAnyone(actor, 'campaign.manage')) {
      if (b.client_id === undefined)
        throw badRequest(CAMPAIGN_TEXTS.clientIdNeeded, { client_id: CAMPAIGN_TEXTS.clientIdNeeded });
      if ((await this.repo.roleOf(b.client_id)) !== 'client') {
        throw badRequest(CAMPAIGN_TEXTS.notClient, { client_id: CAMPAIGN_TEXTS.notClient });
      }
      clientId = b.client_id;
    } else if (b.client_id !== undefined && b.client_id !== actor.id) {
      throw badRequest(CAMPAIGN_TEXTS.notClient, { client_id: 'A client makes campaigns for themselves only.' });
    }
    const terms = this.termsFor(actor, b);
    if (terms.end_at && Date.parse(terms.end_at) <= Date.now()) {
      throw badRequest(CAMPAIGN_TEXTS.endPassed, { end_at: CAMPAIGN_TEXTS.endPassed });
    }
    return this.repo.insert(clientId, actor.id, { ...terms, name: b.name });
  }

  async update(actor: Actor, id: number, b: UpdateCampaignBody): Promise<CampaignDto> {
    const current = await this.visible(actor, 'campaign.manage', id);
    const terms = this.termsFor(actor, b);
    const start = terms.start_at !== undefined ? terms.start_at : current.start_at;
    const end = terms.end_at !== undefined ? terms.end_at : current.end_at;
    if (start && end && end <= start)
      throw badRequest(CAMPAIGN_TEXTS.endBeforeStart, { end_at: CAMPAIGN_TEXTS.endBeforeStart });
    const ws = terms.window_start !== undefined ? terms.window_start : current.window_start;
    const we = terms.window_end !== undefined ? terms.window_end : current.window_end;
    if ((ws === null) !== (we === null))
      throw badRequest(CAMPAIGN_TEXTS.windowHalf, { window_start: CAMPAIGN_TEXTS.windowHalf });
    const statuses = canForAnyone(actor, 'campaign.manage') ? OPERATOR_EDITABLE : CLIENT_EDITABLE;
    const updated = await this.repo.update(id, terms, statuses);
    if (updated) return updated;
    const now = await this.visible(actor, 'campaign.manage', id);
    throw conflict(now.status === 'finished' ? CAMPAIGN_TEXTS.finished : CAMPAIGN_TEXTS.notEditable(now.status));
  }

  async remove(actor: Actor, id: number): Promise<{ id: number; msg: string }> {
    await this.visible(actor, 'campaign.manage', id);
    if (await this.repo.remove(id, DELETABLE)) return { id, msg: CAMPAIGN_TEXTS.deleted };
    const now = await this.visible(actor, 'campaign.manage', id);
    throw conflict(CAMPAIGN_TEXTS.notDeletable(now.status));
  }

  /** Submit, withdraw, approve, pause, resume or finish (CAMPAIGN_MOVES); approval is the operator's. */
  async move(actor: Actor, id: number, to: CampaignStatus): Promise<CampaignDto> {
    const current = await this.visible(actor, 'campaign.manage', id);
    const from = current.status;
    if (!CAMPAIGN_MOVES[from].includes(to)) throw conflict(CAMPAIGN_TEXTS.badMove(from, to));
    if (APPROVED_MOVES.includes(`${from}>${to}`)) assertCan(actor, 'campaign.approve');
    const moved = await this.repo.move(id, from, to, to === 'finished' ? 'manual' : null);
    if (moved) return moved;
    // it moved meanwhile: say what it is now
    const now = await this.visible(actor, 'campaign.manage', id);
    throw conflict(CAMPAIGN_TEXTS.badMove(now.status, to));
  }

  /** The campaign when the actor may see it; a client's view of another's is a 404 like a missing one. */
  private visible(actor: Actor, ability: 'campaign.read' | 'campaign.manage', id: number): Promise<CampaignDto> {
    return visibleCampaign(this.repo, actor, ability, id);
  }

  /** The terms of a body; the price and the priority only from an admin or dev. */
  private termsFor(actor: Actor, b: CreateCampaignBody | UpdateCampaignBody): CampaignTerms {
    const { client_id: _client, ...terms } = b as CreateCampaignBody;
    if (terms.price_per_delivered !== undefined || terms.priority !== undefined) assertCan(actor, 'campaign.price');
    return terms;
  }
}
