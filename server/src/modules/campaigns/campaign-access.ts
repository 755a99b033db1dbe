import type { Actor } from '@wa/core/actor';
import { notFound } from '@wa/core/errors';
import { assertCan, can } from '@wa/core/policy';
import { CAMPAIGN_TEXTS, type CampaignDto } from '@wa/shared';
import type { CampaignsRepo } from './campaigns.repo';

/**
 * The campaign `id` when the actor may read or manage it: the role's 403 first, then a client's view
 * of another client's campaign is a 404 like a missing one (so ids tell nothing). What every part of
 * a campaign (its terms, variants, targets) asks before it reads or writes.
 */
export async function visibleCampaign(
  campaigns: Pick<CampaignsRepo, 'get'>,
  actor: Actor,
  ability: 'campaign.read' | 'campaign.manage',
  id: number,
): Promise<CampaignDto> {
  assertCan(actor, ability);
  const c = await campaigns.get(id);
  if (!c || !can(actor, ability, { userId: c.client_id })) throw notFound(CAMPAIGN_TEXTS.notFound);
  return c;
}
