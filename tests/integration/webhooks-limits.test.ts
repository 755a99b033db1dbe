import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { createLogger } from '../../core/src/logger';
import { attemptDelivery, runDeliveryJob } from '../../core/src/webhooks/deliver';
import { Webhooks } from '../../core/src/webhooks/webhooks';
import { apiAs } from '../support/api';
import { useUsers } from '../support/factories';
import { useWaHarness } from '../support/wa-engine';
import { until } from '../support/wait';
import { deliveriesIn, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 13's webhooks against receivers that misbehave, and what one endpoint may take: an attempt
 * has one deadline however the receiver trickles its answer, an endpoint's backlog is capped, and a
 * process posts only so many deliveries at once (the queue's slots are the logins' too).
 */
const h = useWaHarness({ webhooks: { timeoutMs: 2000, retryBaseMs: 40, retryForMs: 60_000 } });
const { admin, member } = useUsers(() => h.database.db, { admin: 'admin', member: 'member' });
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
  await h.database.db.execute(sql`delete from webhook_endpoints`);
  receiver.received.length = 0;
});

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
      expect(trickled.ms).toBeLessThan(2500);
      const long = await one('/long');
      expect(long.r.status).toBe('delivered');
      expect(long.ms).toBeLessThan(800);
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
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toEqual([]);
  });

  it('a process posts at most so many at once; the others come back a moment later', async () => {
    // a receiver that answers only when released: the first delivery holds the only slot till then
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const slow = createServer((req, res) => {
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
      await new Promise((r) => setTimeout(r, 50));
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
