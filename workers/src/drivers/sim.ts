/**
 * `sim`: a deterministic WhatsApp simulator behind the driver port, for tests, demos and benchmarks.
 *
 * Every session draws from small seeded PRNGs derived from `config.seed` and a hash of its clientId,
 * so a run is repeatable whatever order sessions start in. The simulated phone scans the QR (or enters
 * the pairing code) by itself after `pairDelayMs`. A session is a handful of numbers, a listener set
 * and at most two timers (plus one per in-flight send), so one worker holds thousands of them.
 *
 * Every timer is `unref()`ed: a forgotten session never keeps a process alive. The other side of that
 * is that a script whose only pending work is a simulated login or send may exit before it finishes.
 *
 * A login through a proxy in the reserved `.invalid` domain (RFC 6761: never a real host) cannot
 * connect, so a dead proxy can be tried on the simulator end to end (simulatedConnectFailure).
 */
import { appendFileSync, statSync } from 'node:fs';
import type { SimConfig } from '@wa/core/config-engine';
import { connectFailure } from './connect-failure';
import {
  type ClientInfo,
  type ConnectFailure,
  type DriverEvent,
  type DriverListener,
  type DriverState,
  type MediaFile,
  type ProxyConfig,
  SendError,
  type SendFailureCode,
  type SessionOptions,
  type SessionStore,
  type SimControl,
  type SimFailKind,
  UnsupportedProxyError,
  type WhatsAppDriver,
  type WhatsAppSession,
} from './types';

// ---------------------------------------------------------------------------------------------------
// Configuration (read from SIM_* by core's Config)

function validateConfig(c: SimConfig): void {
  const bad = (field: string, value: unknown) => new Error(`SimConfig.${field} is invalid: ${JSON.stringify(value)}`);
  const ms = (v: number) => Number.isFinite(v) && v >= 0;
  const rate = (v: number) => Number.isFinite(v) && v >= 0 && v <= 1;
  if (!Number.isFinite(c.seed)) throw bad('seed', c.seed);
  if (!ms(c.pairDelayMs)) throw bad('pairDelayMs', c.pairDelayMs);
  if (!rate(c.sendFailRate)) throw bad('sendFailRate', c.sendFailRate);
  const latency = c.sendLatencyMs;
  if (
    !Array.isArray(latency) ||
    latency.length !== 2 ||
    !ms(latency[0]) ||
    !ms(latency[1]) ||
    latency[0] > latency[1]
  ) {
    throw bad('sendLatencyMs', latency);
  }
  if (!ms(c.restoreDelayMs)) throw bad('restoreDelayMs', c.restoreDelayMs);
  if (!(Number.isFinite(c.qrRefreshMs) && c.qrRefreshMs > 0)) throw bad('qrRefreshMs', c.qrRefreshMs);
  if (!rate(c.registeredRate)) throw bad('registeredRate', c.registeredRate);
  if (!rate(c.deliverRate)) throw bad('deliverRate', c.deliverRate);
  if (!rate(c.readRate)) throw bad('readRate', c.readRate);
  if (!ms(c.ackDelayMs)) throw bad('ackDelayMs', c.ackDelayMs);
}

// ---------------------------------------------------------------------------------------------------
// Deterministic randomness

/** FNV-1a, 32 bits. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** murmur3's finaliser: spreads every input bit over the output. */
function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function combine(a: number, b: number): number {
  return mix32((mix32(a) ^ Math.imul(b >>> 0, 0x9e3779b1)) >>> 0);
}

/** mulberry32: one 32-bit word of state. */
class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** a float in [0, 1) */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** an integer in [min, max] */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick(chars: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += chars[Math.floor(this.next() * chars.length)];
    return out;
  }
}

/** Independent streams per session, so e.g. the phone number does not depend on how many QRs were shown. */
const STREAM_IDENTITY = 1;
const STREAM_LOGIN = 2;
const STREAM_OPS = 3;
const STREAM_ACKS = 4;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** A–Z and 0–9 without the ambiguous 0/O, 1/I/L. */
const CODE_CHARS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const HEX = '0123456789ABCDEF';
/** Indonesian mobile prefixes after 62. */
const PREFIXES = [
  '811',
  '812',
  '813',
  '821',
  '822',
  '823',
  '851',
  '852',
  '853',
  '855',
  '856',
  '857',
  '858',
  '859',
  '877',
  '878',
  '881',
  '882',
  '895',
  '896',
  '897',
  '898',
  '899',
];

function digitsOf(number: string): string {
  return number.replace(/\D/g, '');
}

function parseStoredInfo(blob: Buffer): ClientInfo | null {
  try {
    const data = JSON.parse(blob.toString('utf8')) as { phonenumber?: unknown; pushname?: unknown };
    if (typeof data.phonenumber !== 'string' || !/^\d{6,20}$/.test(data.phonenumber)) return null;
    const pushname = typeof data.pushname === 'string' ? data.pushname : '';
    return infoFor(data.phonenumber, pushname);
  } catch {
    return null;
  }
}

function infoFor(phonenumber: string, pushname: string): ClientInfo {
  return { phonenumber, pushname, server: 'c.us', serialized: `${phonenumber}@c.us` };
}

/**
 * How a login through a `.invalid` proxy fails, by the host's first label, as a real driver would
 * report it (at once here, where a real driver waits out its connect timeout): `refused.invalid`
 * refuses the connection, `auth.invalid` refuses the credentials, `timeout.invalid` never answers,
 * any other `.invalid` host cannot be resolved. Null for every other proxy.
 */
export function simulatedConnectFailure(proxy: ProxyConfig | null | undefined): ConnectFailure | null {
  const host = proxy?.host.toLowerCase();
  if (!host?.endsWith('.invalid')) return null;
  switch (host.slice(0, -'.invalid'.length)) {
    case 'refused':
      return connectFailure('proxy_refused', 'ECONNREFUSED', proxy);
    case 'auth':
      return connectFailure('proxy_auth', 'HTTP 407', proxy);
    case 'timeout':
      return connectFailure('timeout', 'timed out', proxy);
    default:
      return connectFailure('unreachable', 'ENOTFOUND', proxy);
  }
}

// ---------------------------------------------------------------------------------------------------
// Session

interface PendingOp {
  timer: NodeJS.Timeout;
  reject: (error: Error) => void;
}

class SimSession implements WhatsAppSession {
  private readonly listeners = new Set<DriverListener>();
  private readonly seedBase: number;
  private readonly ops: Rng;
  /** draws whether a sent message is delivered and read; made on the first send */
  private acks: Rng | null = null;
  private loginRng: Rng | null = null;
  /** the pairing or restore timeout */
  private mainTimer: NodeJS.Timeout | null = null;
  /** the QR / code refresh interval */
  private refreshTimer: NodeJS.Timeout | null = null;
  /** in-flight sends and checks; created on the first one */
  private pending: Set<PendingOp> | null = null;
  private state: DriverState = 'unknown';
  private info: ClientInfo | null = null;
  private started = false;
  private destroyed = false;
  private sent = 0;
  /** checks still to fail with a transient error (SimControl.failChecks) */
  failChecks = 0;
  /** sends and checks still to fail, and how (SimControl.fail) */
  failNext: { count: number; code: SendFailureCode } = { count: 0, code: 'failed' };
  /** the id of the last message this session sent (SimControl.revoke's default) */
  lastSentId: string | null = null;

  constructor(
    readonly clientId: string,
    private readonly options: SessionOptions,
    private readonly store: SessionStore,
    private readonly config: SimConfig,
    private readonly onDestroy: (session: SimSession) => void,
    private readonly onDelivered?: (delivery: SimDelivery) => void,
  ) {
    this.seedBase = combine(Math.trunc(config.seed), hashString(clientId));
    this.ops = new Rng(combine(this.seedBase, STREAM_OPS));
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  on(listener: DriverListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async start(): Promise<void> {
    if (this.destroyed) throw new Error(`sim session ${this.clientId} was destroyed`);
    if (this.started) throw new Error(`sim session ${this.clientId} was already started`);
    this.started = true;
    const proxy = this.options.proxy;
    if (proxy && (proxy.protocol === 'socks4' || proxy.protocol === 'socks5') && (proxy.username || proxy.password)) {
      throw new UnsupportedProxyError(`SOCKS proxies with a username or password are not supported (${proxy.host})`);
    }
    const blob = await this.store.load(this.clientId);
    if (this.destroyed) throw new Error(`sim session ${this.clientId} was destroyed while starting`);
    if (blob) {
      const info = parseStoredInfo(blob);
      if (info) {
        this.mainTimer = this.timer(this.config.restoreDelayMs, () => {
          this.mainTimer = null;
          this.becomeReady(info);
        });
        return;
      }
      this.emit({ type: 'auth_failure', message: 'the stored sim session is unreadable; a new login is needed' });
      if (this.destroyed) return;
    }
    const failure = simulatedConnectFailure(proxy);
    if (failure) {
      // like a real socket's: the failure comes after start() resolved
      this.mainTimer = this.timer(0, () => {
        this.mainTimer = null;
        this.state = 'disconnected';
        this.emit({ type: 'connect_failed', kind: failure.kind, message: failure.message });
      });
      return;
    }
    this.beginLogin();
  }

  async getState(): Promise<DriverState> {
    return this.state;
  }

  sendText(to: string, text: string): Promise<{ id: string }> {
    return this.send(to, text, null);
  }

  /** The delivery carries the size of the medium's file (null: no file there), so a suite sees what went out. */
  sendMedia(to: string, media: MediaFile, caption?: string): Promise<{ id: string }> {
    // read at once, not awaited: the outcome of a send depends only on the order of the calls
    let size: number | null = null;
    try {
      size = statSync(media.path, { throwIfNoEntry: false })?.size ?? null;
    } catch {
      // unreadable: recorded as no file
    }
    return this.send(to, caption ?? '', { name: media.filename, size });
  }

  async isRegistered(number: string): Promise<boolean> {
    this.requireConnected();
    const latency = this.latency();
    await this.wait(latency);
    this.requireConnected();
    if (this.failChecks > 0) {
      this.failChecks--;
      throw new SendError('failed', `sim: simulated check failure for ${number}`);
    }
    this.failIfTold(number);
    return simIsRegistered(this.config, number);
  }

  async logout(): Promise<void> {
    this.stopTimers();
    const wasLoggedOut = this.state === 'loggedOut';
    this.state = 'loggedOut';
    await this.store.delete(this.clientId);
    if (!wasLoggedOut) this.emit({ type: 'state', state: 'loggedOut' });
  }

  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.destroyed = true;
    this.stopTimers();
    this.listeners.clear();
    if (this.pending) {
      const ops = [...this.pending];
      this.pending = null;
      for (const op of ops) {
        clearTimeout(op.timer);
        op.reject(new SendError('not_connected', `sim session ${this.clientId} was destroyed`));
      }
    }
    this.onDestroy(this);
  }

  /** The control surface's state changes. */
  simulate(state: DriverState): void {
    if (this.destroyed) throw new Error(`sim session ${this.clientId} was destroyed`);
    if (state === 'connected' && (!this.info || this.state === 'loggedOut')) {
      throw new Error(`sim session ${this.clientId} cannot reconnect: it is not logged in`);
    }
    if (this.state === state) return;
    this.state = state;
    this.emit({ type: 'state', state });
  }

  // -------------------------------------------------------------------------------------------------

  private beginLogin(): void {
    this.loginRng = new Rng(combine(this.seedBase, STREAM_LOGIN));
    this.showChallenge();
    this.refreshTimer = this.timer(this.config.qrRefreshMs, () => this.showChallenge(), true);
    this.mainTimer = this.timer(this.config.pairDelayMs, () => {
      this.mainTimer = null;
      void this.completeLogin();
    });
  }

  /** emits a new QR, or a new pairing code when logging in with a number */
  private showChallenge(): void {
    const rng = this.loginRng;
    if (!rng || this.destroyed) return;
    if (this.options.pairingNumber) {
      this.emit({ type: 'code', code: rng.pick(CODE_CHARS, 8) });
    } else {
      const ref = `${rng.pick(BASE64, 42)}==`;
      const keys = [0, 1, 2].map(() => `${rng.pick(BASE64, 43)}=`);
      this.emit({ type: 'qr', qr: `2@${ref},${keys.join(',')}` });
    }
  }

  private async completeLogin(): Promise<void> {
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.refreshTimer = null;
    this.loginRng = null;
    const info = this.identity();
    try {
      await this.store.save(
        this.clientId,
        Buffer.from(JSON.stringify({ phonenumber: info.phonenumber, pushname: info.pushname })),
      );
    } catch (error) {
      this.emit({ type: 'auth_failure', message: `could not save the sim session: ${(error as Error).message}` });
      return;
    }
    if (this.state === 'loggedOut') {
      // logged out while saving: make sure the session we just saved does not survive
      await this.store.delete(this.clientId).catch(() => {});
      return;
    }
    if (this.destroyed) return;
    this.becomeReady(info);
  }

  private identity(): ClientInfo {
    const rng = new Rng(combine(this.seedBase, STREAM_IDENTITY));
    const prefix = PREFIXES[Math.floor(rng.next() * PREFIXES.length)];
    const rest = rng.pick('0123456789', rng.next() < 0.5 ? 7 : 8);
    const generated = `62${prefix}${rest}`;
    const phonenumber = (this.options.pairingNumber && digitsOf(this.options.pairingNumber)) || generated;
    return infoFor(phonenumber, `Sim ${phonenumber.slice(-4)}`);
  }

  /** authenticated → ready → state connected, stopping if a listener destroys or logs out the session */
  private becomeReady(info: ClientInfo): void {
    if (this.stopped()) return;
    this.emit({ type: 'authenticated' });
    if (this.stopped()) return;
    this.info = info;
    this.state = 'connected';
    this.emit({ type: 'ready', info });
    // a listener may have changed the state (disconnect, logout) or destroyed the session meanwhile
    if (this.stopped() || this.state !== 'connected') return;
    this.emit({ type: 'state', state: 'connected' });
  }

  /** emit() runs listeners, which may destroy or log out the session: re-read the fields */
  private stopped(): boolean {
    return this.destroyed || this.state === 'loggedOut';
  }

  private async send(
    to: string,
    text: string,
    media: { name: string; size: number | null } | null,
  ): Promise<{ id: string }> {
    this.requireConnected();
    // draw everything now, so the outcome depends only on the order of the calls
    const latency = this.latency();
    const fails = this.ops.next() < this.config.sendFailRate;
    const n = ++this.sent;
    const id = `true_${digitsOf(to)}@c.us_3EB0${this.ops.pick(HEX, 12)}${n.toString(16).toUpperCase()}`;
    await this.wait(latency);
    this.requireConnected();
    this.failIfTold(to);
    if (fails) throw new SendError('failed', `sim: simulated send failure to ${to}`);
    this.lastSentId = id;
    this.onDelivered?.({
      clientId: this.clientId,
      to,
      text,
      media: media?.name ?? null,
      mediaSize: media?.size ?? null,
      id,
    });
    this.scheduleAcks(id);
    return { id };
  }

  /**
   * The receipts of a sent message: delivered with probability deliverRate after ackDelayMs, then
   * read with probability readRate after as long again (from their own seeded stream, so sends and
   * checks draw as they did before receipts existed).
   */
  private scheduleAcks(messageId: string): void {
    this.acks ??= new Rng(combine(this.seedBase, STREAM_ACKS));
    const delivered = this.acks.next() < this.config.deliverRate;
    const read = this.acks.next() < this.config.readRate;
    if (!delivered) return;
    this.timer(this.config.ackDelayMs, () => {
      if (this.destroyed) return;
      this.emit({ type: 'ack', messageId, ack: 'delivered' });
      if (!read) return;
      this.timer(this.config.ackDelayMs, () => {
        if (!this.destroyed) this.emit({ type: 'ack', messageId, ack: 'read' });
      });
    });
  }

  /** the failures SimControl.fail asked for, one per send or check */
  private failIfTold(to: string): void {
    if (this.failNext.count <= 0) return;
    this.failNext.count--;
    const { code } = this.failNext;
    const why =
      code === 'rate_limited'
        ? 'rate-overlimit'
        : code === 'restricted'
          ? 'this account is restricted from sending'
          : 'simulated failure';
    throw new SendError(code, `sim: ${why} (${to})`);
  }

  /** What happens on WhatsApp's side besides the connection: a revoke, an incoming message, a ban. */
  happen(event: Extract<DriverEvent, { type: 'revoke' | 'message' | 'restricted' | 'ack' }>): void {
    if (this.destroyed) throw new Error(`sim session ${this.clientId} was destroyed`);
    if (this.state !== 'connected') throw new Error(`sim session ${this.clientId} is not connected (${this.state})`);
    this.emit(event);
  }

  private latency(): number {
    const [min, max] = this.config.sendLatencyMs;
    return min === max ? min : this.ops.int(Math.ceil(min), Math.floor(max));
  }

  private requireConnected(): void {
    if (this.destroyed) throw new SendError('not_connected', `sim session ${this.clientId} was destroyed`);
    if (this.state !== 'connected') {
      throw new SendError('not_connected', `sim session ${this.clientId} is not connected (${this.state})`);
    }
  }

  private wait(ms: number): Promise<void> {
    // no latency: no timer either (a timer waits at least 1 ms, which a blast at full speed notices)
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const op: PendingOp = {
        timer: setTimeout(() => {
          this.pending?.delete(op);
          resolve();
        }, ms),
        reject,
      };
      op.timer.unref();
      if (!this.pending) this.pending = new Set();
      this.pending.add(op);
    });
  }

  private timer(ms: number, run: () => void, repeat = false): NodeJS.Timeout {
    const handle = repeat ? setInterval(run, ms) : setTimeout(run, ms);
    handle.unref();
    return handle;
  }

  private stopTimers(): void {
    if (this.mainTimer) clearTimeout(this.mainTimer);
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    this.mainTimer = null;
    this.refreshTimer = null;
    this.loginRng = null;
  }

  private emit(event: DriverEvent): void {
    for (const listener of this.listeners) {
      if (this.destroyed) return;
      try {
        listener(event);
      } catch {
        // a broken listener must not break the session or the other listeners
      }
    }
  }
}

/** Whether the simulated WhatsApp has this number: fixed for a seed, true with probability registeredRate. */
export function simIsRegistered(config: Pick<SimConfig, 'seed' | 'registeredRate'>, number: string): boolean {
  const draw = new Rng(combine(Math.trunc(config.seed), hashString(`registered:${digitsOf(number)}`))).next();
  return draw < config.registeredRate;
}

// ---------------------------------------------------------------------------------------------------
// Driver

/** A message the simulated WhatsApp accepted. */
export interface SimDelivery {
  clientId: string;
  to: string;
  text: string;
  /** the medium's file name, when one was sent */
  media: string | null;
  /** the size in bytes of the medium's file on the sending host (null: no medium, or no file at its path) */
  mediaSize: number | null;
  id: string;
}

const FAIL_CODES: Record<SimFailKind, SendFailureCode> = {
  generic: 'failed',
  'rate-limit': 'rate_limited',
  restricted: 'restricted',
};

/**
 * SIM_SEND_LOG: one JSON line per accepted send, appended synchronously before the sender hears the
 * id, so the line survives a SIGKILL between the send and its outcome. The fault tier counts
 * duplicates and losses against it, across processes.
 */
function sendLogWriter(file: string): (delivery: SimDelivery) => void {
  return (d) =>
    appendFileSync(file, `${JSON.stringify({ deviceId: d.clientId, to: d.to, id: d.id, at: Date.now() })}\n`);
}

export class SimDriver implements WhatsAppDriver {
  readonly name = 'sim' as const;
  private readonly live = new Map<string, SimSession>();
  /** one shared callback, not one closure per session */
  private readonly forget = (session: SimSession) => {
    if (this.live.get(session.clientId) === session) this.live.delete(session.clientId);
  };
  private readonly deliveryListeners = new Set<(delivery: SimDelivery) => void>();
  private readonly delivered = (delivery: SimDelivery) => {
    for (const l of this.deliveryListeners) l(delivery);
  };

  constructor(
    private readonly store: SessionStore,
    private readonly config: SimConfig,
  ) {
    validateConfig(config);
    if (config.sendLog) this.deliveryListeners.add(sendLogWriter(config.sendLog));
  }

  createSession(options: SessionOptions): WhatsAppSession {
    if (this.live.has(options.clientId)) {
      throw new Error(`a live sim session already exists for ${options.clientId}; destroy it first`);
    }
    const session = new SimSession(options.clientId, options, this.store, this.config, this.forget, this.delivered);
    this.live.set(options.clientId, session);
    return session;
  }

  /** Control a live session; throws when there is none for this clientId. */
  control(clientId: string): SimControl {
    const session = this.live.get(clientId);
    if (!session) throw new Error(`no live sim session for ${clientId}`);
    return {
      disconnect: () => session.simulate('disconnected'),
      reconnect: () => session.simulate('connected'),
      conflict: () => session.simulate('conflict'),
      suspend: () => session.simulate('suspended'),
      failChecks: (n: number) => {
        session.failChecks = n;
      },
      fail: (count, kind) => {
        session.failNext = { count, code: FAIL_CODES[kind] };
      },
      revoke: (messageId) => {
        const id = messageId ?? session.lastSentId;
        if (!id) throw new Error(`sim session ${clientId} has sent no message to revoke`);
        session.happen({ type: 'revoke', messageId: id });
        return id;
      },
      reply: ({ from, text, buttonId }) => {
        session.happen({ type: 'message', from: digitsOf(from), text: text ?? '', ...(buttonId ? { buttonId } : {}) });
      },
      ban: (reason) => session.happen({ type: 'restricted', reason: reason ?? 'sim: temporarily banned' }),
      ack: (messageId, ack) => session.happen({ type: 'ack', messageId, ack }),
      logout: async () => {
        if (session.isDestroyed) throw new Error(`sim session ${clientId} was destroyed`);
        await session.logout();
      },
    };
  }

  /** Hears every message a session delivers (tests check who got what); returns the unsubscribe. */
  onDelivered(listener: (delivery: SimDelivery) => void): () => void {
    this.deliveryListeners.add(listener);
    return () => this.deliveryListeners.delete(listener);
  }

  /** how many sessions are created and not destroyed */
  liveCount(): number {
    return this.live.size;
  }

  async close(): Promise<void> {
    await Promise.all([...this.live.values()].map((session) => session.destroy()));
  }
}
