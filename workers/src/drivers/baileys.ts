import { access } from 'node:fs/promises';
import type { Agent } from 'node:https';
import type { Logger } from '@wa/core/logger';
import type {
  AnyMessageContent,
  BaileysEventMap,
  ConnectionState,
  SocketConfig,
  UserFacingSocketConfig,
  WAMessage,
} from '@whiskeysockets/baileys';
import makeWASocket, { Browsers, DisconnectReason, proto, WAMessageStubType } from '@whiskeysockets/baileys';
import pino from 'pino';
import { type AuthKeyStore, type StoredAuthState, storedAuthState } from './baileys-auth';
import { incomingOf } from './baileys-messages';
import { connectFailure, connectFailureOf, DEFAULT_CONNECT_TIMEOUT_MS } from './connect-failure';
import { proxyAgent } from './proxy-agent';
import {
  type AckKind,
  type ClientInfo,
  type ConnectFailure,
  type DriverEvent,
  type DriverListener,
  type DriverState,
  type MediaFile,
  SendError,
  type SendFailureCode,
  type SessionOptions,
  type SessionStore,
  type WhatsAppDriver,
  type WhatsAppSession,
} from './types';

/**
 * The browserless engine: WhatsApp's multi-device protocol over one WebSocket per account
 * (@whiskeysockets/baileys), no Chromium. Credentials and signal keys live in PostgreSQL
 * (baileys-auth.ts), so any worker restores any account, as with whatsapp-web.js. No message or
 * chat store is kept in memory: an unbounded store is what makes long-running Baileys processes
 * grow (bench/README.md), and the engine needs none of it.
 */

/** What the driver uses of a Baileys socket; tests give a fake that emits Baileys' real event shapes. */
export interface SocketLike {
  ev: {
    on<E extends keyof BaileysEventMap>(event: E, listener: (arg: BaileysEventMap[E]) => void): void;
    removeAllListeners(event: keyof BaileysEventMap): void;
  };
  user?: { id: string; name?: string } | undefined;
  requestPairingCode(phoneNumber: string): Promise<string>;
  sendMessage(jid: string, content: AnyMessageContent): Promise<WAMessage | undefined>;
  onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): void;
  /** Baileys' WebSocket client (absent in fakes that need no network) */
  ws?: WsLike;
}

/**
 * What the driver watches of Baileys' WebSocket client: `open` (WhatsApp reached, through the proxy
 * if any) and `unexpected-response` (the proxy or the server answered the upgrade with an HTTP
 * status, such as a proxy's 407: Baileys listens to it, so ws raises no error and nothing else
 * would end the socket).
 */
export interface WsLike {
  on(event: 'open' | 'unexpected-response', listener: (...args: unknown[]) => void): unknown;
}

/** Makes the socket of one session (`clientId`: the device id, which tests' fakes key their WhatsApp by). */
export type SocketFactory = (config: UserFacingSocketConfig, clientId: string) => SocketLike;

export interface BaileysDriverOptions {
  store: SessionStore;
  keys: AuthKeyStore;
  /** Baileys logs through a child of this at `error` (it is chatty below that) */
  logger?: Logger;
  /** default: Baileys' own makeWASocket */
  socketFactory?: SocketFactory;
  /** WhatsApp's WebSocket address; the memory benchmark points it at a local stand-in */
  waWebSocketUrl?: string;
  /** waits before reconnecting a dropped session, one per attempt in a row (the last repeats) */
  reconnectDelaysMs?: readonly number[];
  /**
   * how long a login's WebSocket may take to open (DEFAULT_CONNECT_TIMEOUT_MS) before it fails as
   * timed out; once open, a slow QR is waited for
   */
  connectTimeoutMs?: number;
  /**
   * The text of a message this account sent, by its id: WhatsApp asks the sender to encrypt a
   * message again when a recipient's device could not decrypt it ("waiting for this message"), and
   * Baileys can only answer with the message in hand. The message log has it; nothing is kept in memory.
   */
  sentText?: (clientId: string, messageId: string) => Promise<string | null>;
}

const DEFAULT_RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000, 30_000, 60_000];
const LOGOUT_TIMEOUT_MS = 10_000;

/** Baileys' message status (proto.WebMessageInfo.Status) as our receipts; PENDING says nothing yet. */
const STATUS_ACKS = new Map<number, AckKind>([
  [proto.WebMessageInfo.Status.ERROR, 'failed'],
  [proto.WebMessageInfo.Status.SERVER_ACK, 'server'],
  [proto.WebMessageInfo.Status.DELIVERY_ACK, 'delivered'],
  [proto.WebMessageInfo.Status.READ, 'read'],
  [proto.WebMessageInfo.Status.PLAYED, 'read'],
]);

/** A close reason (Baileys' Boom status code) → what the session does next. */
export type CloseAction = 'restart' | 'loggedOut' | 'conflict' | 'banned' | 'badSession' | 'retry';

export function closeAction(statusCode: number | undefined): CloseAction {
  switch (statusCode) {
    case DisconnectReason.restartRequired:
      return 'restart';
    case DisconnectReason.loggedOut:
      return 'loggedOut';
    case DisconnectReason.connectionReplaced:
      return 'conflict';
    case DisconnectReason.forbidden:
      return 'banned';
    case DisconnectReason.badSession:
    case DisconnectReason.multideviceMismatch:
      return 'badSession';
    default:
      // connectionLost/timedOut (408), connectionClosed (428), unavailableService (503), unknown
      return 'retry';
  }
}

/** A failed send's or check's kind: WhatsApp's rate limit (429) and a banned account (403) are ban signals. */
export function baileysFailure(error: unknown): SendFailureCode {
  const status = (error as { output?: { statusCode?: number } } | null)?.output?.statusCode;
  const message = error instanceof Error ? error.message : String(error);
  if (status === 429 || /rate-?overlimit|too many requests/i.test(message)) return 'rate_limited';
  if (status === 403 || /forbidden|banned|restricted/i.test(message)) return 'restricted';
  if (status === DisconnectReason.connectionClosed || /connection closed/i.test(message)) return 'not_connected';
  return 'failed';
}

function statusCodeOf(update: Partial<ConnectionState>): number | undefined {
  return (update.lastDisconnect?.error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
}

/** `6281…@s.whatsapp.net:12` / `6281…:3@s.whatsapp.net` → the ClientInfo of the live `authenticated` event. */
export function toClientInfo(user: SocketLike['user']): ClientInfo {
  const id = user?.id ?? '';
  const [local = '', server = ''] = id.split('@');
  const phonenumber = local.split(':')[0] ?? '';
  return { phonenumber, pushname: user?.name ?? '', server, serialized: phonenumber ? `${phonenumber}@${server}` : '' };
}

export class BaileysDriver implements WhatsAppDriver {
  readonly name = 'baileys' as const;
  private readonly sessions = new Set<BaileysSession>();

  constructor(private readonly options: BaileysDriverOptions) {}

  createSession(options: SessionOptions): WhatsAppSession {
    const session = new BaileysSession(options, this.options, () => this.sessions.delete(session));
    this.sessions.add(session);
    return session;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.destroy()));
  }
}

class BaileysSession implements WhatsAppSession {
  readonly clientId: string;
  private phase: 'idle' | 'started' | 'destroyed' = 'idle';
  private state: DriverState = 'unknown';
  private socket: SocketLike | null = null;
  private auth: StoredAuthState | null = null;
  private readonly listeners = new Set<DriverListener>();
  /** a stored session was loaded and WhatsApp has not accepted it yet */
  private restoring = false;
  /** logged out, replaced, banned or restore failed: no reconnects, no more codes */
  private terminal = false;
  /** drops in a row since the last open connection (picks the reconnect delay) */
  private retries = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** the pairing code is asked for once per login (WhatsApp shows the newest code only) */
  private codeRequested = false;
  private authenticatedSent = false;
  /** WhatsApp sent a login prompt (a QR, or the moment to ask for a pairing code): a login that drops after that ends as before, not as a connect failure */
  private codeShown = false;
  /** a login's wait for its WebSocket to open (connectTimeoutMs) */
  private connectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly options: SessionOptions,
    private readonly config: BaileysDriverOptions,
    private readonly onDestroyed: () => void,
  ) {
    this.clientId = options.clientId;
  }

  on(listener: DriverListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async start(): Promise<void> {
    if (this.phase !== 'idle') throw new Error(`session ${this.clientId} was already started`);
    this.phase = 'started';
    try {
      this.auth = await storedAuthState(this.clientId, this.config.store, this.config.keys);
      this.restoring = this.auth.restored;
      if (this.isDestroyed()) throw new Error(`session ${this.clientId} was destroyed while starting`);
      this.connect();
    } catch (error) {
      await this.destroy();
      throw new Error(`Baileys could not start ${this.clientId}: ${errorMessage(error)}`, { cause: error });
    }
  }

  async getState(): Promise<DriverState> {
    return this.state;
  }

  sendText(to: string, text: string): Promise<{ id: string }> {
    return this.send('sendText', to, { text });
  }

  async sendMedia(to: string, media: MediaFile, caption?: string): Promise<{ id: string }> {
    try {
      await access(media.path);
    } catch (error) {
      throw new SendError('failed', `cannot read media ${media.path}: ${errorMessage(error)}`);
    }
    return this.send('sendMedia', to, mediaContent(media, caption));
  }

  async isRegistered(number: string): Promise<boolean> {
    const digits = number.replace(/\D/g, '');
    return this.call('isRegistered', async (socket) =>
      digits ? registered(socket, `${digits}@s.whatsapp.net`) : false,
    );
  }

  /** Logs out on WhatsApp (best effort), deletes the stored session and its keys, destroys. */
  async logout(): Promise<void> {
    this.terminal = true;
    const socket = this.socket;
    if (socket && this.state === 'connected') {
      await withTimeout(socket.logout(), LOGOUT_TIMEOUT_MS).catch(() => {});
    }
    await this.deleteStored();
    this.setState('loggedOut', 'LOGOUT');
    await this.destroy();
  }

  async destroy(): Promise<void> {
    if (this.phase === 'destroyed') return;
    this.phase = 'destroyed';
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopConnectTimer();
    this.closeSocket();
    this.listeners.clear();
    this.onDestroyed();
  }

  // ---- the connection ----

  private connect(): void {
    const auth = this.auth;
    if (!auth || this.isDestroyed()) return;
    this.codeRequested = false;
    // the account's proxy for the WebSocket and the media uploads; SOCKS with credentials works here
    const agent = proxyAgent(this.options.proxy) as Agent | undefined;
    const parent = this.config.logger ?? pino({ level: 'silent' });
    const logger = parent.child(
      { engine: 'baileys', deviceId: this.clientId },
      { level: quieter(parent.level, 'error') },
    );
    const config: UserFacingSocketConfig = {
      auth: auth.state,
      logger: logger as unknown as SocketConfig['logger'],
      browser: Browsers.macOS('Chrome'),
      // a rented account is a sender: no history, no presence, nothing kept about its chats
      syncFullHistory: false,
      shouldSyncHistoryMessage: () => false,
      markOnlineOnConnect: false,
      getMessage: async (key) => {
        const text = key.id && this.config.sentText ? await this.config.sentText(this.clientId, key.id) : null;
        return text === null ? undefined : { conversation: text };
      },
      ...(agent ? { agent, fetchAgent: agent } : {}),
      ...(this.config.waWebSocketUrl ? { waWebSocketUrl: this.config.waWebSocketUrl } : {}),
    };
    const factory = this.config.socketFactory ?? ((c: UserFacingSocketConfig) => makeWASocket(c) as SocketLike);
    const socket = factory(config, this.clientId);
    this.socket = socket;
    socket.ev.on('creds.update', (update) => this.onCreds(socket, update));
    socket.ev.on('connection.update', (update) => void this.onConnection(socket, update));
    socket.ev.on('messages.update', (updates) => this.onMessageUpdates(updates));
    socket.ev.on('message-receipt.update', (updates) => this.onReceipts(updates));
    socket.ev.on('messages.upsert', ({ messages, type }) => {
      if (type === 'notify') for (const m of messages) this.onIncoming(m);
    });
    this.watchConnect(socket);
  }

  /** A fresh login, nothing shown yet: only now can the connection fail as a connect failure. */
  private isFreshLogin(): boolean {
    return !this.isLoggedIn() && !this.restoring && !this.codeShown && !this.terminal;
  }

  /**
   * A login's WebSocket must open within connectTimeoutMs (a proxy or a network that swallows the
   * connection gives no error for minutes); an HTTP answer to the upgrade (a proxy's 407) ends it
   * at once, for any session.
   */
  private watchConnect(socket: SocketLike): void {
    socket.ws?.on('unexpected-response', (_req, res) => {
      if (socket !== this.socket) return;
      const status = (res as { statusCode?: number } | undefined)?.statusCode ?? 0;
      const error = Object.assign(new Error(`Unexpected server response: ${status}`), {
        output: { statusCode: status },
      });
      const failure = this.isFreshLogin() ? connectFailureOf(error, this.options.proxy, this.connectTimeoutMs()) : null;
      if (failure) this.connectFailed(failure);
      // anything else closes as a lost connection (a logged-in account retries)
      else socket.end(error);
    });
    if (!this.isFreshLogin()) return;
    this.stopConnectTimer();
    const ms = this.connectTimeoutMs();
    socket.ws?.on('open', () => {
      if (socket === this.socket) this.stopConnectTimer();
    });
    this.connectTimer = setTimeout(() => {
      this.connectTimer = null;
      if (socket !== this.socket || !this.isFreshLogin()) return;
      this.connectFailed(connectFailure('timeout', 'timed out', this.options.proxy, ms));
    }, ms);
    this.connectTimer.unref();
  }

  private connectTimeoutMs(): number {
    return this.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  }

  private stopConnectTimer(): void {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  /** The login never reached WhatsApp: it is over, and the engine tells the create page why. */
  private connectFailed(failure: ConnectFailure): void {
    this.terminal = true;
    this.stopConnectTimer();
    this.closeSocket();
    // no state event: connect_failed says the session is down and over
    this.state = 'disconnected';
    this.config.logger?.warn({ deviceId: this.clientId, err: failure.cause ?? failure }, 'login could not connect');
    this.emit({ type: 'connect_failed', kind: failure.kind, message: failure.message });
  }

  private onCreds(socket: SocketLike, update: BaileysEventMap['creds.update']): void {
    if (socket !== this.socket) return;
    // the phone scanned the QR or entered the code: WhatsApp signed this device (pair-success)
    if (update.account && !this.authenticatedSent) this.authenticated();
    this.auth
      ?.saveCreds()
      .catch((err) => this.config.logger?.error({ err, deviceId: this.clientId }, 'creds not saved'));
  }

  private async onConnection(socket: SocketLike, update: Partial<ConnectionState>): Promise<void> {
    if (socket !== this.socket || this.isDestroyed()) return;
    if (update.qr) await this.onLoginPrompt(socket, update.qr);
    if (update.connection === 'open') this.onOpen(socket);
    if (update.connection === 'close') {
      const statusCode = statusCodeOf(update);
      const error = update.lastDisconnect?.error;
      // a transport error never reached WhatsApp, whatever status Baileys gave it (an unknown
      // WebSocket error is 500, which would read as WhatsApp refusing the stored session)
      const transport = connectFailureOf(error, this.options.proxy, this.connectTimeoutMs());
      // a login that never showed a code and closes as a lost connection could not reach WhatsApp
      if (this.isFreshLogin() && (transport || closeAction(statusCode) === 'retry')) {
        const failure =
          transport ??
          connectFailure(
            this.options.proxy ? 'proxy_refused' : 'unreachable',
            `closed ${statusCode ?? 'without a reason'}`,
            this.options.proxy,
            this.connectTimeoutMs(),
            error,
          );
        return this.connectFailed(failure);
      }
      await this.onClose(statusCode, transport !== null);
    }
  }

  private async onLoginPrompt(socket: SocketLike, qr: string): Promise<void> {
    if (this.terminal) return;
    if (this.restoring) {
      // WhatsApp asks for a new login although we restored a stored session: it is no longer valid
      return this.fail('the stored session could not be restored: WhatsApp asked for a new login', 'RESTORE_FAILED');
    }
    const phone = this.options.pairingNumber?.replace(/\D/g, '');
    // WhatsApp answered over the socket: from here on a slow login is waited for, and a drop is no
    // connect failure (a pairing code WhatsApp has not issued yet included)
    this.stopConnectTimer();
    this.codeShown = true;
    if (!phone) return this.emit({ type: 'qr', qr });
    // the socket is connecting now (the QR came over it): the moment WhatsApp accepts a code request
    if (this.codeRequested) return;
    this.codeRequested = true;
    try {
      this.emit({ type: 'code', code: await socket.requestPairingCode(phone) });
    } catch (error) {
      this.codeRequested = false;
      this.config.logger?.warn({ err: error, deviceId: this.clientId }, 'pairing code not issued');
    }
  }

  private onOpen(socket: SocketLike): void {
    this.restoring = false;
    this.retries = 0;
    if (!this.authenticatedSent) this.authenticated();
    this.emit({ type: 'ready', info: toClientInfo(socket.user) });
    this.setState('connected');
  }

  private async onClose(statusCode: number | undefined, transport = false): Promise<void> {
    this.closeSocket();
    if (this.terminal) return;
    const reason = statusCode === undefined ? undefined : String(statusCode);
    switch (transport ? 'retry' : closeAction(statusCode)) {
      case 'restart':
        // after a pairing WhatsApp closes once and expects the same credentials to log in again
        return this.connect();
      case 'loggedOut':
        if (this.restoring) return this.fail('the stored session was logged out on the phone', reason);
        this.terminal = true;
        await this.deleteStored();
        return this.setState('loggedOut', reason);
      case 'badSession':
        return this.fail(`WhatsApp refused the stored session (${reason})`, reason);
      case 'conflict':
        // open on another device: done here; the stored session still logs in (POST reconnect)
        this.terminal = true;
        return this.setState('conflict', reason);
      case 'banned':
        this.terminal = true;
        this.emit({ type: 'restricted', reason: `WhatsApp refused the account (${reason})` });
        return this.setState('disconnected', reason);
      case 'retry':
        this.setState('disconnected', reason);
        // a login nobody completed ends here (the create page's countdown says so); a logged-in
        // account comes back by itself
        if (this.isLoggedIn()) this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    const delays = this.config.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS_MS;
    const delay = delays[Math.min(this.retries, delays.length - 1)] ?? 1000;
    this.retries += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.terminal) this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  /** The stored session is useless: say so, delete it, and end as logged out. */
  private async fail(message: string, reason: string | undefined): Promise<void> {
    this.restoring = false;
    this.terminal = true;
    this.closeSocket();
    await this.deleteStored();
    this.emit({ type: 'auth_failure', message });
    this.setState('loggedOut', reason);
  }

  private authenticated(): void {
    this.authenticatedSent = true;
    this.emit({ type: 'authenticated' });
  }

  private isLoggedIn(): boolean {
    return Boolean(this.auth?.state.creds.account);
  }

  private closeSocket(): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    for (const e of [
      'creds.update',
      'connection.update',
      'messages.update',
      'message-receipt.update',
      'messages.upsert',
    ] as const) {
      socket.ev.removeAllListeners(e);
    }
    try {
      socket.end(undefined);
    } catch {
      // already closed
    }
  }

  private async deleteStored(): Promise<void> {
    await this.config.store.delete(this.clientId).catch(() => {});
    await this.config.keys.clear(this.clientId).catch(() => {});
  }

  // ---- what WhatsApp tells ----

  /** Receipts (status updates) and revokes of this account's own messages. */
  private onMessageUpdates(updates: BaileysEventMap['messages.update']): void {
    for (const { key, update } of updates) {
      if (!key.fromMe || !key.id) continue;
      if (update.message === null && update.messageStubType === WAMessageStubType.REVOKE) {
        this.emit({ type: 'revoke', messageId: key.id });
        continue;
      }
      const ack = update.status == null ? undefined : STATUS_ACKS.get(update.status);
      if (ack) this.emit({ type: 'ack', messageId: key.id, ack });
    }
  }

  /** Per-recipient receipts (what WhatsApp sends for a message's devices): delivered, then read. */
  private onReceipts(updates: BaileysEventMap['message-receipt.update']): void {
    for (const { key, receipt } of updates) {
      if (!key.fromMe || !key.id) continue;
      if (receipt.readTimestamp || receipt.playedTimestamp) this.emit({ type: 'ack', messageId: key.id, ack: 'read' });
      else if (receipt.receiptTimestamp) this.emit({ type: 'ack', messageId: key.id, ack: 'delivered' });
    }
  }

  private onIncoming(message: WAMessage): void {
    const incoming = incomingOf(message);
    if (incoming) this.emit({ type: 'message', ...incoming });
  }

  // ---- calls ----

  private send(what: string, to: string, content: AnyMessageContent): Promise<{ id: string }> {
    const digits = to.replace(/\D/g, '');
    return this.call(what, async (socket) => {
      if (!digits) throw new SendError('not_registered', `"${to}" is not a phone number`);
      const jid = `${digits}@s.whatsapp.net`;
      if (!(await registered(socket, jid))) throw new SendError('not_registered', `${to} is not on WhatsApp`);
      const sent = await socket.sendMessage(jid, content);
      const id = sent?.key?.id;
      if (!id) throw new SendError('failed', 'WhatsApp did not return the sent message');
      return { id };
    });
  }

  /** Runs a call that needs a connected socket, translating Baileys' errors into SendError. */
  private async call<T>(what: string, fn: (socket: SocketLike) => Promise<T>): Promise<T> {
    const socket = this.socket;
    if (!socket || this.state !== 'connected') {
      throw new SendError('not_connected', `${this.clientId} is not connected (${this.state})`);
    }
    try {
      return await fn(socket);
    } catch (error) {
      if (error instanceof SendError) throw error;
      throw new SendError(baileysFailure(error), `${what} failed: ${errorMessage(error)}`);
    }
  }

  private isDestroyed(): boolean {
    return this.phase === 'destroyed';
  }

  private setState(state: DriverState, reason?: string): void {
    if (state === this.state) return;
    this.state = state;
    this.emit(reason === undefined ? { type: 'state', state } : { type: 'state', state, reason });
  }

  private emit(event: DriverEvent): void {
    if (this.isDestroyed()) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // a listener's bug must not reach Baileys' event loop
      }
    }
  }
}

async function registered(socket: SocketLike, jid: string): Promise<boolean> {
  const [found] = (await socket.onWhatsApp(jid)) ?? [];
  return Boolean(found?.exists);
}

/** A stored upload as Baileys content: pictures and videos with their caption, other files as documents. */
export function mediaContent(media: MediaFile, caption?: string): AnyMessageContent {
  const file = { url: media.path };
  const { mimetype } = media;
  if (mimetype.startsWith('image/')) return { image: file, mimetype, ...(caption ? { caption } : {}) };
  if (mimetype.startsWith('video/')) return { video: file, mimetype, ...(caption ? { caption } : {}) };
  return { document: file, mimetype, fileName: media.filename, ...(caption ? { caption } : {}) };
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** The quieter of two pino levels: Baileys logs at `error` at most, and never louder than the worker. */
function quieter(a: string, b: string): string {
  return LEVELS.indexOf(a) > LEVELS.indexOf(b) ? a : b;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
