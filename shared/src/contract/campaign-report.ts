import { z } from 'zod';
import { campaignDto } from './campaigns';
import { pagedOf, pageQuery, wholeNumber } from './common';

/**
 * What a campaign proves to its advertiser (issue 22): its report per day and variant, its replies,
 * its leads, and the top-ups that paid for it. Nothing here names a member or their account.
 */

/** One day and variant of a campaign's report: each message counts on the day it was sent. */
export const campaignReportRow = z.object({
  day: z.string().describe("YYYY-MM-DD in the app's timezone: the day the messages were sent"),
  variant_id: z.number().int().nullable().describe('the variant sent (null: not known, a send a worker lost)'),
  sent: z.number().int().describe('messages WhatsApp accepted (delivered and read ones included)'),
  delivered: z.number().int().describe('delivered to the phone (read ones included)'),
  read: z.number().int(),
  failed: z.number().int(),
  unknown: z.number().int().describe('sends a worker lost mid-way: they may have left, and count against the budget'),
  replied: z.number().int().describe('targets that answered these messages'),
  optout: z.number().int().describe('targets that opted out in their answer'),
  cost: z.number().int().describe("rupiah the advertiser owes: the delivered messages at the campaign's price"),
  fees: z
    .number()
    .int()
    .nullable()
    .describe("rupiah paid to the members and their referrers for these messages (null for a client: the operator's)"),
  margin: z.number().int().nullable().describe("the operator's: cost − fees (null for a client)"),
});
export type CampaignReportRow = z.infer<typeof campaignReportRow>;

const totals = campaignReportRow.omit({ day: true, variant_id: true });
export type CampaignReportTotals = z.infer<typeof totals>;

/** GET /api/admin/campaigns/{id}/report */
export const campaignReport = z.object({
  rows: z.array(campaignReportRow).describe('per day (oldest first) and variant'),
  totals,
});
export type CampaignReport = z.infer<typeof campaignReport>;

/** The report export's columns, in order (a client's export leaves out `CAMPAIGN_OPERATOR_COLUMNS`). */
export const CAMPAIGN_REPORT_COLUMNS = [
  'day',
  'variant_id',
  'sent',
  'delivered',
  'read',
  'failed',
  'unknown',
  'replied',
  'optout',
  'cost',
  'fees',
  'margin',
] as const satisfies readonly (keyof CampaignReportRow)[];

/** The report's columns that are the operator's business: a client's report and export have none. */
export const CAMPAIGN_OPERATOR_COLUMNS = ['fees', 'margin'] as const satisfies readonly (keyof CampaignReportRow)[];

/** A reply to a campaign's message, as its advertiser sees it: the number and what it said. */
export const campaignReplyDto = z.object({
  id: z.number().int(),
  target: z.string().describe('the number that replied'),
  name: z.string().describe("the target's name in the campaign's list"),
  text: z.string(),
  optout: z.boolean().describe('the reply opted the number out'),
  variant_id: z.number().int().nullable().describe('the variant the answered message was sent with'),
  at: z.string().describe('ISO time'),
});
export type CampaignReplyDto = z.infer<typeof campaignReplyDto>;

/** GET /api/admin/campaigns/{id}/replies: newest first. */
export const campaignReplyQuery = pageQuery.pick({ page: true });
export const campaignReplyList = pagedOf(campaignReplyDto);

/** GET /api/admin/campaigns/{id}/leads/export: the numbers that replied and did not opt out. */
export const CAMPAIGN_LEAD_COLUMNS = [
  'number',
  'name',
  'replies',
  'first_reply',
  'last_reply_at',
  'variant_id',
] as const;

/** POST /api/admin/campaigns/{id}/topups (admin and dev) */
export const campaignTopupBody = z.object({
  amount: wholeNumber('amount', 1, 1_000_000_000_000),
  note: z
    .string({ error: 'note must be text.' })
    .trim()
    .max(200, { error: 'note must be at most 200 characters.' })
    .refine((v) => !v.includes('\u0000'), { error: 'note must not contain a NUL character.' })
    .optional(),
});
export type CampaignTopupBody = z.infer<typeof campaignTopupBody>;

export const campaignTopupDto = z.object({
  id: z.number().int(),
  amount: z.number().int().describe('rupiah'),
  note: z.string(),
  created_at: z.string().describe('ISO time'),
});
export type CampaignTopupDto = z.infer<typeof campaignTopupDto>;

/** GET /api/admin/campaigns/{id}/topups: newest first, and what they add up to. */
export const campaignTopupList = z.object({
  data: z.array(campaignTopupDto),
  total: z.number().int().describe('rupiah: every top-up together'),
});

/** POST /api/admin/campaigns/{id}/topups (201): the campaign with its new budget, and the top-up. */
export const campaignTopupResult = z.object({ data: campaignDto, topup: campaignTopupDto, msg: z.string() });

export const CAMPAIGN_TOPUP_TEXTS = {
  recorded: 'Top-up recorded.',
  finished: 'A campaign finished for another reason than its budget takes no top-up.',
} as const;
