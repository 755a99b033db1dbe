import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { webhookDeliveries, webhookEndpoints } from '@wa/core/db/schema/index';
import type { WebhookDeliveryDto, WebhookDeliveryStatus, WebhookDto, WebhookEvent } from '@wa/shared';
import { sql } from 'drizzle-orm';

type Delivery = RawRow<typeof webhookDeliveries>;

/** The columns of endpointColumns: the endpoint's, and its latest delivery's status and time (none yet: null). */
type EndpointRow = Pick<
  RawRow<typeof webhookEndpoints>,
  'id' | 'url' | 'events' | 'description' | 'active' | 'created_at' | 'updated_at'
> & { last_status: Delivery['status'] | null; last_delivery_at: Delivery['created_at'] | null };

/** A delivery as the list shows it; `id` is a bigserial. */
type DeliveryRow = Pick<
  Delivery,
  | 'id'
  | 'event'
  | 'event_id'
  | 'status'
  | 'attempts'
  | 'response_status'
  | 'error'
  | 'created_at'
  | 'last_attempt_at'
  | 'next_attempt_at'
  | 'delivered_at'
  | 'body'
>;

const iso = (d: string | null) => (d === null ? null : new Date(d).toISOString());

const toDto = (r: EndpointRow): WebhookDto => ({
  id: r.id,
  url: r.url,
  events: r.events as WebhookEvent[],
  description: r.description,
  active: r.active,
  created_at: iso(r.created_at) ?? '',
  updated_at: iso(r.updated_at) ?? '',
  last_status: r.last_status as WebhookDeliveryStatus | null,
  last_delivery_at: iso(r.last_delivery_at),
});

const toDelivery = (r: DeliveryRow): WebhookDeliveryDto => ({
  id: Number(r.id),
  event: r.event as WebhookEvent,
  event_id: r.event_id,
  status: r.status as WebhookDeliveryStatus,
  attempts: r.attempts,
  response_status: r.response_status,
  error: r.error,
  created_at: iso(r.created_at) ?? '',
  last_attempt_at: iso(r.last_attempt_at),
  next_attempt_at: iso(r.next_attempt_at),
  delivered_at: iso(r.delivered_at),
  body: r.body,
});

/** A list of names as a text[] value (passed as one JSON parameter). */
const textArray = (list: string[]) => sql`array(select jsonb_array_elements_text(${JSON.stringify(list)}::jsonb))`;

/** An endpoint's columns with its latest delivery's status. */
const endpointColumns = sql`e.id, e.url, e.events, e.description, e.active, e.created_at, e.updated_at,
  l.status as last_status, coalesce(l.delivered_at, l.last_attempt_at, l.created_at) as last_delivery_at`;
const latestDelivery = sql`left join lateral (
    select d.status, d.delivered_at, d.last_attempt_at, d.created_at from webhook_deliveries d
    where d.endpoint_id = e.id order by d.id desc limit 1
  ) l on true`;

/**
 * The class of the advisory locks that hold one user's endpoints still while one is added (the
 * lock's second key is the user id), apart from the single-key locks of core/src/db/locks.ts.
 */
const ENDPOINT_INSERT_LOCK = 727_274_301;

/** A user's webhook endpoints and their deliveries: every statement is scoped to the owner. */
export class WebhooksRepo {
  constructor(readonly db: Db) {}

  /**
   * Takes the user's endpoint lock until the transaction ends: two creates of one user run one
   * after the other and the second counts the first's row (under READ COMMITTED a count and an
   * insert in one statement do not: each of two at once sees the other's row missing). Call inside
   * a transaction.
   */
  async lockEndpoints(userId: number): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(${ENDPOINT_INSERT_LOCK}::int, ${userId}::int)`);
  }

  /** Adds an endpoint unless the user already has `cap` (under `lockEndpoints`, so two at once cannot pass it). */
  async insert(e: {
    userId: number;
    url: string;
    events: string[];
    description: string;
    secret: string;
    cap: number;
  }): Promise<WebhookDto | null> {
    const [r] = await rows<EndpointRow>(
      this.db,
      sql`with e as (
            insert into webhook_endpoints (user_id, url, events, description, secret)
            select ${e.userId}, ${e.url}, ${textArray(e.events)}, ${e.description}, ${e.secret}
            where (select count(*) from webhook_endpoints where user_id = ${e.userId}) < ${e.cap}
            returning *
          )
          select e.id, e.url, e.events, e.description, e.active, e.created_at, e.updated_at,
                 null::text as last_status, null::timestamptz as last_delivery_at
          from e`,
    );
    return r ? toDto(r) : null;
  }

  async list(userId: number): Promise<WebhookDto[]> {
    const found = await rows<EndpointRow>(
      this.db,
      sql`select ${endpointColumns} from webhook_endpoints e ${latestDelivery}
          where e.user_id = ${userId} order by e.id`,
    );
    return found.map(toDto);
  }

  async get(userId: number, id: number): Promise<WebhookDto | null> {
    const [r] = await rows<EndpointRow>(
      this.db,
      sql`select ${endpointColumns} from webhook_endpoints e ${latestDelivery}
          where e.user_id = ${userId} and e.id = ${id}`,
    );
    return r ? toDto(r) : null;
  }

  /** Changes the fields given; false when the user has no such endpoint. */
  async update(
    userId: number,
    id: number,
    b: { url?: string; events?: string[]; description?: string; active?: boolean },
  ): Promise<boolean> {
    const r = await rows<{ id: number }>(
      this.db,
      sql`update webhook_endpoints
          set url = coalesce(${b.url ?? null}, url),
              events = ${b.events ? textArray(b.events) : sql`events`},
              description = coalesce(${b.description ?? null}, description),
              active = coalesce(${b.active ?? null}::boolean, active),
              updated_at = now()
          where id = ${id} and user_id = ${userId} returning id`,
    );
    return r.length > 0;
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const r = await rows<{ id: number }>(
      this.db,
      sql`delete from webhook_endpoints where id = ${id} and user_id = ${userId} returning id`,
    );
    return r.length > 0;
  }

  /** The endpoint's latest deliveries, newest first. */
  async deliveries(endpointId: number, limit: number): Promise<WebhookDeliveryDto[]> {
    const found = await rows<DeliveryRow>(
      this.db,
      sql`select id, event, event_id, status, attempts, response_status, error, created_at, last_attempt_at,
                 next_attempt_at, delivered_at, body
          from webhook_deliveries where endpoint_id = ${endpointId} order by id desc limit ${limit}`,
    );
    return found.map(toDelivery);
  }

  /** One delivery of one of the user's endpoints (what a resend copies); its id as text, a bigint. */
  async delivery(
    userId: number,
    endpointId: number,
    deliveryId: string,
  ): Promise<{ id: number; event: string; event_id: string; body: string } | null> {
    const [r] = await rows<Pick<Delivery, 'id' | 'event' | 'event_id' | 'body'>>(
      this.db,
      sql`select d.id, d.event, d.event_id, d.body from webhook_deliveries d
          join webhook_endpoints e on e.id = d.endpoint_id
          where d.id = ${deliveryId}::bigint and d.endpoint_id = ${endpointId} and e.user_id = ${userId}`,
    );
    return r ? { ...r, id: Number(r.id) } : null;
  }
}
