import { afterEach, describe, expect, it } from 'vitest';
import type { JobName } from '../../core/src/jobs/names';
import type { JobQueue } from '../../core/src/jobs/queue';
import type { EventBus } from '../../core/src/realtime/bus';

async function until(check: () => boolean | Promise<boolean>, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The contract's own jobs, so no test job can reach a handler of the product. */
export interface ContractJobs {
  'test.echo': { n: number };
  'test.known': { at: number };
  'test.unknown': { at: number };
  'test.once': { at: number };
  'test.maybe': { fail: boolean; id: string };
  'test.first': { at: number };
  'test.second': { at: number };
}

/** Makes a queue over ContractJobs that expects handlers for `names` (and refuses to start without them). */
export type ContractQueueFactory = (names: readonly JobName<ContractJobs>[]) => JobQueue<ContractJobs>;

/** The behaviour every JobQueue must have, run against each adapter. */
export function describeQueueContract(label: string, make: ContractQueueFactory) {
  describe(`JobQueue contract: ${label}`, () => {
    const open: JobQueue<ContractJobs>[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((q) => q.close()));
    });
    const queue = (...names: JobName<ContractJobs>[]) => {
      const q = make(names);
      open.push(q);
      return q;
    };

    it('runs a job with its payload on the registered handler', async () => {
      const q = queue('test.echo');
      const seen: unknown[] = [];
      q.register('test.echo', async (p) => {
        seen.push(p);
      });
      await q.start();
      await q.add('test.echo', { n: 1 });
      await q.add('test.echo', { n: 2 });
      await until(() => seen.length === 2);
      expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
    });

    it('refuses a job name without a handler', async () => {
      const q = queue('test.known');
      q.register('test.known', async () => {});
      await q.start();
      await expect(q.add('test.unknown', { at: 1 })).rejects.toThrow(/no handler is registered for job "test.unknown"/);
    });

    it('refuses to start while a job of its map has no handler', async () => {
      const q = queue('test.first', 'test.second');
      q.register('test.first', async () => {});
      await expect(q.start()).rejects.toThrow(/cannot start: no handler is registered for "test.second"/);
      q.register('test.second', async () => {});
      await q.start();
    });

    it('does not add a job twice while one with the same id waits', async () => {
      const q = queue('test.once');
      let runs = 0;
      q.register('test.once', async () => {
        runs += 1;
      });
      await q.add('test.once', { at: 1 }, { jobId: 'same', delayMs: 200 });
      await q.add('test.once', { at: 2 }, { jobId: 'same', delayMs: 200 });
      await q.start();
      await until(() => runs >= 1);
      await new Promise((r) => setTimeout(r, 400));
      expect(runs).toBe(1);
    });

    it('counts the jobs running and the ones that failed (the /metrics queue depths)', async () => {
      const q = queue('test.maybe');
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      q.register('test.maybe', async (p) => {
        if (p.fail) throw new Error('boom');
        await gate;
      });
      await q.start();
      expect(await q.counts()).toMatchObject({ active: 0, failed: 0 });
      await q.add('test.maybe', { fail: false, id: 'held' });
      await until(async () => (await q.counts()).active === 1);
      release();
      await until(async () => (await q.counts()).active === 0);
      await q.add('test.maybe', { fail: true, id: 'bad' });
      await until(async () => (await q.counts()).failed === 1);
    });

    it('keeps going after a handler throws', async () => {
      const q = queue('test.maybe');
      const done: string[] = [];
      q.register('test.maybe', async (p) => {
        if (p.fail) throw new Error('boom');
        done.push(p.id);
      });
      await q.start();
      await q.add('test.maybe', { fail: true, id: 'a' });
      await q.add('test.maybe', { fail: false, id: 'b' });
      await until(() => done.includes('b'));
    });
  });
}

/** The behaviour every EventBus must have, run against each adapter. */
export function describeBusContract(label: string, make: () => EventBus) {
  describe(`EventBus contract: ${label}`, () => {
    const open: EventBus[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((b) => b.close()));
    });
    const bus = () => {
      const b = make();
      open.push(b);
      return b;
    };

    it('delivers a message to every subscriber of its channel only', async () => {
      const pub = bus();
      const sub = label === 'memory' ? pub : bus();
      const a: unknown[] = [];
      const b: unknown[] = [];
      const other: unknown[] = [];
      await sub.subscribe('client-1', (m) => a.push(m));
      await sub.subscribe('client-1', (m) => b.push(m));
      await sub.subscribe('client-2', (m) => other.push(m));
      await pub.publish('client-1', { event: 'count_success', payload: { id: 7 } });
      await until(() => a.length === 1 && b.length === 1);
      expect(a[0]).toEqual({ event: 'count_success', payload: { id: 7 } });
      await new Promise((r) => setTimeout(r, 50));
      expect(other).toEqual([]);
    });

    it('delivers a burst of messages on several channels once each, in order per channel', async () => {
      const pub = bus();
      const sub = label === 'memory' ? pub : bus();
      const one: unknown[] = [];
      const two: unknown[] = [];
      await sub.subscribe('client-1', (m) => one.push(m));
      await sub.subscribe('client-2', (m) => two.push(m));
      // published together, as a blast's events are: the Redis bus sends them in one write
      const sent = Array.from({ length: 200 }, (_, i) => {
        const channel = i % 3 === 0 ? 'client-2' : 'client-1';
        return pub.publish(channel, { event: 'count_success', payload: { i, channel, list: [i], text: `"${i}"` } });
      });
      await Promise.all(sent);
      // a message that happens to look like a batch, or is a bare array, arrives as it was sent
      await pub.publish('client-1', ['a', 'b']);
      await pub.publish('client-1', { $bus: 'not a batch' });
      await pub.publish('client-1', { $bus: [1, 2] });
      await until(() => one.length === 136 && two.length === 67);
      const order = (got: unknown[]) => got.flatMap((m) => (m as { payload?: { i: number } }).payload?.i ?? []);
      expect(order(one)).toEqual(Array.from({ length: 200 }, (_, i) => i).filter((i) => i % 3 !== 0));
      expect(order(two)).toEqual(Array.from({ length: 200 }, (_, i) => i).filter((i) => i % 3 === 0));
      expect(one[0]).toEqual({
        event: 'count_success',
        payload: { i: 1, channel: 'client-1', list: [1], text: '"1"' },
      });
      expect(one.slice(-3)).toEqual([['a', 'b'], { $bus: 'not a batch' }, { $bus: [1, 2] }]);
      await new Promise((r) => setTimeout(r, 50));
      expect(one.length + two.length).toBe(203);
    });

    it('stops delivering after unsubscribe', async () => {
      const pub = bus();
      const sub = label === 'memory' ? pub : bus();
      const got: unknown[] = [];
      const off = await sub.subscribe('client-admin', (m) => got.push(m));
      await pub.publish('client-admin', 1);
      await until(() => got.length === 1);
      await off();
      await pub.publish('client-admin', 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(got).toEqual([1]);
    });
  });
}
