import { z } from 'zod';
import { idField, pagedOf, pageQuery, requiredText, wholeNumber } from './common';
import { clock } from './settings';

/**
 * Campaigns (issue 22): an advertiser's (a `client` user's) order, run on the members' accounts. A
 * client makes and manages their own; admins and devs everyone's, and they alone approve a campaign
 * (pending → active) and set its price per delivered message and its priority.
 */

export const CAMPAIGN_STATUSES = ['draft', 'pending', 'active', 'paused', 'finished'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * Why a finished campaign stopped: its budget was used, its end came, it messaged every target, or
 * someone finished it.
 */
export const CAMPAIGN_STOP_REASONS = ['budget', 'ended', 'completed', 'manual'] as const;
export type CampaignStopReason = (typeof CAMPAIGN_STOP_REASONS)[number];

/**
 * The moves POST /campaigns/{id}/status allows, from each status. `approve` marks the moves only an
 * admin or dev makes: a campaign goes live (or back live) once the operator has looked at it.
 */
export const CAMPAIGN_MOVES: Readonly<Record<CampaignStatus, readonly CampaignStatus[]>> = {
  draft: ['pending', 'finished'],
  pending: ['draft', 'active', 'finished'],
  active: ['paused', 'finished'],
  paused: ['active', 'finished'],
  finished: [],
};

/** Moves only an admin or dev makes (`campaign.approve`). */
export const APPROVED_MOVES: readonly `${CampaignStatus}>${CampaignStatus}`[] = ['pending>active'];

/** The statuses in which a client may still change their campaign's terms. */
export const CLIENT_EDITABLE: readonly CampaignStatus[] = ['draft', 'pending', 'paused'];

/** The statuses a campaign may be deleted in (its messages, once any are sent, are the report). */
export const DELETABLE: readonly CampaignStatus[] = ['draft', 'pending'];

export const CAMPAIGN_TEXTS = {
  notFound: 'Campaign not found.',
  notClient: 'client_id must be a user with the client role.',
  clientIdNeeded: 'client_id is required: the client the campaign is for.',
  badMove: (from: CampaignStatus, to: CampaignStatus) => `A ${from} campaign cannot become ${to}.`,
  notEditable: (status: CampaignStatus) => `A ${status} campaign cannot be changed; pause it first.`,
  finished: 'A finished campaign cannot be changed.',
  notDeletable: (status: CampaignStatus) => `A ${status} campaign cannot be deleted; finish it instead.`,
  endBeforeStart: 'end_at must be after start_at.',
  endPassed: 'end_at has passed.',
  windowHalf: 'Give both window_start and window_end, or neither.',
  deleted: 'Campaign deleted.',
} as const;

const isoTime = (label: string) =>
  z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .string({ error: `${label} must be a date and time (ISO 8601).` })
      .trim()
      .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), {
        error: `${label} must be a date and time (ISO 8601).`,
      })
      .transform((v) => new Date(v).toISOString())
      .nullable(),
  );

/** The fields a campaign is made of; every one but `name` may be left out. */
const terms = {
  start_at: isoTime('start_at').optional(),
  end_at: isoTime('end_at').optional(),
  window_start: clock('window_start').nullable().optional(),
  window_end: clock('window_end').nullable().optional(),
  budget_messages: wholeNumber('budget_messages', 1, 100_000_000).nullable().optional(),
  budget_amount: wholeNumber('budget_amount', 1, 1_000_000_000_000).nullable().optional(),
  /** admin and dev only (`campaign.price`) */
  price_per_delivered: wholeNumber('price_per_delivered', 0, 1_000_000).optional(),
  /** admin and dev only (`campaign.price`): higher goes first */
  priority: wholeNumber('priority', -1000, 1000).optional(),
};

/** Both window ends or neither; an end after the start. */
function consistent(b: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const ws = b.window_start;
  const we = b.window_end;
  if ((ws === undefined) !== (we === undefined) || (ws === null) !== (we === null)) {
    ctx.addIssue({ code: 'custom', path: ['window_start'], message: CAMPAIGN_TEXTS.windowHalf });
  }
  if (typeof b.start_at === 'string' && typeof b.end_at === 'string' && b.end_at <= b.start_at) {
    ctx.addIssue({ code: 'custom', path: ['end_at'], message: CAMPAIGN_TEXTS.endBeforeStart });
  }
}

/** POST /api/admin/campaigns: a client's own (no client_id), or an admin's or dev's for a client. */
export const createCampaignBody = z
  .object({
    name: requiredText('Name is required.', 120),
    client_id: idField('client_id').optional(),
    ...terms,
  })
  .superRefine(consistent);

/** PUT /api/admin/campaigns/{id}: any of the fields. */
export const updateCampaignBody = z
  .object({ name: requiredText('Name is required.', 120).optional(), ...terms })
  .superRefine(consistent)
  .refine((b) => Object.values(b).some((v) => v !== undefined), { error: 'Nothing to update.' });

/** POST /api/admin/campaigns/{id}/status */
export const campaignStatusBody = z.object({
  status: z.enum(CAMPAIGN_STATUSES, { error: `status must be one of ${CAMPAIGN_STATUSES.join(', ')}.` }),
});

/** GET /api/admin/campaigns: paged, newest first; admins and devs may narrow to one client or status. */
export const campaignListQuery = pageQuery.extend({
  status: z.enum(CAMPAIGN_STATUSES, { error: `status must be one of ${CAMPAIGN_STATUSES.join(', ')}.` }).optional(),
  client_id: idField('client_id').optional(),
});

export type CreateCampaignBody = z.infer<typeof createCampaignBody>;
export type UpdateCampaignBody = z.infer<typeof updateCampaignBody>;
export type CampaignListQuery = z.infer<typeof campaignListQuery>;

/** A campaign as every route answers it. */
export const campaignDto = z.object({
  id: z.number().int(),
  name: z.string(),
  client_id: z.number().int(),
  client_name: z.string().describe("the client's first and last name"),
  status: z.enum(CAMPAIGN_STATUSES),
  stop_reason: z.enum(CAMPAIGN_STOP_REASONS).nullable().describe('why a finished campaign stopped'),
  priority: z.number().int(),
  start_at: z.string().nullable().describe('ISO time; null: as soon as it is active'),
  end_at: z.string().nullable().describe('ISO time; null: until its targets or budget run out'),
  window_start: z.string().nullable().describe("'HH:MM' in the app's timezone, inside the settings' window"),
  window_end: z.string().nullable(),
  budget_messages: z.number().int().nullable(),
  budget_amount: z.number().int().nullable().describe('rupiah'),
  price_per_delivered: z.number().int().describe('rupiah per delivered message'),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  failed: z.number().int(),
  replied: z.number().int(),
  optout: z.number().int(),
  spent: z.number().int().describe('rupiah: the delivered messages at the price'),
  unknown: z
    .number()
    .int()
    .describe('sends a worker lost mid-way: they may have left, so they count against the budget, unpaid'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CampaignDto = z.infer<typeof campaignDto>;

export const campaignResponse = z.object({ data: campaignDto });
export const campaignList = pagedOf(campaignDto);
export const deletedCampaign = z.object({ id: z.number().int(), msg: z.string() });

/** GET /api/admin/campaigns/clients (admin, dev): the users with the client role, for a new campaign. */
export const campaignClientList = z.object({
  data: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
});
