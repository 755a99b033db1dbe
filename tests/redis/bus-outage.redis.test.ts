import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusDownError } from '../../core/src/dependencies';
import { RedisBus } from '../../core/src/realtime/bus';
import { callDevice } from '../../core/src/realtime/rpc';
import { type CuttableRelay, cuttableRelay } from '../support/unreachable';
import { TIME_SCALE } from '../support/wait';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');

/**
 * Issue 19: the bus while Redis is away. A publish or a new subscription fails at once with
 * BusDownError instead of waiting in ioredis's offline queue (a blast does not wait on its live
 * events, a device call answers instead of hanging), and once Redis is back the channels that were
 * subscribed hear messages again without anyone subscribing anew.
 */
let relay: CuttableRelay;
let bus: RedisBus;
let other: RedisBus;

beforeAll(async () => {
  const target = new URL(url);
  relay = await cuttableRelay({ host: target.hostname, port: Number(target.port || 6379) });
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String(relay.port);
  const prefix = `bus-outage-${process.pid}:`;
  bus = new RedisBus(relayed.toString(), prefix);
  // a second process's bus straight on Redis: it stays up while the first one's network is cut
  other = new RedisBus(url, prefix);
});

afterAll(async () => {
  await bus?.close();
  await other?.close();
  await relay?.close();
});

/** Resolves with the first message `heard` gets, or null after `ms`. */
function firstMessage(heard: unknown[], ms: number): Promise<unknown> {
  return new Promise((resolve) => {
    const end = Date.now() + ms;
    const look = () => {
      if (heard.length) resolve(heard[0]);
      else if (Date.now() > end) resolve(null);
      else setTimeout(look, 20);
    };
    look();
  });
}

describe('the Redis bus while Redis is away', () => {
  it('fails publishes and new subscriptions at once, and hears its channels again once Redis is back', async () => {
    const heard: unknown[] = [];
    await bus.subscribe('ws:client-1', (m) => heard.push(m));
    await other.publish('ws:client-1', { event: 'before' });
    expect(await firstMessage(heard, 5000)).toEqual({ event: 'before' });
    heard.length = 0;

    await relay.cut();
    // the connection notices the cut, then every call fails at once
    await expect
      .poll(() => bus.publish('ws:client-1', { event: 'x' }).catch((e: unknown) => e), { timeout: 5000 })
      .toBeInstanceOf(BusDownError);
    const started = Date.now();
    await expect(bus.publish('ws:client-1', { event: 'during' })).rejects.toBeInstanceOf(BusDownError);
    await expect(bus.subscribe('engine:reply:new', () => {})).rejects.toBeInstanceOf(BusDownError);
    await expect(bus.ping()).rejects.toThrow();
    // a device call answers with the outage, not after its timeout
    await expect(callDevice(bus, 'id-1760000000000-1', 'state', {}, { timeoutMs: 10_000 })).rejects.toBeInstanceOf(
      BusDownError,
    );
    // at once: well inside the call's 10 s timeout even when stretched on a busy machine
    expect(Date.now() - started).toBeLessThan(1000 * TIME_SCALE);

    await relay.restore();
    // ioredis reconnects by itself and subscribes its channels again: nobody subscribes anew
    await expect
      .poll(
        async () =>
          bus.ping().then(
            () => true,
            () => false,
          ),
        { timeout: 15_000, interval: 250 },
      )
      .toBe(true);
    await expect
      .poll(
        async () => {
          await other.publish('ws:client-1', { event: 'after' });
          return heard.some((m) => (m as { event: string }).event === 'after');
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe(true);
    await bus.publish('ws:client-1', { event: 'from the cut side' });
    await expect
      .poll(() => heard.some((m) => (m as { event: string }).event === 'from the cut side'), { timeout: 5000 })
      .toBe(true);
  });
});
