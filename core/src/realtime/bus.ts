import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { BusDownError } from '../dependencies';

export type BusListener = (message: unknown) => void;

/**
 * Publish/subscribe between processes: Redis pub/sub when REDIS_URL is set, so any API replica
 * reaches any browser; an in-process emitter otherwise. Messages are JSON values.
 */
export interface EventBus {
  readonly kind: 'memory' | 'redis';
  publish(channel: string, message: unknown): Promise<void>;
  /** returns the unsubscribe function */
  subscribe(channel: string, listener: BusListener): Promise<() => Promise<void>>;
  /** resolves when the bus answers (Redis: a PING); rejects when it does not */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class InProcessBus implements EventBus {
  readonly kind = 'memory' as const;
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async ping(): Promise<void> {}

  async publish(channel: string, message: unknown): Promise<void> {
    // a round trip through JSON, as over Redis, so no caller relies on sharing objects
    this.emitter.emit(channel, JSON.parse(JSON.stringify(message)));
  }

  async subscribe(channel: string, listener: BusListener) {
    this.emitter.on(channel, listener);
    return async () => {
      this.emitter.off(channel, listener);
    };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/**
 * Publishes made within this long go out together: one PUBLISH per channel carrying all of its
 * messages in order, and one write for every channel. A blast at full speed publishes five live
 * events a message; sent one by one, the writes cost a worker a third of its CPU and Redis a
 * command each (bench/README.md, "Blast with receipts across worker processes").
 */
const PUBLISH_WINDOW_MS = 2;

/** What one PUBLISH carries: `{"$bus":[m1,m2,…]}`, the channel's messages of one window in order. */
const BATCH_KEY = '$bus';

interface PublishWindow {
  /** each channel's messages, serialised, in the order they were published */
  channels: Map<string, string[]>;
  done: Promise<void>;
  resolve(): void;
  reject(err: unknown): void;
}

export class RedisBus implements EventBus {
  readonly kind = 'redis' as const;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly listeners = new Map<string, Set<BusListener>>();
  private window: PublishWindow | null = null;
  /** the publishing connection was ready once: from then on, not ready means Redis is away */
  private everReady = false;
  /**
   * the same for the subscribing connection, which connects on its own: at start it may still be
   * connecting while the publisher is ready (a subscription then waits for it, see `ready`)
   */
  private subEverReady = false;

  constructor(
    redisUrl: string,
    private readonly prefix = 'wa:',
  ) {
    // a publish in flight when the connection drops fails after one retry instead of twenty
    this.pub = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1 });
    this.sub = new Redis(redisUrl, { lazyConnect: false });
    this.pub.on('ready', () => {
      this.everReady = true;
    });
    this.sub.on('ready', () => {
      this.subEverReady = true;
    });
    // connection problems are retried by ioredis; without a handler they would be printed as unhandled
    this.pub.on('error', () => {});
    this.sub.on('error', () => {});
    this.sub.on('message', (channel: string, raw: string) => {
      const set = this.listeners.get(channel.slice(this.prefix.length));
      if (!set) return;
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return;
      }
      const batch = (message as Record<string, unknown> | null)?.[BATCH_KEY];
      for (const m of Array.isArray(batch) ? batch : [message]) for (const l of set) l(m);
    });
  }

  async ping(): Promise<void> {
    // a lost connection is known at once: without this the PING would wait in ioredis's offline
    // queue until its retries ran out, and a health check would learn nothing before its deadline
    if (this.pub.status === 'reconnecting' || this.pub.status === 'close' || this.pub.status === 'end') {
      throw new Error(`Redis is not connected (${this.pub.status})`);
    }
    await this.pub.ping();
  }

  /**
   * Resolves once Redis has taken the message (with the others of its window; see
   * PUBLISH_WINDOW_MS). While Redis is away (the connection was up once and is not) it fails at
   * once with BusDownError rather than queueing: live events are of the moment, and a blast must
   * not wait on them.
   */
  publish(channel: string, message: unknown): Promise<void> {
    if (this.everReady && this.pub.status !== 'ready') return Promise.reject(new BusDownError());
    const text = JSON.stringify(message);
    let w = this.window;
    if (!w) {
      let resolve = () => {};
      let reject: (err: unknown) => void = () => {};
      const done = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      w = { channels: new Map(), done, resolve, reject };
      this.window = w;
      setTimeout(() => this.flush(), PUBLISH_WINDOW_MS);
    }
    const list = w.channels.get(channel);
    if (list) list.push(text);
    else w.channels.set(channel, [text]);
    return w.done;
  }

  /** Sends the window's messages: a PUBLISH per channel, all in one pipeline. */
  private flush(): Promise<void> {
    const w = this.window;
    if (!w) return Promise.resolve();
    this.window = null;
    const pipeline = this.pub.pipeline();
    for (const [channel, list] of w.channels) {
      pipeline.publish(this.prefix + channel, `{"${BATCH_KEY}":[${list.join(',')}]}`);
    }
    pipeline.exec().then((results) => {
      const failed = results?.find(([err]) => err)?.[0];
      if (failed) w.reject(failed);
      else w.resolve();
    }, w.reject);
    return w.done;
  }

  /** resolves once the subscriber connection is ready: a SUBSCRIBE sent while ioredis is still
   * running its connect check makes it reconnect, and messages in that gap would be lost */
  private ready(): Promise<void> {
    if (this.sub.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => this.sub.once('ready', () => resolve()));
  }

  async subscribe(channel: string, listener: BusListener) {
    let set = this.listeners.get(channel);
    // a new channel while Redis is away fails at once (a device call answers 503 rather than hang);
    // the channels already subscribed are subscribed again by ioredis when it reconnects
    if (!set && this.subEverReady && this.sub.status !== 'ready') throw new BusDownError();
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
      await this.ready();
      await this.sub.subscribe(this.prefix + channel);
    }
    set.add(listener);
    return async () => {
      const s = this.listeners.get(channel);
      if (!s) return;
      s.delete(listener);
      if (s.size === 0) {
        this.listeners.delete(channel);
        await this.sub.unsubscribe(this.prefix + channel);
      }
    };
  }

  async close(): Promise<void> {
    // what is waiting goes out first (a closing process's last events)
    await this.flush().catch(() => {});
    this.listeners.clear();
    this.pub.disconnect();
    this.sub.disconnect();
  }
}
