import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';

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

export class RedisBus implements EventBus {
  readonly kind = 'redis' as const;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly listeners = new Map<string, Set<BusListener>>();

  constructor(
    redisUrl: string,
    private readonly prefix = 'wa:',
  ) {
    this.pub = new Redis(redisUrl, { lazyConnect: false });
    this.sub = new Redis(redisUrl, { lazyConnect: false });
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
      for (const l of set) l(message);
    });
  }

  async ping(): Promise<void> {
    await this.pub.ping();
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.pub.publish(this.prefix + channel, JSON.stringify(message));
  }

  /** resolves once the subscriber connection is ready: a SUBSCRIBE sent while ioredis is still
   * running its connect check makes it reconnect, and messages in that gap would be lost */
  private ready(): Promise<void> {
    if (this.sub.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => this.sub.once('ready', () => resolve()));
  }

  async subscribe(channel: string, listener: BusListener) {
    let set = this.listeners.get(channel);
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
    this.listeners.clear();
    this.pub.disconnect();
    this.sub.disconnect();
  }
}
