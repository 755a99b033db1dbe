import type { ClientInfo } from '@wa/shared';

/**
 * The one port between the engine and WhatsApp. Two implementations: `wwebjs` (whatsapp-web.js on
 * the system Chromium) and `sim` (a deterministic simulator for tests, demos and benchmarks).
 * `WA_DRIVER` selects. The engine (session manager) never imports an implementation directly.
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

export interface SessionOptions {
  /** the device id (`clientid`, id-{timestamp}-{random}); also the key of the stored session */
  clientId: string;
  /** log in with a pairing code for this number (62…) instead of a QR code */
  pairingNumber?: string | null;
  proxy?: ProxyConfig | null;
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
  | { type: 'broken'; message: string };

export type DriverListener = (event: DriverEvent) => void;

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
  /** WhatsApp refused the message for this account (rate limit, ban) */
  | 'refused'
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

/** Chromium cannot authenticate to SOCKS proxies, so a driver refuses them with this error. */
export class UnsupportedProxyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedProxyError';
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
  readonly name: 'wwebjs' | 'sim';
  createSession(options: SessionOptions): WhatsAppSession;
  /** frees shared resources (browsers, timers) */
  close(): Promise<void>;
}
