import type { ClientInfo, WaEngine } from '@wa/shared';

/**
 * The one port between the engine and WhatsApp. Three implementations: `wwebjs` (whatsapp-web.js
 * on the system Chromium), `baileys` (browserless, one WebSocket per account) and `sim` (a
 * deterministic simulator for tests, demos and benchmarks). `WA_DRIVER` selects the simulator or
 * the installation's default engine; an account records the engine it logged in with. The engine
 * (session manager) never imports an implementation directly.
 */

/** The account states the UI shows (§4), as the driver reports them. */
export type DriverState = 'connected' | 'loggedOut' | 'conflict' | 'disconnected' | 'unknown' | 'suspended';

export const DRIVER_STATES: readonly DriverState[] = [
  'connected',
  'loggedOut',
  'conflict',
  'disconnected',
  'unknown',
  'suspended',
];

/** What WhatsApp tells about the logged-in account: the `clientInfo` of the live `authenticated` event. */
export type { ClientInfo };

export interface ProxyConfig {
  protocol: 'http' | 'https' | 'socks4' | 'socks5';
  host: string;
  port: number;
  username?: string;
  password?: string;
}

/** The real engines an account can run on (the simulator stands in for both). */
export type Engine = WaEngine;

export interface SessionOptions {
  /** the device id (`clientid`, id-{timestamp}-{random}); also the key of the stored session */
  clientId: string;
  /** log in with a pairing code for this number (62…) instead of a QR code */
  pairingNumber?: string | null;
  proxy?: ProxyConfig | null;
  /** the engine the account's stored session belongs to (null: a session from before engines, whatsapp-web.js) */
  engine?: Engine | null;
}

/**
 * Events a session emits, in the order a login produces them:
 * qr | code (repeated until scanned) → authenticated → ready (with the account's info) → state…
 */
export type DriverEvent =
  | { type: 'qr'; qr: string }
  | { type: 'code'; code: string }
  | { type: 'authenticated' }
  | { type: 'ready'; info: ClientInfo }
  /** the session moved to another state; `reason` is the raw driver reason when there is one */
  | { type: 'state'; state: DriverState; reason?: string }
  /** the stored session could not be restored (a QR appeared instead, or auth failed) */
  | { type: 'auth_failure'; message: string }
  /** the underlying client broke (detached frame, destroyed context…) and must be rebuilt */
  | { type: 'broken'; message: string }
  /**
   * a receipt for a message this account sent: WhatsApp's server took it ('server'), the target's
   * phone got it ('delivered'), the target read it ('read'), or it could not be delivered ('failed')
   */
  | { type: 'ack'; messageId: string; ack: AckKind }
  /** a message this account sent was deleted for everyone (from the member's phone) */
  | { type: 'revoke'; messageId: string }
  /**
   * a message to this account: `from` is the sender's number (62…), `buttonId` the id of the
   * template button pressed when it is a button reply
   */
  | { type: 'message'; from: string; text: string; buttonId?: string }
  /** WhatsApp restricted the account for a while (a temporary ban, a terms-of-service block) */
  | { type: 'restricted'; reason: string }
  /**
   * a login (no stored session) could not connect before it showed any code: WhatsApp or the proxy
   * could not be reached, refused, or did not answer in time. The session is over and disconnected
   * (no state event follows); `message` is for the create page (ConnectFailure)
   */
  | { type: 'connect_failed'; kind: ConnectFailureKind; message: string };

export type DriverListener = (event: DriverEvent) => void;

/** What a receipt says of a sent message, in the order they come. */
export type AckKind = 'server' | 'delivered' | 'read' | 'failed';

export interface MediaFile {
  /** absolute path of the file on this host */
  path: string;
  mimetype: string;
  filename: string;
}

/** Why a send or check failed, so the engine can count it and decide what to do next. */
export type SendFailureCode =
  /** the target is not on WhatsApp */
  | 'not_registered'
  /** the session is not connected */
  | 'not_connected'
  /** WhatsApp refused the message for this account (a ban) */
  | 'refused'
  /** WhatsApp says this account sends or checks too fast */
  | 'rate_limited'
  /** WhatsApp restricted this account (a temporary ban, a terms-of-service block) */
  | 'restricted'
  /** anything else: timeouts, browser errors */
  | 'failed';

export class SendError extends Error {
  constructor(
    readonly code: SendFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'SendError';
  }
}

/** Chromium cannot authenticate to SOCKS proxies, so the wwebjs driver refuses them with this error (Baileys can). */
export class UnsupportedProxyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedProxyError';
  }
}

/** Why a connection failed: see ConnectFailure. */
export type ConnectFailureKind = 'unreachable' | 'proxy_refused' | 'proxy_auth' | 'timeout';

/**
 * A session could not connect to WhatsApp (start() rejects with it, or a login's `connect_failed`
 * event carries its kind and message). The message names the cause for the user (LOGIN_TEXTS); the
 * raw error, which may hold the proxy's address, stays in `cause` for the logs.
 */
export class ConnectFailure extends Error {
  constructor(
    readonly kind: ConnectFailureKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ConnectFailure';
  }
}

/** One WhatsApp account's live client. */
export interface WhatsAppSession {
  readonly clientId: string;
  /** subscribe to events; returns the unsubscribe function */
  on(listener: DriverListener): () => void;
  /**
   * Starts the client: restores the stored session when one exists, else begins a QR or pairing
   * login. Resolves once the client is initialising (events follow); rejects when it cannot start
   * (bad proxy, browser missing, initialisation timeout).
   */
  start(): Promise<void>;
  /** the state right now ('unknown' while starting) */
  getState(): Promise<DriverState>;
  /** sends a text message; `to` is a number with the 62 prefix; throws SendError */
  sendText(to: string, text: string): Promise<{ id: string }>;
  /** sends a media message with an optional caption; throws SendError */
  sendMedia(to: string, media: MediaFile, caption?: string): Promise<{ id: string }>;
  /** whether a number is on WhatsApp; throws SendError when the session cannot check */
  isRegistered(number: string): Promise<boolean>;
  /** logs the account out on WhatsApp and deletes the stored session */
  logout(): Promise<void>;
  /** stops the client and frees its resources; the stored session is kept */
  destroy(): Promise<void>;
}

/** Where sessions are persisted so any worker can restore any account (a RemoteAuth store). */
export interface SessionStore {
  exists(clientId: string): Promise<boolean>;
  save(clientId: string, data: Buffer): Promise<void>;
  load(clientId: string): Promise<Buffer | null>;
  delete(clientId: string): Promise<void>;
}

export interface WhatsAppDriver {
  readonly name: Engine | 'sim' | 'engines';
  createSession(options: SessionOptions): WhatsAppSession;
  /** the simulator only: make things happen on WhatsApp's side of a live session (throws when there is none) */
  control?(clientId: string): SimControl;
  /** frees shared resources (browsers, timers) */
  close(): Promise<void>;
}

/** What a test or demo can do to a live simulated session, as if it happened on WhatsApp's side. */
export interface SimControl {
  /** the connection dropped: state disconnected */
  disconnect(): void;
  /** back to connected (only for a session that has logged in) */
  reconnect(): void;
  /** the account was opened elsewhere: state conflict */
  conflict(): void;
  /** the account was logged out from the phone: stored session deleted, state loggedOut */
  logout(): Promise<void>;
  /** the account was banned: state suspended */
  suspend(): void;
  /** the next `n` number checks fail with a transient error ('failed') */
  failChecks(n: number): void;
  /** the next `count` sends and checks fail: generic ('failed'), 'rate-limit' or 'restricted' */
  fail(count: number, kind: SimFailKind): void;
  /** the member deleted a sent message for everyone: `messageId`, or the last one this session sent; returns its id */
  revoke(messageId?: string): string;
  /** a target wrote to the account: a text, or a press of a template button */
  reply(message: { from: string; text?: string; buttonId?: string }): void;
  /** WhatsApp restricted the account for a while (a temporary ban) */
  ban(reason?: string): void;
  /** a receipt of a message arrives now (as after a restart, WhatsApp sends the ones it still owes) */
  ack(messageId: string, ack: AckKind): void;
}

/** How SimControl.fail makes sends and checks fail. */
export type SimFailKind = 'generic' | 'rate-limit' | 'restricted';
