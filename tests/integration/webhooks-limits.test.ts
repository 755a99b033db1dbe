import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { WEBHOOK_JOB } from '../../core/src/jobs/names';
import { createLogger } from '../../core/src/logger';
import { attemptDelivery, runDeliveryJob } from '../../core/src/webhooks/deliver';
import { deliveryJobId, WEBHOOK_BACKLOG_CAP, Webhooks } from '../../core/src/webhooks/webhooks';
import { WEBHOOK_CAP } from '../../shared/src/contract/webhooks';
import { apiAs } from '../support/api';
import { useUsers } from '../support/factories';
import { useWaHarness } from '../support/wa-engine';
import { TIME_SCALE, until } from '../support/wait';
import { deliveriesIn, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 13's webhooks against receivers that misbehave, and what one endpoint or user may take: an
 * attempt has one deadline however the receiver trickles its answer, an endpoint's backlog is capped
 * (for resends too), a process posts only so many deliveries at once and only two to one endpoint
 * (the queue's slots are the logins' too), a user has at most WEBHOOK_CAP endpoints even when the
 * creates race, and makes at most 30 webhook writes a minute.
 */
const h = useWaHarness({ webhooks: { timeoutMs: 2000, retryBaseMs: 40, retryForMs: 60_000 } });
// each test that writes much has its own user: the write budget is per user
const { admin, member, racer, busy, filler } = useUsers(() => h.database.db, {
  admin: 'admin',
  member: 'member',
  racer: 'dev',
  busy: 'admin',
  filler: 'admin',
});
const hooks = apiAs(h, admin, '/api/admin/webhooks');
const receiver = new WebhookReceiver();
const deliveriesOf = (id: number) => deliveriesIn(h.database.db, id);

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  receiver.resetHanging();
  await h.database.db.execute(sql`delete from webhook_endpoints`);
  receiver.received.length = 0;
});

/** Writes `n` pending deliveries of an endpoint, due now, and queues their jobs as an event does. */
async function queued(endpointId: number, n: number): Promise<number[]> {
  const made = await rows<{ id: number | string }>(
    h.database.db,
    sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, next_attempt_at)
        select ${endpointId}, 'optout', gen_random_uuid(), '{}', now() from generate_series(1, ${n})
        returning id`,
  );
  const ids = made.map((r) => Number(r.id));
  for (const id of ids) await h.queue.add(WEBHOOK_JOB, { deliveryId: id }, { jobId: deliveryJobId(id, 0) });
  return ids;
}

describe('a receiver that misbehaves', () => {
  it('is cut off at the timeout even while it trickles bytes; a long answer is not read to its end', async () => {
    let trickling: NodeJS.Timeout | undefined;
    const slow = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (req.url === '/long') {
        // a megabyte at once, then never an end
        res.write('x'.repeat(1 << 20));
        return;
      }
      trickling = setInterval(() => res.write('.'), 200);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const port = (slow.address() as AddressInfo).port;
    try {
      const settings = { timeoutMs: 800, retryBaseMs: 60_000, retryForMs: 3_600_000 };
      const one = async (path: string) => {
        const made = (await hooks.post('', { url: `http://127.0.0.1:${port}${path}`, events: ['optout'] })).body;
        const [d] = await rows<{ id: number }>(
          h.database.db,
          sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, next_attempt_at)
              values (${made.id}, 'optout', ${randomUUID()}, '{}', now()) returning id`,
        );
        const started = Date.now();
        const r = await attemptDelivery(h.database.db, Number(d.id), settings);
        return { r, ms: Date.now() - started, row: (await deliveriesOf(made.id))[0] };
      };
      const trickled = await one('/slow');
      expect(trickled.r.status).toBe('pending');
      expect(trickled.row.error).toMatch(/no answer within 800 ms/);
      // it would trickle forever: cut off near the timeout (stretched on a busy machine)
      expect(trickled.ms).toBeLessThan(2500 * TIME_SCALE);
      const long = await one('/long');
      expect(long.r.status).toBe('delivered');
      expect(long.ms).toBeLessThan(800 * TIME_SCALE);
    } finally {
      clearInterval(trickling);
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});

describe('what one endpoint may take', () => {
  it('past its backlog, new events are recorded as failed and not queued', async () => {
    const made = (await hooks.post('', { url: receiver.url(), events: ['optout'] })).body;
    for (let i = 0; i < 2; i += 1) {
      await h.database.db.execute(
        sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, next_attempt_at)
            values (${made.id}, 'optout', ${randomUUID()}, '{}', now() + interval '1 hour')`,
      );
    }
    const hooks0 = new Webhooks({ db: h.database.db, queue: h.queue, log: createLogger('silent'), backlogCap: 2 });
    const data = { user_id: member.id, account_id: 1, device_id: 'id-1', phone: null, target: '628', target_id: null };
    hooks0.emit('optout', member.id, data);
    await hooks0.flush();
    const rows3 = await deliveriesOf(made.id);
    expect(rows3.map((d) => d.status)).toEqual(['pending', 'pending', 'failed']);
    expect(rows3[2].error).toBe('Not sent: 2 deliveries were already waiting for this endpoint.');
    // a window in which nothing may arrive: the failed one was never queued (nothing to wait for)
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toEqual([]);
  });

  it('a process posts at most so many at once; the others come back a moment later', async () => {
    // a receiver that answers only when released: the first delivery holds the only slot till then
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let arrived = 0;
    const slow = createServer((req, res) => {
      arrived += 1;
      req.resume();
      void held.then(() => res.end());
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`;
    const made = (await hooks.post('', { url, events: ['optout'] })).body;
    const ids: number[] = [];
    for (let i = 0; i < 2; i += 1) {
      const [d] = await rows<{ id: number }>(
        h.database.db,
        sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, next_attempt_at)
            values (${made.id}, 'optout', ${randomUUID()}, '{}', now()) returning id`,
      );
      ids.push(Number(d.id));
    }
    const settings = { timeoutMs: 5000, retryBaseMs: 60_000, retryForMs: 3_600_000 };
    try {
      const first = runDeliveryJob(h.database.db, h.queue, ids[0], settings, 1);
      await until(() => arrived === 1, 'the first post to hold the slot');
      const second = await runDeliveryJob(h.database.db, h.queue, ids[1], settings, 1);
      expect(second.status).toBe('skipped');
      expect((await deliveriesOf(made.id))[1]).toMatchObject({ status: 'pending', attempts: 0 });
      release();
      expect((await first).status).toBe('delivered');
      // the one sent back was queued again, and goes through once the slot is free
      await until(async () => (await deliveriesOf(made.id))[1].status === 'delivered', 'the second, later', 5000);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });
});

describe('one endpoint cannot starve the others', () => {
  it('an endpoint that hangs holds two slots; another endpoint is still served at once', async () => {
    const hung = (await hooks.post('', { url: receiver.url('/hang'), events: ['optout'] })).body;
    const fine = (await hooks.post('', { url: receiver.url('/ok'), events: ['optout'] })).body;
    receiver.hang = (r) => r.path === '/hang';
    // more than the process's 20 slots: before the per-endpoint limit, these took all of them
    const waiting = await queued(hung.id, 25);
    await until(() => receiver.hanging >= 2, 'the hanging endpoint got its posts', 3000);
    // a window in which no third post may reach the hanging endpoint
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.peakHanging).toBe(2);

    const sentAt = Date.now();
    await queued(fine.id, 1);
    await until(() => receiver.received.some((r) => r.path === '/ok'), 'the other endpoint was served', 1500);
    // at once, not behind the hanging posts (which never end)
    expect((receiver.received.find((r) => r.path === '/ok')?.at ?? Infinity) - sentAt).toBeLessThan(1000 * TIME_SCALE);
    expect(receiver.peakHanging).toBe(2);

    // the ones put off wait (their next attempt moved on), rather than coming back every moment: each
    // job finds the endpoint full and puts its delivery off (on a busy machine, not all at once)
    const later = async () =>
      (
        await rows<{ later: number }>(
          h.database.db,
          sql`select count(*)::int as later from webhook_deliveries
              where endpoint_id = ${hung.id} and status = 'pending' and next_attempt_at > now()`,
        )
      )[0].later;
    await until(async () => (await later()) >= waiting.length - 4, 'the posts past the two slots put off');

    // once it answers again, every one of them gets through
    receiver.resetHanging();
    await until(
      async () => (await deliveriesOf(hung.id)).every((d) => d.status === 'delivered'),
      'the hanging endpoint caught up',
      15_000,
    );
  }, 25_000);
});

describe('what one user may do', () => {
  it('resending is refused while the endpoint already has its backlog waiting', async () => {
    const as = apiAs(h, filler, '/api/admin/webhooks');
    const made = (await as.post('', { url: receiver.url('/down'), events: ['optout'] })).body;
    const [failed] = await rows<{ id: number | string }>(
      h.database.db,
      sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, status, error)
          values (${made.id}, 'optout', ${randomUUID()}, '{}', 'failed', 'HTTP 500') returning id`,
    );
    await h.database.db.execute(
      sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, next_attempt_at)
          select ${made.id}, 'optout', gen_random_uuid(), '{}', now() + interval '1 hour'
          from generate_series(1, ${WEBHOOK_BACKLOG_CAP})`,
    );
    const count = async () =>
      (
        await rows<{ n: number }>(
          h.database.db,
          sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${made.id}`,
        )
      )[0].n;
    const before = await count();
    const refused = await as.post(`/${made.id}/deliveries/${failed.id}/resend`, {});
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toBe(
      `Not resent: ${WEBHOOK_BACKLOG_CAP} deliveries are already waiting for this webhook. Resend once they have been sent.`,
    );
    expect(await count()).toBe(before);
    // one sent (or given up): room again
    await h.database.db.execute(
      sql`update webhook_deliveries set status = 'failed', next_attempt_at = null
          where id = (select id from webhook_deliveries where endpoint_id = ${made.id} and status = 'pending' limit 1)`,
    );
    const again = await as.post(`/${made.id}/deliveries/${failed.id}/resend`, {});
    expect(again.status).toBe(202);
    expect(again.body.resend_of).toBe(Number(failed.id));
    expect(await count()).toBe(before + 1);
  });

  it('makes at most 30 webhook writes a minute; then 429 with Retry-After, and nothing changes', async () => {
    const as = apiAs(h, busy, '/api/admin/webhooks');
    const made = await as.post('', { url: receiver.url('/busy'), events: ['optout'] });
    expect(made.status).toBe(201);
    for (let i = 1; i < 30; i += 1) {
      const r = await as.put(`/${made.body.id}`, { description: `change ${i}` });
      expect(r.status, `write ${i + 1}`).toBe(200);
    }
    for (const r of [
      await as.put(`/${made.body.id}`, { description: 'one too many' }),
      await as.post('', { url: receiver.url('/busy2'), events: ['optout'] }),
      await as.post(`/${made.body.id}/deliveries/1/resend`, {}),
    ]) {
      expect(r.status).toBe(429);
      expect(r.body.msg).toMatch(/^Too many webhook changes\. Please try again in \d+ seconds\.$/);
      const wait = Number(r.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    const list = (await as.get('')).body.data;
    expect(list).toHaveLength(1);
    expect(list[0].description).toBe('change 29');
    // reads, deletes and other users are not held back
    expect((await as.get(`/${made.body.id}/deliveries`)).status).toBe(200);
    expect((await hooks.post('', { url: receiver.url('/else'), events: ['optout'] })).status).toBe(201);
  });

  it(`keeps to ${WEBHOOK_CAP} endpoints when many creates race`, async () => {
    const as = apiAs(h, racer, '/api/admin/webhooks');
    const all = await Promise.all(
      Array.from({ length: 15 }, (_, i) => as.post('', { url: receiver.url(`/race/${i}`), events: ['optout'] })),
    );
    const made = all.filter((r) => r.status === 201);
    const refused = all.filter((r) => r.status !== 201);
    expect(made).toHaveLength(WEBHOOK_CAP);
    expect(refused).toHaveLength(15 - WEBHOOK_CAP);
    for (const r of refused) {
      expect(r.status).toBe(409);
      expect(r.body.msg).toBe(`You already have ${WEBHOOK_CAP} webhooks. Delete one to add another.`);
    }
    expect((await as.get('')).body.data).toHaveLength(WEBHOOK_CAP);
  });
});
