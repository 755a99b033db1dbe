import { z } from 'zod';
import { ACTIVE_STATUSES } from '../constants';
import { wholeNumber } from './common';
import { templateButtonDto, templateFields } from './templates';

/**
 * A campaign's message variants (issue 22): message templates of that campaign, made with the same
 * form as the default pool's (POST /admin/message/create) plus a weight. The blast sends a
 * campaign's active, approved variants, each in proportion to its weight. A variant an admin or dev
 * makes is approved as it is made; a client's waits for their approval. The template screens
 * (/admin/message/…) never show a variant.
 */

/** A variant's weight: its share of the campaign's messages, relative to the others'. */
export const CAMPAIGN_TEMPLATE_WEIGHT = { min: 1, max: 1000, fallback: 1 } as const;

/** At most this many variants a campaign: a client makes them, each with up to 16 MB of media. */
export const CAMPAIGN_TEMPLATES_MAX = 50;

export const CAMPAIGN_TEMPLATE_TEXTS = {
  notFound: 'Variant not found.',
  tooMany: `A campaign has at most ${CAMPAIGN_TEMPLATES_MAX} variants.`,
  saved: 'Variant saved.',
  awaitingApproval: 'Variant saved; it is sent once an admin or dev approves it.',
  approved: 'Variant approved.',
  updated: 'Variant updated.',
  deleted: 'Variant deleted.',
  nothingToUpdate: 'Nothing to update: give weight or status.',
} as const;

const weight = wholeNumber('weight', CAMPAIGN_TEMPLATE_WEIGHT.min, CAMPAIGN_TEMPLATE_WEIGHT.max);
const status = z.enum(ACTIVE_STATUSES, { error: 'Status must be active or nonactive.' });

/**
 * The multipart fields of POST /admin/campaigns/{id}/templates: a template's (text, button,
 * status; text_wa follows from the text) and `weight`, 1 when left out (the file comes apart).
 */
export const campaignTemplateFields = templateFields.extend({
  weight: z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? CAMPAIGN_TEMPLATE_WEIGHT.fallback : v),
    weight,
  ),
});

/** PUT /admin/campaigns/{id}/templates/{templateId}: the weight, the status or both; the approval stays. */
export const updateCampaignTemplateBody = z
  .object({ weight: weight.optional(), status: status.optional() })
  .refine((b) => b.weight !== undefined || b.status !== undefined, { error: CAMPAIGN_TEMPLATE_TEXTS.nothingToUpdate });

export type CampaignTemplateFields = z.output<typeof campaignTemplateFields>;
export type UpdateCampaignTemplateBody = z.output<typeof updateCampaignTemplateBody>;

/** A campaign's variant as every route answers it. */
export const campaignTemplateDto = z.object({
  id: z.number().int(),
  campaign_id: z.number().int(),
  media: z.string().nullable().describe("the medium's URL"),
  text: z.string().describe('the caption (sanitised HTML)'),
  text_wa: z.string().describe('the text sent on WhatsApp (spintax and {name} allowed)'),
  button: z.array(templateButtonDto),
  status: z.enum(ACTIVE_STATUSES),
  weight: z.number().int().describe("its share of the campaign's messages, relative to the other variants'"),
  approved: z.boolean().describe('sent only once approved by an admin or dev'),
  approved_at: z.string().nullable().describe('ISO time of the approval'),
});
export type CampaignTemplateDto = z.infer<typeof campaignTemplateDto>;

/** GET /admin/campaigns/{id}/templates: every variant, oldest first (there are few). */
export const campaignTemplateList = z.object({ data: z.array(campaignTemplateDto) });

/** POST …/templates (201), PUT …/templates/{templateId} and POST …/approve: the variant as it is now. */
export const savedCampaignTemplate = z.object({ data: campaignTemplateDto, msg: z.string() });
