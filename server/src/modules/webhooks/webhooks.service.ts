import { randomBytes } from 'node:crypto';
import type { Actor } from '@wa/core/actor';
import { AppError, badRequest, notFound } from '@wa/core/errors';
import { WEBHOOK_JOB } from '@wa/core/jobs/names';
import type { JobQueue } from '@wa/core/jobs/queue';
import { assertCan, canForAnyone } from '@wa/core/policy';
import { AttemptLimiter } from '@wa/core/rate-limit';
import type { EventBus } from '@wa/core/realtime/bus';
import { assertWebhookUrl } from '@wa/core/webhooks/address';
import {
  deliveryJobId,
  fullEndpoints,
  insertDeliveries,
  WEBHOOK_BACKLOG_CAP,
  WEBHOOKS_CHANGED_CHANNEL,
} from '@wa/core/webhooks/webhooks';
import {
  CAMPAIGN_WEBHOOK_EVENTS,
  type CreatedWebhook,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  WEBHOOK_CAP,
  WEBHOOK_DELIVERIES_SHOWN,
  WEBHOOK_TEXTS,
  type WebhookDeliveryDto,
  type WebhookDto,
  type WebhookEvent,
} from '@wa/shared';
import { type Transaction, transaction } from '../transaction';
import { WebhooksRepo } from './webhooks.repo';

/** Creates, changes and resends one user may make a minute (each one checks an address or queues a post). */
export const WEBHOOK_WRITES_PER_MINUTE = 30;

/** The refusals of this module that the shared WEBHOOK_TEXTS do not hold. */
export const WEBHOOK_LIMIT_TEXTS = {
  tooManyWrites: (s: number) => `Too many webhook changes. Please try again in ${s} seconds.`,
  backlogFull: (n: number) =>
    `Not resent: ${n} deliveries are already waiting for this webhook. Resend once they have been sent.`,
} as const;

/** A 429 for too many writes, with the seconds to wait (the routes send them as Retry-After). */
export class TooManyWebhookWrites extends AppError {
  constructor(readonly retryAfterS: number) {
    super(429, WEBHOOK_LIMIT_TEXTS.tooManyWrites(retryAfterS));
  }
}

/**
 * The events a role's endpoint may take: a client's only its campaigns' (it has no account), a
 * member's none of the campaigns' (they are told to the client); admins and devs any.
 */
function assertEventsFor(actor: Actor, events: readonly WebhookEvent[]): void {
  const campaign = (e: WebhookEvent) => (CAMPAIGN_WEBHOOK_EVENTS as readonly WebhookEvent[]).includes(e);
  if (actor.role === 'client' && !events.every(campaign)) throw badRequest(WEBHOOK_TEXTS.clientEvents);
  if (actor.role === 'member' && events.some(campaign)) throw badRequest(WEBHOOK_TEXTS.memberEvents);
}

/**
 * A user's webhook endpoints (issue 13), made, changed and deleted by their owner (in a dashboard
 * session or with an API key that is not read-only); staff have none. Admins and devs may point one
 * anywhere and hear every user's events; members only at a public https:// address, for their own
 * events (the address is checked here and again at every delivery). Each user may create, change
 * and resend WEBHOOK_WRITES_PER_MINUTE times a minute (per API process).
 */
export class WebhooksService {
  private readonly writes = new AttemptLimiter(WEBHOOK_WRITES_PER_MINUTE, 60_000);
  private readonly tx: Transaction<WebhooksRepo>;

  constructor(
    private readonly repo: WebhooksRepo,
    private readonly queue: JobQueue,
    private readonly bus: EventBus,
  ) {
    this.tx = transaction(repo.db, (db) => new WebhooksRepo(db));
  }

  async create(actor: Actor, b: CreateWebhookBody): Promise<CreatedWebhook> {
    this.write(actor);
    assertEventsFor(actor, b.events);
    const url = await assertWebhookUrl(b.url, canForAnyone(actor, 'webhook.manage'));
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const made = await this.tx(async (repo) => {
      await repo.lockEndpoints(actor.id);
      return repo.insert({
        userId: actor.id,
        url: url.toString(),
        events: b.events,
        description: b.description ?? '',
        secret,
        cap: WEBHOOK_CAP,
      });
    });
    if (!made) throw new AppError(409, WEBHOOK_TEXTS.cap(WEBHOOK_CAP));
    await this.changed();
    return { ...made, secret };
  }

  list(actor: Actor): Promise<WebhookDto[]> {
    assertCan(actor, 'webhook.manage');
    return this.repo.list(actor.id);
  }

  async update(actor: Actor, id: number, b: UpdateWebhookBody): Promise<WebhookDto> {
    this.write(actor);
    if (b.events) assertEventsFor(actor, b.events);
    const url =
      b.url === undefined
        ? undefined
        : (await assertWebhookUrl(b.url, canForAnyone(actor, 'webhook.manage'))).toString();
    if (!(await this.repo.update(actor.id, id, { ...b, url }))) throw notFound(WEBHOOK_TEXTS.notFound);
    await this.changed();
    return this.mine(actor, id);
  }

  async remove(actor: Actor, id: number): Promise<{ id: number; deleted: true }> {
    assertCan(actor, 'webhook.manage');
    if (!(await this.repo.remove(actor.id, id))) throw notFound(WEBHOOK_TEXTS.notFound);
    await this.changed();
    return { id, deleted: true };
  }

  async deliveries(actor: Actor, id: number): Promise<WebhookDeliveryDto[]> {
    await this.mine(actor, id);
    return this.repo.deliveries(id, WEBHOOK_DELIVERIES_SHOWN);
  }

  /**
   * Sends a delivery's event again, as a new delivery with the same event id and body; refused
   * (429) while the endpoint has WEBHOOK_BACKLOG_CAP deliveries waiting, as its new events are.
   * `deliveryId` is a bigint as text.
   */
  async resend(actor: Actor, id: number, deliveryId: string): Promise<{ id: number; resend_of: number }> {
    this.write(actor);
    await this.mine(actor, id);
    const d = await this.repo.delivery(actor.id, id, deliveryId);
    if (!d) throw notFound(WEBHOOK_TEXTS.deliveryNotFound);
    if ((await fullEndpoints(this.repo.db, [id], WEBHOOK_BACKLOG_CAP)).has(id)) {
      throw new AppError(429, WEBHOOK_LIMIT_TEXTS.backlogFull(WEBHOOK_BACKLOG_CAP));
    }
    const [made] = await insertDeliveries(this.repo.db, [
      { endpoint_id: id, event: d.event, event_id: d.event_id, body: d.body, resend_of: d.id },
    ]);
    if (made === undefined) throw notFound(WEBHOOK_TEXTS.notFound);
    // the row is the truth: should the queue refuse it now, the engines' sweep queues it within minutes
    await this.queue.add(WEBHOOK_JOB, { deliveryId: made }, { jobId: deliveryJobId(made, 0) }).catch(() => {});
    return { id: made, resend_of: d.id };
  }

  /**
   * The checks of every write: the role first (staff get their 403, not a 429), then the user's
   * budget of WEBHOOK_WRITES_PER_MINUTE, counted per attempt (a refused one counts too).
   */
  private write(actor: Actor): void {
    assertCan(actor, 'webhook.manage');
    const key = String(actor.id);
    const wait = this.writes.retryAfter(key);
    if (wait) throw new TooManyWebhookWrites(wait);
    this.writes.hit(key);
  }

  private async mine(actor: Actor, id: number): Promise<WebhookDto> {
    assertCan(actor, 'webhook.manage');
    const found = await this.repo.get(actor.id, id);
    if (!found) throw notFound(WEBHOOK_TEXTS.notFound);
    return found;
  }

  /** Every process reads the endpoints again before its next event. */
  private changed(): Promise<void> {
    return this.bus.publish(WEBHOOKS_CHANGED_CHANNEL, { at: Date.now() });
  }
}
