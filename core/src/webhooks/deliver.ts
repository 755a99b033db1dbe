import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { WEBHOOK_HEADERS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { type Db, rows } from '../db/client';
import { WEBHOOK_JOB } from '../jobs/names';
import type { JobQueue } from '../jobs/queue';
import { literalAllowed, NotPublicAddressError, publicLookup } from './address';
import { deliveryJobId } from './webhooks';

/** How deliveries are made and retried (config `webhooks`, from WEBHOOK_* variables). */
export interface DeliverySettings {
  /** one attempt's limit */
  timeoutMs: number;
  /** the first retry's wait; each next one waits twice as long (at most MAX_BACKOFF_MS) */
  retryBaseMs: number;
  /** how long after the event it is still retried (a day) */
  retryForMs: number;
}

export const DEFAULT_DELIVERY_SETTINGS: DeliverySettings = {
  timeoutMs: 10_000,
  retryBaseMs: 30_000,
  retryForMs: 24 * 3600_000,
};

/** No wait between attempts is longer than this (a day of retries makes about 14 attempts). */
const MAX_BACKOFF_MS = 4 * 3600_000;

/** What a receiver's answer is kept of (the error text). */
const ANSWER_KEPT = 300;

/** `X-WA-Signature`'s value: the HMAC-SHA256 of "{timestamp}.{body}" with the endpoint's secret. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The wait before attempt `attempts + 1`, after `attempts` failed ones. */
export function backoffMs(attempts: number, baseMs: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

interface Claimed {
  id: number;
  event: string;
  body: string;
  attempts: number;
  created_at: Date | string;
  url: string;
  secret: string;
  active: boolean;
  everyone: boolean;
}

export interface AttemptResult {
  /** what the row says now ('skipped': not due, taken by another worker, or settled) */
  status: 'delivered' | 'pending' | 'failed' | 'skipped';
  attempts: number;
  /** when pending, the wait before the next attempt */
  retryInMs: number | null;
}

/** Posts the body; resolves with the HTTP status, rejects when no answer came. */
function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  restricted: boolean,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    // the whole attempt, not only a silent socket: a receiver that trickles its answer is cut off too
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const done =
      <T>(settle: (v: T) => void) =>
      (v: T) => {
        clearTimeout(deadline);
        settle(v);
      };
    const req = lib.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: timeoutMs,
        // a restricted owner's delivery connects only to the public address it checked (DNS rebinding)
        lookup: restricted ? publicLookup : undefined,
        agent: false,
      },
      (res) => {
        let text = '';
        const answered = () => done(resolve)({ status: res.statusCode ?? 0, text: text.slice(0, ANSWER_KEPT) });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          // the status is what counts; the start of the answer is kept for the error, the rest not read
          if (text.length >= ANSWER_KEPT) {
            answered();
            res.destroy();
          }
        });
        res.on('end', answered);
        res.on('error', done(reject));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', done(reject));
    req.end(body);
  });
}

/**
 * One attempt at a delivery: claimed (so two jobs for it never post at once), posted with its
 * signature, and the row updated: delivered on a 2xx, else pending with the next attempt's time,
 * or failed once the event is older than `retryForMs`. Deliveries of a paused endpoint fail at once
 * (a resend after it is resumed sends them). Never throws for the receiver's failures.
 */
export async function attemptDelivery(db: Db, deliveryId: number, s: DeliverySettings): Promise<AttemptResult> {
  const lockMs = s.timeoutMs * 2 + 5000;
  const [d] = await rows<Claimed>(
    db,
    sql`update webhook_deliveries d set locked_until = now() + ${lockMs} * interval '1 millisecond'
        from webhook_endpoints e join users u on u.id = e.user_id
        where d.id = ${deliveryId} and e.id = d.endpoint_id and d.status = 'pending'
          and (d.locked_until is null or d.locked_until < now())
          and (d.next_attempt_at is null or d.next_attempt_at <= now() + interval '2 seconds')
        returning d.id, d.event, d.body, d.attempts, d.created_at, e.url, e.secret, e.active,
                  u.role in ('admin', 'dev') as everyone`,
  );
  if (!d) return { status: 'skipped', attempts: 0, retryInMs: null };
  const attempts = d.attempts + 1;
  if (!d.active) return settle(db, d.id, attempts, { status: 'failed', code: null, error: 'The webhook is paused.' });

  const url = new URL(d.url);
  const restricted = !d.everyone;
  let outcome: { code: number | null; error: string | null };
  if (restricted && (url.protocol !== 'https:' || !literalAllowed(url))) {
    outcome = { code: null, error: 'The address is not a public https:// address.' };
  } else {
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'WA-Blaster-Webhooks/1',
      [WEBHOOK_HEADERS.event.toLowerCase()]: d.event,
      [WEBHOOK_HEADERS.timestamp.toLowerCase()]: String(timestamp),
      [WEBHOOK_HEADERS.signature.toLowerCase()]: signature(d.secret, timestamp, d.body),
      [WEBHOOK_HEADERS.delivery.toLowerCase()]: String(d.id),
    };
    try {
      const r = await post(url, headers, d.body, s.timeoutMs, restricted);
      outcome =
        r.status >= 200 && r.status < 300
          ? { code: r.status, error: null }
          : { code: r.status, error: `HTTP ${r.status}${r.text ? `: ${r.text}` : ''}` };
    } catch (err) {
      const message = err instanceof NotPublicAddressError || err instanceof Error ? err.message : String(err);
      outcome = { code: null, error: message.slice(0, ANSWER_KEPT) };
    }
  }
  if (outcome.error === null)
    return settle(db, d.id, attempts, { status: 'delivered', code: outcome.code, error: null });
  const wait = backoffMs(attempts, s.retryBaseMs);
  const deadline = new Date(d.created_at).getTime() + s.retryForMs;
  if (Date.now() + wait > deadline) return settle(db, d.id, attempts, { status: 'failed', ...outcome });
  return settle(db, d.id, attempts, { status: 'pending', ...outcome }, wait);
}

async function settle(
  db: Db,
  id: number,
  attempts: number,
  o: { status: 'delivered' | 'pending' | 'failed'; code: number | null; error: string | null },
  retryInMs: number | null = null,
): Promise<AttemptResult> {
  await db.execute(
    sql`update webhook_deliveries
        set status = ${o.status}, attempts = ${attempts}, response_status = ${o.code}, error = ${o.error},
            last_attempt_at = now(), locked_until = null,
            delivered_at = case when ${o.status} = 'delivered' then now() end,
            next_attempt_at = case when ${o.status} = 'pending' then now() + ${retryInMs ?? 0} * interval '1 millisecond' end
        where id = ${id}`,
  );
  return { status: o.status, attempts, retryInMs: o.status === 'pending' ? retryInMs : null };
}

/**
 * Deliveries one process posts at once. The queue's slots are shared with the other jobs (logins),
 * so slow receivers must not take them all: a job beyond this waits (see `deferralDelayMs`).
 */
export const MAX_DELIVERIES_IN_FLIGHT = 20;

/**
 * Deliveries one process posts at once to one endpoint: an endpoint that hangs holds at most this
 * many slots (each up to the timeout), and the other endpoints keep being served.
 */
export const MAX_DELIVERIES_PER_ENDPOINT = 2;

/** The longest a delivery waits for a free slot before it looks again. */
const MAX_DEFERRAL_MS = 30_000;

/**
 * The wait of a delivery that found no free slot for the `n`th time in a row (from 0): 0.5 s,
 * doubling up to 30 s, each 75–100 % of that so a crowd of them does not come back at once. A
 * receiver that hangs for minutes then costs its waiting deliveries a look every 30 s, not every second.
 */
export function deferralDelayMs(n: number, random: () => number = Math.random): number {
  const full = Math.min(MAX_DEFERRAL_MS, 500 * 2 ** Math.min(n, 16));
  return Math.round(full * (0.75 + 0.25 * random()));
}

/** The slots of this process: posts in flight, in all and by endpoint. */
const slots = { total: 0, byEndpoint: new Map<number, number>() };
/** How often each delivery found no slot in a row, in this process (the wait grows with it). */
const deferrals = new Map<number, number>();
const DEFERRALS_KEPT = 100_000;

/**
 * Puts a delivery off: its row's next attempt moves to the end of the wait (so a copy of its job,
 * or the sweep, does not take it sooner) and its job comes back then.
 */
async function defer(db: Db, queue: JobQueue, deliveryId: number): Promise<void> {
  const n = deferrals.get(deliveryId) ?? 0;
  if (deferrals.size >= DEFERRALS_KEPT) deferrals.clear();
  deferrals.set(deliveryId, n + 1);
  const delayMs = deferralDelayMs(n);
  await db.execute(
    sql`update webhook_deliveries set next_attempt_at = now() + ${delayMs} * interval '1 millisecond'
        where id = ${deliveryId} and status = 'pending' and (locked_until is null or locked_until < now())`,
  );
  await queue.add(WEBHOOK_JOB, { deliveryId }, { jobId: deliveryJobId(deliveryId, `w${Date.now()}`), delayMs });
}

/**
 * The `webhook.deliver` job: one attempt, and the next one queued with its backoff. A delivery that
 * finds the process (`maxInFlight`) or its endpoint (`maxPerEndpoint`) busy waits a growing delay.
 */
export async function runDeliveryJob(
  db: Db,
  queue: JobQueue,
  deliveryId: number,
  s: DeliverySettings,
  maxInFlight = MAX_DELIVERIES_IN_FLIGHT,
  maxPerEndpoint = MAX_DELIVERIES_PER_ENDPOINT,
): Promise<AttemptResult> {
  // whose it is, and whether it is due at all (a copy of a put-off job finds it not due yet)
  const [due] = await rows<{ endpoint_id: number }>(
    db,
    sql`select endpoint_id from webhook_deliveries
        where id = ${deliveryId} and status = 'pending'
          and (locked_until is null or locked_until < now())
          and (next_attempt_at is null or next_attempt_at <= now() + interval '2 seconds')`,
  );
  if (!due) return { status: 'skipped', attempts: 0, retryInMs: null };
  const endpointId = Number(due.endpoint_id);
  const mine = slots.byEndpoint.get(endpointId) ?? 0;
  if (slots.total >= maxInFlight || mine >= maxPerEndpoint) {
    await defer(db, queue, deliveryId);
    return { status: 'skipped', attempts: 0, retryInMs: null };
  }
  // taken before the next await, so two jobs of one endpoint cannot both see a free slot
  slots.total += 1;
  slots.byEndpoint.set(endpointId, mine + 1);
  deferrals.delete(deliveryId);
  let r: AttemptResult;
  try {
    r = await attemptDelivery(db, deliveryId, s);
  } finally {
    slots.total -= 1;
    const left = (slots.byEndpoint.get(endpointId) ?? 1) - 1;
    if (left > 0) slots.byEndpoint.set(endpointId, left);
    else slots.byEndpoint.delete(endpointId);
  }
  if (r.status === 'pending' && r.retryInMs !== null) {
    await queue.add(
      WEBHOOK_JOB,
      { deliveryId },
      { jobId: deliveryJobId(deliveryId, r.attempts), delayMs: r.retryInMs },
    );
  }
  return r;
}

/** Deliveries kept this long (the endpoint's list shows the latest; older ones are deleted). */
export const DELIVERIES_KEPT_DAYS = 7;

/**
 * The sweep every engine host runs: deliveries whose attempt is overdue by a minute (their job was
 * lost with a process, or the in-process queue restarted) are queued again, and deliveries older
 * than DELIVERIES_KEPT_DAYS are deleted. Returns how many were queued.
 */
export async function requeueOverdue(db: Db, queue: JobQueue, limit = 500): Promise<number> {
  const due = await rows<{ id: number | string }>(
    db,
    sql`select id from webhook_deliveries
        where status = 'pending' and next_attempt_at < now() - interval '1 minute'
          and (locked_until is null or locked_until < now())
        order by next_attempt_at limit ${limit}`,
  );
  // a new job id per sweep: the lost job's id may still be held by BullMQ as completed
  const sweep = `s${Math.floor(Date.now() / 60_000)}`;
  for (const r of due) {
    await queue.add(WEBHOOK_JOB, { deliveryId: Number(r.id) }, { jobId: deliveryJobId(Number(r.id), sweep) });
  }
  await db.execute(
    sql`delete from webhook_deliveries where id in (
          select id from webhook_deliveries where created_at < now() - ${DELIVERIES_KEPT_DAYS} * interval '1 day'
          order by created_at limit 5000)`,
  );
  return due.length;
}
