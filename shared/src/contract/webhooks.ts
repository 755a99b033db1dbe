import { z } from 'zod';
import { BLAST_END_REASONS } from '../realtime';
import { CAMPAIGN_STOP_REASONS, campaignDto } from './campaigns';

/**
 * Webhooks (issue 13): a user registers an HTTP endpoint for some event types and the server POSTs
 * each such event to it, signed with the endpoint's secret. Admins and devs hear every user's
 * events and may name any address (a self-hosted operator's own network); every other role hears
 * only its own accounts' and withdrawals' events, at a public HTTPS address.
 */

/** Every event type a webhook may subscribe to; the names are a contract with other software. */
export const WEBHOOK_EVENTS = [
  'account.state',
  'account.suspended',
  'blast.started',
  'blast.finished',
  'message.sent',
  'message.delivered',
  'message.read',
  'message.failed',
  'optout',
  'withdraw.status',
  'campaign.started',
  'campaign.progress',
  'campaign.finished',
  'message.replied',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * The events about a campaign (issue 22): told to its client (and to admins and devs). A client's
 * endpoints take only these, a member's none of them (a member hears their accounts' events).
 */
export const CAMPAIGN_WEBHOOK_EVENTS = [
  'campaign.started',
  'campaign.progress',
  'campaign.finished',
  'message.replied',
] as const satisfies readonly WebhookEvent[];

/** Endpoints one user may register. */
export const WEBHOOK_CAP = 10;

/** Deliveries an endpoint's list shows (the most recent). */
export const WEBHOOK_DELIVERIES_SHOWN = 50;

/** The headers of every delivery. */
export const WEBHOOK_HEADERS = {
  event: 'X-WA-Event',
  timestamp: 'X-WA-Timestamp',
  signature: 'X-WA-Signature',
  delivery: 'X-WA-Delivery',
} as const;

const url = z
  .string({ error: 'url is required.' })
  .trim()
  .min(1, { error: 'url is required.' })
  .max(2000, { error: 'url must be at most 2000 characters.' });

const events = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `events must be some of: ${WEBHOOK_EVENTS.join(', ')}.` }), {
    error: 'events must be a list of event names.',
  })
  .min(1, { error: 'Choose at least one event.' })
  .transform((list) => [...new Set(list)]);

const description = z
  .string({ error: 'description must be text.' })
  .trim()
  .max(200, { error: 'description must be at most 200 characters.' });

/** POST /api/admin/webhooks */
export const createWebhookBody = z.object({
  url,
  events,
  description: description.optional(),
});

/** PUT /api/admin/webhooks/{id}: any of the fields; `active: false` pauses deliveries. */
export const updateWebhookBody = z
  .object({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    active: z.boolean({ error: 'active must be true or false.' }).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { error: 'Nothing to update.' });

export type CreateWebhookBody = z.infer<typeof createWebhookBody>;
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** An endpoint as listed: never its secret. */
export const webhookDto = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  active: z.boolean(),
  created_at: z.string().describe('ISO time'),
  updated_at: z.string().describe('ISO time'),
  last_status: z.enum(WEBHOOK_DELIVERY_STATUSES).nullable().describe("the latest delivery's status (null: none yet)"),
  last_delivery_at: z.string().nullable().describe("the latest delivery's time (null: none yet)"),
});
export type WebhookDto = z.infer<typeof webhookDto>;

/** The answer to POST: the endpoint and its signing secret, shown this once. */
export const createdWebhook = webhookDto.extend({
  secret: z.string().describe('the signing secret of X-WA-Signature, shown this once'),
});
export type CreatedWebhook = z.infer<typeof createdWebhook>;

/** One delivery of an event to an endpoint (a resend is a new delivery of the same event id). */
export const webhookDeliveryDto = z.object({
  id: z.number().int(),
  event: z.enum(WEBHOOK_EVENTS),
  event_id: z.string().describe("the event's id, the same in every delivery of it (a receiver de-duplicates by it)"),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  response_status: z.number().int().nullable().describe('the HTTP status of the last attempt (null: no answer)'),
  error: z.string().nullable().describe('why the last attempt failed'),
  created_at: z.string().describe('ISO time'),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  body: z.string().describe('the JSON body as it is sent (and signed)'),
});
export type WebhookDeliveryDto = z.infer<typeof webhookDeliveryDto>;

/** GET /api/admin/webhooks */
export const webhookList = z.object({ data: z.array(webhookDto) });

/** GET /api/admin/webhooks/{id}/deliveries: the latest WEBHOOK_DELIVERIES_SHOWN, newest first. */
export const webhookDeliveryList = z.object({ data: z.array(webhookDeliveryDto) });

/** DELETE /api/admin/webhooks/{id} */
export const deletedWebhook = z.object({ id: z.number().int(), deleted: z.literal(true) });

/** POST /api/admin/webhooks/{id}/deliveries/{deliveryId}/resend (202): the new delivery's id. */
export const resentDelivery = z.object({
  id: z.number().int().describe("the new delivery's id"),
  resend_of: z.number().int().describe('the delivery it sends again'),
});

/** What every delivery's JSON body holds. */
export interface WebhookBody<D = Record<string, unknown>> {
  id: string;
  event: WebhookEvent;
  /** ISO time the event happened */
  created_at: string;
  data: D;
}

export const WEBHOOK_TEXTS = {
  cap: (n: number) => `You already have ${n} webhooks. Delete one to add another.`,
  notFound: 'Webhook not found.',
  deliveryNotFound: 'Delivery not found.',
  badUrl: 'url must be a valid http:// or https:// address.',
  httpsOnly: 'url must be an https:// address.',
  noCredentials: 'url must not contain a user name or password.',
  notPublic: 'url must point to a public internet address.',
  unresolvable: (host: string) => `The host ${host} could not be resolved.`,
  clientEvents: `A client's webhooks take only campaign events: ${CAMPAIGN_WEBHOOK_EVENTS.join(', ')}.`,
  memberEvents: `Campaign events (${CAMPAIGN_WEBHOOK_EVENTS.join(', ')}) are for clients, admins and devs.`,
} as const;

// ---- what each event's `data` holds (documented in the OpenAPI document's `webhooks`) --------------

/** The account an account, blast or message event is about. */
const accountRef = {
  user_id: z.number().int().describe("the account's owner"),
  account_id: z.number().int(),
  device_id: z.string().describe("the account's clientid"),
  phone: z.string().nullable().describe('the account’s own number, once known'),
};

const at = z.string().describe('ISO time');

/** A campaign event's data (issue 22): the campaign and its figures now; never a member's identity. */
const campaignFigures = {
  campaign_id: z.number().int(),
  client_id: z.number().int().describe('the advertiser'),
  name: z.string(),
  ...campaignDto.pick({
    sent: true,
    delivered: true,
    read: true,
    failed: true,
    replied: true,
    optout: true,
    spent: true,
  }).shape,
};

export const WEBHOOK_EVENT_DATA = {
  'account.state': z.object({
    ...accountRef,
    state: z.string().describe('the account’s WhatsApp state: connected, disconnected, loggedOut, conflict…'),
    message: z.string().optional(),
  }),
  'account.suspended': z.object({
    ...accountRef,
    kind: z
      .enum(['suspended', 'paused'])
      .describe('suspended (WhatsApp or rule #1), or paused by the ban-signal rules'),
    suspended_count: z.number().int().optional(),
    paused_until: at.nullable().optional(),
    reason: z.string().nullable().optional(),
  }),
  'blast.started': z.object({
    ...accountRef,
    start_at: at
      .nullable()
      .describe('when a scheduled blast will start (it was scheduled now, not started); null: it starts now'),
  }),
  'blast.finished': z.object({
    ...accountRef,
    reason: z
      .enum(BLAST_END_REASONS)
      .describe(
        'why the run ended: through its targets, stopped, an error, paused (ban signals), suspended, daily_cap (the account reached its daily cap), send_window (the send window closed)',
      ),
    message: z.string(),
  }),
  'message.sent': z.object({
    ...accountRef,
    message_id: z.string().nullable().describe('WhatsApp’s id of the message'),
    target: z.string().describe('the number it was sent to'),
    target_id: z.number().int().nullable(),
    template_id: z.number().int().nullable(),
    fee: z.number().int().describe('the fee the member earns for it (0 while payout waits for delivery)'),
  }),
  'message.delivered': z.object({ ...accountRef, message_id: z.string(), target: z.string(), at }),
  'message.read': z.object({ ...accountRef, message_id: z.string(), target: z.string(), at }),
  'message.failed': z.object({
    ...accountRef,
    message_id: z.string().nullable(),
    target: z.string(),
    target_id: z.number().int().nullable(),
    error: z.string().describe('why: the send failed, or WhatsApp reported it undeliverable after accepting it'),
  }),
  optout: z.object({
    ...accountRef,
    target: z.string().describe('the number that asked to stop'),
    target_id: z.number().int().nullable(),
  }),
  'withdraw.status': z.object({
    user_id: z.number().int(),
    withdraw_id: z.number().int(),
    amount: z.number().int(),
    status: z.string().describe('the request’s new status'),
  }),
  'campaign.started': z.object(campaignFigures),
  'campaign.progress': z.object(campaignFigures),
  'campaign.finished': z.object({
    ...campaignFigures,
    reason: z
      .enum(CAMPAIGN_STOP_REASONS)
      .describe('why it finished: budget, ended, completed (every target messaged), manual'),
  }),
  'message.replied': z.object({
    campaign_id: z.number().int(),
    client_id: z.number().int(),
    reply_id: z.number().int(),
    target: z.string().describe('the number that replied'),
    variant_id: z.number().int().nullable().describe('the variant its message was sent with'),
    text: z.string(),
    at,
  }),
} satisfies Record<WebhookEvent, z.ZodType>;

export type WebhookEventData = { [E in WebhookEvent]: z.infer<(typeof WEBHOOK_EVENT_DATA)[E]> };

/** The largest bigserial PostgreSQL hands out (webhook_deliveries.id). */
const BIGSERIAL_MAX = 9_223_372_036_854_775_807n;

/**
 * A delivery id in a path: any positive bigint up to BIGSERIAL_MAX, kept as its decimal text (a
 * JavaScript number is not exact past 2^53); the path's int `idParam` would refuse ids past 2^31−1.
 */
export const deliveryIdParam = z.string({ error: 'deliveryId must be a number' }).transform((v, ctx) => {
  if (!/^\d{1,25}$/.test(v)) {
    ctx.addIssue({ code: 'custom', message: 'deliveryId must be a positive whole number' });
    return z.NEVER;
  }
  const n = BigInt(v);
  if (n < 1n) ctx.addIssue({ code: 'custom', message: 'deliveryId must be a positive whole number' });
  else if (n > BIGSERIAL_MAX) ctx.addIssue({ code: 'custom', message: 'deliveryId is too large' });
  return n.toString();
});
