import { randomBytes } from 'node:crypto';
import type { Actor } from '@wa/core/actor';
import { AppError, notFound } from '@wa/core/errors';
import { WEBHOOK_JOB } from '@wa/core/jobs/names';
import type { JobQueue } from '@wa/core/jobs/queue';
import { assertCan, canForAnyone } from '@wa/core/policy';
import type { EventBus } from '@wa/core/realtime/bus';
import { assertWebhookUrl } from '@wa/core/webhooks/address';
import { deliveryJobId, insertDeliveries, WEBHOOKS_CHANGED_CHANNEL } from '@wa/core/webhooks/webhooks';
import {
  type CreatedWebhook,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  WEBHOOK_CAP,
  WEBHOOK_DELIVERIES_SHOWN,
  WEBHOOK_TEXTS,
  type WebhookDeliveryDto,
  type WebhookDto,
} from '@wa/shared';
import type { WebhooksRepo } from './webhooks.repo';

/**
 * A user's webhook endpoints (issue 13), made, changed and deleted by their owner (in a dashboard
 * session or with an API key that is not read-only). Admins and devs may point one anywhere and hear
 * every user's events; everyone else only at a public https:// address, for their own events (the
 * address is checked here and again at every delivery).
 */
export class WebhooksService {
  constructor(
    private readonly repo: WebhooksRepo,
    private readonly queue: JobQueue,
    private readonly bus: EventBus,
  ) {}

  async create(actor: Actor, b: CreateWebhookBody): Promise<CreatedWebhook> {
    assertCan(actor, 'webhook.manage');
    const url = await assertWebhookUrl(b.url, canForAnyone(actor, 'webhook.manage'));
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const made = await this.repo.insert({
      userId: actor.id,
      url: url.toString(),
      events: b.events,
      description: b.description ?? '',
      secret,
      cap: WEBHOOK_CAP,
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
    assertCan(actor, 'webhook.manage');
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

  /** Sends a delivery's event again, as a new delivery with the same event id and body. */
  async resend(actor: Actor, id: number, deliveryId: number): Promise<{ id: number; resend_of: number }> {
    await this.mine(actor, id);
    const d = await this.repo.delivery(actor.id, id, deliveryId);
    if (!d) throw notFound(WEBHOOK_TEXTS.deliveryNotFound);
    const [made] = await insertDeliveries(this.repo.db, [{ endpoint_id: id, ...d, resend_of: deliveryId }]);
    if (made === undefined) throw notFound(WEBHOOK_TEXTS.notFound);
    // the row is the truth: should the queue refuse it now, the engines' sweep queues it within minutes
    await this.queue.add(WEBHOOK_JOB, { deliveryId: made }, { jobId: deliveryJobId(made, 0) }).catch(() => {});
    return { id: made, resend_of: deliveryId };
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
