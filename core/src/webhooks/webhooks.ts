import { randomUUID } from 'node:crypto';
import type { WebhookBody, WebhookEvent, WebhookEventData } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { type Db, rows } from '../db/client';
import { WEBHOOK_JOB } from '../jobs/names';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from '../logger';
import type { EventBus } from '../realtime/bus';

/** Told on the bus when an endpoint is added, changed or deleted: every process reads them again. */
export const WEBHOOKS_CHANGED_CHANNEL = 'webhooks:changed';

/** Endpoints are read again after this long even without a change on the bus (a lost message). */
const DIRECTORY_TTL_MS = 5000;

/**
 * Deliveries one endpoint may have waiting: past it, its new events are recorded as failed at once
 * (nothing queued), so an endpoint that is down or slow cannot pile up work without end.
 */
export const WEBHOOK_BACKLOG_CAP = 10_000;

/** Events wait this long to be written together (one statement for a blast's burst of messages). */
const FLUSH_MS = 50;
const FLUSH_MAX = 500;

/** The job id of a delivery's attempt: one job per attempt, so a retry is never taken for a duplicate. */
export const deliveryJobId = (deliveryId: number, attempt: number | string) => `wh-${deliveryId}-${attempt}`;

/** Where an event goes: to its owner's endpoints, and to every admin's and dev's. */
export interface WebhookEmitter {
  /**
   * Records an event for the endpoints that subscribe to it, soon and together with others
   * (never throws, never waits: the blast loop calls it per message). `ownerId` is the user whose
   * account or withdrawal it is about.
   */
  emit<E extends WebhookEvent>(event: E, ownerId: number, data: WebhookEventData[E]): void;
  /** writes what is waiting now (tests, and before a process stops) */
  flush(): Promise<void>;
}

/** No webhooks (a test that does not care, a tool that emits nothing). */
export const NO_WEBHOOKS: WebhookEmitter = { emit() {}, flush: async () => {} };

interface Endpoint {
  id: number;
  userId: number;
  events: Set<string>;
  /** an admin's or dev's endpoint hears every user's events */
  everyone: boolean;
  /** when it was made (ms): it hears only events that happened after */
  since: number;
}

interface Waiting {
  event: WebhookEvent;
  ownerId: number;
  body: string;
  eventId: string;
  /** when it happened (ms) */
  at: number;
}

/** Whether an endpoint hears an event of `ownerId`'s. */
export function hears(e: Endpoint, event: WebhookEvent, ownerId: number): boolean {
  return e.events.has(event) && (e.everyone || e.userId === ownerId);
}

/**
 * The webhooks of one process: events are matched against the active endpoints (kept in memory,
 * read again when one changes anywhere or after DIRECTORY_TTL_MS), written as delivery rows, many
 * in one statement, and each delivery is queued as a job (`webhook.deliver`) that posts it. With no
 * endpoint for an event, an event costs a lookup in memory and nothing else. The delivery row is
 * the truth: a job lost with a process is queued again by the sweep (`requeueOverdue`). An event
 * still waiting here when the process dies is lost (at most FLUSH_MS of events).
 */
export class Webhooks implements WebhookEmitter {
  private endpoints: Endpoint[] | null = null;
  private readAt = 0;
  private waiting: Waiting[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      queue: JobQueue;
      log: Logger;
      bus?: EventBus;
      ttlMs?: number;
      /** WEBHOOK_BACKLOG_CAP unless a test lowers it */
      backlogCap?: number;
    },
  ) {}

  /** Listens for endpoint changes made by any process. */
  async listen(): Promise<void> {
    if (!this.deps.bus || this.unsubscribe) return;
    this.unsubscribe = await this.deps.bus.subscribe(WEBHOOKS_CHANGED_CHANNEL, () => this.invalidate());
  }

  /** The endpoints changed: read them again before the next event. */
  invalidate(): void {
    this.endpoints = null;
  }

  emit<E extends WebhookEvent>(event: E, ownerId: number, data: WebhookEventData[E]): void {
    // the endpoints as last read, while fresh: nobody hears it, so nothing is built (a blast's messages)
    if (this.fresh() && !this.endpoints?.some((e) => hears(e, event, ownerId))) return;
    const eventId = randomUUID();
    const at = Date.now();
    const body: WebhookBody<WebhookEventData[E]> = { id: eventId, event, created_at: new Date(at).toISOString(), data };
    this.waiting.push({ event, ownerId, body: JSON.stringify(body), eventId, at });
    if (this.waiting.length >= FLUSH_MAX) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    // one write at a time, in order
    this.flushing = this.flushing.then(() =>
      this.write(batch).catch((err) =>
        this.deps.log.warn({ err, events: batch.length }, 'webhook events not recorded'),
      ),
    );
    return this.flushing;
  }

  async close(): Promise<void> {
    await this.flush();
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private fresh(): boolean {
    return this.endpoints !== null && Date.now() - this.readAt < (this.deps.ttlMs ?? DIRECTORY_TTL_MS);
  }

  /**
   * The active endpoints with their owners' roles as they are now: a role change (an admin made a
   * member) takes effect here, at the next read (within DIRECTORY_TTL_MS, as a role change is not
   * told on the bus). Staff may not have webhooks ('webhook.manage'), so a staff owner's endpoints
   * (made before a demotion) hear nothing.
   */
  private async directory(): Promise<Endpoint[]> {
    if (this.endpoints && this.fresh()) return this.endpoints;
    const found = await rows<{ id: number; user_id: number; events: string[]; everyone: boolean; since: number }>(
      this.deps.db,
      sql`select e.id, e.user_id, e.events, u.role in ('admin', 'dev') as everyone,
                 (extract(epoch from e.created_at) * 1000)::float8 as since
          from webhook_endpoints e join users u on u.id = e.user_id
          where e.active and u.role is distinct from 'staff'`,
    );
    this.endpoints = found.map((r) => ({
      id: r.id,
      userId: r.user_id,
      events: new Set(r.events),
      everyone: r.everyone,
      since: Number(r.since),
    }));
    this.readAt = Date.now();
    return this.endpoints;
  }

  private async write(batch: Waiting[]): Promise<void> {
    if (!batch.length) return;
    const endpoints = await this.directory();
    if (!endpoints.length) return;
    const rowsIn: Array<{ endpoint_id: number; event: string; event_id: string; body: string }> = [];
    for (const w of batch) {
      for (const e of endpoints) {
        // an event that happened before the endpoint was made is not its (one waiting here meanwhile)
        if (hears(e, w.event, w.ownerId) && e.since <= w.at) {
          rowsIn.push({ endpoint_id: e.id, event: w.event, event_id: w.eventId, body: w.body });
        }
      }
    }
    if (!rowsIn.length) return;
    const cap = this.deps.backlogCap ?? WEBHOOK_BACKLOG_CAP;
    const full = await fullEndpoints(this.deps.db, [...new Set(rowsIn.map((r) => r.endpoint_id))], cap);
    const dropped = rowsIn.filter((r) => full.has(r.endpoint_id));
    if (dropped.length) {
      const error = `Not sent: ${cap} deliveries were already waiting for this endpoint.`;
      await insertDeliveries(this.deps.db, dropped, { status: 'failed', error });
      this.deps.log.warn(
        { endpoints: [...full], events: dropped.length },
        'webhook backlog full; events recorded as failed',
      );
    }
    const made = await insertDeliveries(
      this.deps.db,
      rowsIn.filter((r) => !full.has(r.endpoint_id)),
    );
    for (const id of made) await this.deps.queue.add(WEBHOOK_JOB, { deliveryId: id }, { jobId: deliveryJobId(id, 0) });
  }
}

/** The endpoints among `ids` with `cap` or more deliveries waiting (events and resends are refused past it). */
export async function fullEndpoints(db: Db, ids: number[], cap: number): Promise<Set<number>> {
  const found = await rows<{ endpoint_id: number }>(
    db,
    sql`select i.id as endpoint_id
        from (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int as id) i
        where (select count(*) from (select 1 from webhook_deliveries d
               where d.endpoint_id = i.id and d.status = 'pending' limit ${cap}) w) >= ${cap}`,
  );
  return new Set(found.map((r) => Number(r.endpoint_id)));
}

/**
 * Writes deliveries and returns their ids: pending and due now, or (`settled`) already failed with
 * its reason (nothing to send).
 */
export async function insertDeliveries(
  db: Db,
  list: Array<{ endpoint_id: number; event: string; event_id: string; body: string; resend_of?: number }>,
  settled: { status: 'failed'; error: string } | null = null,
): Promise<number[]> {
  if (!list.length) return [];
  const status = settled?.status ?? 'pending';
  const made = await rows<{ id: number | string }>(
    db,
    sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, resend_of, next_attempt_at, status, error)
        select i.endpoint_id, i.event, i.event_id, i.body, i.resend_of,
               case when ${status} = 'pending' then now() end, ${status}, ${settled?.error ?? null}
        from jsonb_to_recordset(${JSON.stringify(list)}::jsonb)
          as i(endpoint_id int, event text, event_id uuid, body text, resend_of bigint)
        join webhook_endpoints e on e.id = i.endpoint_id
        returning id`,
  );
  return made.map((r) => Number(r.id));
}
