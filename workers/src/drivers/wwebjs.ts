import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AuthStrategy, ClientOptions, MessageMedia as WMessageMedia } from 'whatsapp-web.js';
import pkg from 'whatsapp-web.js';
import { connectFailure, connectFailureOf, DEFAULT_CONNECT_TIMEOUT_MS } from './connect-failure';
import {
  type AckKind,
  type ClientInfo,
  type DriverEvent,
  type DriverListener,
  type DriverState,
  type MediaFile,
  type ProxyConfig,
  SendError,
  type SessionOptions,
  type SessionStore,
  UnsupportedProxyError,
  type WhatsAppDriver,
  type WhatsAppSession,
} from './types';
import { RemoteAuthStoreAdapter, SafeRemoteAuth } from './wwebjs-store';

const { Client, MessageMedia } = pkg;

/**
 * The `wwebjs` driver: one whatsapp-web.js 1.34 `Client` (WhatsApp Web in the system Chromium,
 * driven by puppeteer) per account, persisted with RemoteAuth into our `SessionStore`.
 *
 * Traits of whatsapp-web.js this driver handles (see the tests, which pin each one):
 * - `initialize()` navigates with `timeout: 0`, so an endpoint that never answers hangs it forever:
 *   start() rejects with a timed-out ConnectFailure when the page has had no response
 *   `connectTimeoutMs` after the browser is up, and races the whole load against `initTimeoutMs`;
 *   either way it destroys the client.
 * - Offline, `initialize()` rejects quickly (net::ERR_NAME_NOT_RESOLVED) but leaves Chromium running:
 *   start() destroys the client on every failure, and a navigation's net error becomes a
 *   ConnectFailure naming the cause (WhatsApp unreachable, the proxy refused, its credentials…).
 * - A `qr` (or pairing `code`) while a stored session existed means the restore failed.
 * - Puppeteer errors such as "Attempted to use detached Frame" or "Execution context was destroyed"
 *   mean the page is gone for good: the session emits `broken` so the engine rebuilds it.
 * - On any state outside CONNECTED/OPENING/PAIRING/TIMEOUT whatsapp-web.js itself deletes the remote
 *   session (RemoteAuth.disconnect), emits `disconnected` and destroys the client.
 */

/**
 * Chromium flags for many headless WhatsApp Web clients per host, run as root in a container with
 * no GPU and no need for anything but web.whatsapp.com. Puppeteer adds its own defaults
 * (--headless=new, --disable-renderer-backgrounding, …) and whatsapp-web.js adds --user-agent and
 * --disable-blink-features=AutomationControlled; puppeteer merges every --disable-features it sees.
 * Measured with bench/wwebjs-memory.ts (Chromium 156): the two `--disable-features` entries below
 * save about 60–70 MB PSS per client; --no-zygote was measured too and costs about 45 MB more per
 * client (no pre-forked, shared zygote pages), so it is deliberately absent.
 */
export const WWEBJS_CHROMIUM_ARGS: readonly string[] = [
  // Root in a container: the setuid/namespace sandbox cannot start there.
  '--no-sandbox',
  // No GPU: no GPU compositing, and no SwiftShader fallback (WhatsApp Web needs no WebGL); the GPU
  // process shrinks from ~36 to ~23 MB.
  '--disable-gpu',
  '--disable-software-rasterizer',
  // Docker's 64 MB /dev/shm makes renderers crash; use /tmp for shared memory instead.
  '--disable-dev-shm-usage',
  // No traffic besides WhatsApp Web itself, and nothing that waits on the network when offline: no
  // QUIC (often blocked; proxies only speak TCP), no first-run, no component/extension updates,
  // no sync, no crash reports, no field trials.
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-default-apps',
  '--disable-domain-reliability',
  '--disable-breakpad',
  '--metrics-recording-only',
  '--disable-field-trial-config',
  // Keep WhatsApp Web's timers and socket running in an invisible tab.
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--mute-audio',
  // Memory: Chromium 15x preloads the omnibox-popup WebUI in its own ~78 MB renderer even headless,
  // and keeps a spare ~20 MB renderer warm for the next navigation; a WhatsApp client needs neither.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess',
  // Memory: cap the V8 heap of a runaway WhatsApp Web tab (a busy account sits around 150–400 MB);
  // a renderer that hits it crashes, the session reports `broken` and is rebuilt.
  '--js-flags=--max-old-space-size=1024',
];

/** Chromium flags for one session: the shared list plus the proxy. */
export function chromiumArgs(proxy?: ProxyConfig | null): string[] {
  const args = [...WWEBJS_CHROMIUM_ARGS];
  if (proxy) {
    const host = proxy.host.includes(':') && !proxy.host.startsWith('[') ? `[${proxy.host}]` : proxy.host;
    args.push(`--proxy-server=${proxy.protocol}://${host}:${proxy.port}`);
  }
  return args;
}

/** Chromium cannot answer a SOCKS proxy's username/password challenge: refuse such proxies early. */
export function assertSupportedProxy(proxy?: ProxyConfig | null): void {
  if (!proxy) return;
  const isSocks = proxy.protocol === 'socks4' || proxy.protocol === 'socks5';
  if (isSocks && (proxy.username || proxy.password)) {
    throw new UnsupportedProxyError(
      `Chromium cannot authenticate to SOCKS proxies; use an HTTP proxy or one without credentials (${proxy.protocol}://${proxy.host}:${proxy.port})`,
    );
  }
}

/**
 * WhatsApp Web's socket states (WAState) and whatsapp-web.js's disconnect reasons → our states.
 * `source` says which event carried the value: after `disconnected` the client is gone, so a
 * reason that does not say why (OPENING, 'Max qrcode retries reached', …) still means disconnected.
 */
export function mapWwebjsState(
  reason: string | null | undefined,
  source: 'change_state' | 'disconnected' = 'change_state',
): DriverState {
  let state: DriverState;
  switch (reason) {
    case 'CONNECTED':
      state = 'connected';
      break;
    case 'CONFLICT':
      state = 'conflict';
      break;
    case 'UNPAIRED':
    case 'UNPAIRED_IDLE':
    case 'LOGOUT':
      state = 'loggedOut';
      break;
    case 'TOS_BLOCK':
    case 'SMB_TOS_BLOCK':
    // a terms-of-service block: the session is unusable; the driver also reports it as `restricted`
    case 'TIMEOUT':
    case 'UNLAUNCHED':
    case 'PROXYBLOCK':
    case 'DEPRECATED_VERSION':
    case 'NAVIGATION':
      state = 'disconnected';
      break;
    default:
      // OPENING, PAIRING (connecting) and anything unrecognised
      state = 'unknown';
  }
  if (source === 'disconnected' && (state === 'connected' || state === 'unknown')) return 'disconnected';
  return state;
}

/** whatsapp-web.js's MessageAck values as receipts (0, pending, says nothing yet). */
const ACKS = new Map<number, AckKind>([
  [-1, 'failed'],
  [1, 'server'],
  [2, 'delivered'],
  [3, 'read'],
  [4, 'read'],
]);

/** WhatsApp Web's states that mean WhatsApp blocked the account for a while (a ban signal). */
const BLOCK_STATES = new Set(['TOS_BLOCK', 'SMB_TOS_BLOCK']);

/**
 * A failed send's or check's kind from its error text: WhatsApp's rate limit ('rate-overlimit',
 * HTTP 429) and a restricted or banned account (HTTP 403) are ban signals the engine acts on.
 */
export function failureCode(message: string): 'rate_limited' | 'restricted' | 'failed' {
  if (/rate-?overlimit|rate.?limit|too many requests|\b429\b/i.test(message)) return 'rate_limited';
  if (/restricted|\bbanned\b|\b403\b|forbidden/i.test(message)) return 'restricted';
  return 'failed';
}

/** Substrings of puppeteer errors that mean the page (or browser) is gone and the client must be rebuilt. */
export const BROKEN_ERROR_PATTERNS: readonly string[] = [
  'detached Frame',
  'Execution context was destroyed',
  'Target closed',
  'Session closed',
];

export function isBrokenError(error: unknown): boolean {
  const message = errorMessage(error);
  return BROKEN_ERROR_PATTERNS.some((p) => message.includes(p));
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}

/** What the engine reads of a whatsapp-web.js Message. */
interface WwebjsMessage {
  id?: { _serialized?: string; fromMe?: boolean };
  fromMe?: boolean;
  from?: string;
  body?: string;
  /** set on a button reply (type buttons_response) */
  selectedButtonId?: string;
}

/** What the driver watches of WhatsApp Web's puppeteer Page: any response means the page reached the network. */
export interface PageLike {
  on(event: 'response', listener: (...args: unknown[]) => void): unknown;
  /** about:blank until the navigation commits (a response came), then WhatsApp Web's (or Chromium's error page's) */
  url?(): string;
}

/** What the driver needs of a whatsapp-web.js `Client`; the unit tests provide a fake. */
export interface ClientLike {
  /** set by initialize() once the browser is up, before it navigates to WhatsApp Web */
  pupPage?: PageLike | null;
  info?: {
    pushname?: string;
    wid?: { user: string; server: string; _serialized: string };
  } | null;
  /** set by initialize() once Chromium launched */
  pupBrowser?: {
    process(): {
      pid?: number;
      exitCode: number | null;
      signalCode: NodeJS.Signals | null;
      kill(signal?: NodeJS.Signals): boolean;
    } | null;
  } | null;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  removeAllListeners(event?: string): unknown;
  initialize(): Promise<void>;
  getState(): Promise<string | null>;
  sendMessage(
    chatId: string,
    content: string | WMessageMedia,
    options?: { caption?: string; sendSeen?: boolean },
  ): Promise<{ id: { _serialized: string } } | null | undefined>;
  isRegisteredUser(id: string): Promise<boolean>;
  logout(): Promise<void>;
  destroy(): Promise<void>;
}

export interface WwebjsDriverOptions {
  store: SessionStore;
  /** this worker's data directory; the driver keeps everything under `<dataDir>/wwebjs/` */
  dataDir: string;
  /** the system Chromium, e.g. /usr/bin/chromium */
  chromePath: string;
  /** how long start() waits for initialize() (default 60 000 ms) */
  initTimeoutMs?: number;
  /**
   * how long WhatsApp Web's page may go without any response once the browser is up before start()
   * fails as timed out (DEFAULT_CONNECT_TIMEOUT_MS); a page that answers may load for initTimeoutMs
   */
  connectTimeoutMs?: number;
  /** default true */
  headless?: boolean;
  /** builds the client from the options the driver computed; default `new Client(options)` */
  clientFactory?: (options: ClientOptions) => ClientLike;
}

/** The directories the driver uses under `dataDir`. */
export function wwebjsPaths(dataDir: string) {
  const root = path.resolve(dataDir, 'wwebjs');
  return {
    root,
    /** RemoteAuth's dataPath: Chromium profiles (RemoteAuth-<clientId>/), temp copies and session zips */
    auth: path.join(root, 'auth'),
    /** whatsapp-web.js's LocalWebCache of WhatsApp Web's index.html */
    webCache: path.join(root, 'web-cache'),
  };
}

/** start() gave up waiting for initialize(). */
export class InitTimeoutError extends Error {
  constructor(clientId: string, ms: number) {
    super(
      `WhatsApp Web did not load within ${ms} ms for ${clientId} (whatsapp-web.js initialize() timed out); the client was destroyed`,
    );
    this.name = 'InitTimeoutError';
  }
}

export const DEFAULT_INIT_TIMEOUT_MS = 60_000;
/** how long destroy() lets whatsapp-web.js close Chromium before killing its process group */
const CLOSE_TIMEOUT_MS = 10_000;
/** puppeteer.launch() gives up after 30 s; wait a little longer for a launch still in progress */
const LATE_LAUNCH_WAIT_MS = 35_000;
const LOGOUT_TIMEOUT_MS = 20_000;

function defaultClientFactory(options: ClientOptions): ClientLike {
  // whatsapp-web.js's typings declare on() as overloads per event name; the runtime object has all
  // ClientLike members.
  return new Client(options) as unknown as ClientLike;
}

/** `client.info` → our ClientInfo. whatsapp-web.js 1.34 falls back to the LID user when no phone id is known. */
export function toClientInfo(info: ClientLike['info']): ClientInfo {
  const wid = info?.wid;
  return {
    phonenumber: wid?.user ?? '',
    pushname: info?.pushname ?? '',
    server: wid?.server ?? '',
    serialized: wid?._serialized ?? '',
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class WwebjsDriver implements WhatsAppDriver {
  readonly name = 'wwebjs' as const;
  private readonly sessions = new Set<WwebjsSession>();
  private readonly config: SessionConfig;

  constructor(options: WwebjsDriverOptions) {
    const paths = wwebjsPaths(options.dataDir);
    this.config = {
      store: options.store,
      chromePath: options.chromePath,
      headless: options.headless ?? true,
      initTimeoutMs: options.initTimeoutMs ?? DEFAULT_INIT_TIMEOUT_MS,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      clientFactory: options.clientFactory ?? defaultClientFactory,
      paths,
      adapter: new RemoteAuthStoreAdapter(options.store, paths.auth),
    };
  }

  createSession(options: SessionOptions): WhatsAppSession {
    const session = new WwebjsSession(options, this.config, () => {
      this.sessions.delete(session);
      if (this.sessions.size === 0) process.off('exit', this.onProcessExit);
    });
    if (this.sessions.size === 0) process.on('exit', this.onProcessExit);
    this.sessions.add(session);
    return session;
  }

  /** destroys every session still open (their stored sessions are kept) */
  async close(): Promise<void> {
    await Promise.allSettled([...this.sessions].map((s) => s.destroy()));
  }

  /**
   * Kills, synchronously, the Chromium of every open session; returns how many it killed. Runs on
   * process exit: puppeteer 24 also kills its browsers then, but its exit dispatcher iterates the
   * listener list while each kill() removes its own entry, so it skips every other browser (with 3
   * clients, the second one survives the worker, ~200 MB and more each).
   */
  killBrowsers(): number {
    let killed = 0;
    for (const session of this.sessions) if (session.killBrowser()) killed++;
    return killed;
  }

  private readonly onProcessExit = () => {
    this.killBrowsers();
  };
}

interface SessionConfig {
  store: SessionStore;
  chromePath: string;
  headless: boolean;
  initTimeoutMs: number;
  connectTimeoutMs: number;
  clientFactory: (options: ClientOptions) => ClientLike;
  paths: ReturnType<typeof wwebjsPaths>;
  adapter: RemoteAuthStoreAdapter;
}

class WwebjsSession implements WhatsAppSession {
  readonly clientId: string;
  private client: ClientLike | null = null;
  private phase: 'idle' | 'starting' | 'started' | 'destroyed' = 'idle';
  private state: DriverState = 'unknown';
  private readonly listeners = new Set<DriverListener>();
  /** a stored session existed at start() and WhatsApp has not authenticated it yet */
  private restoring = false;
  /** logged out, conflict, suspended or restore failed: no more QR/pairing codes are forwarded */
  private terminal = false;
  private broken = false;
  private initSettled = true;
  private destroying: Promise<void> | null = null;
  /** resolves once destroy() has closed the client (without waiting for a launch still in progress) */
  private readonly firstClose: Promise<void>;
  private firstCloseDone: () => void = () => {};

  constructor(
    private readonly options: SessionOptions,
    private readonly config: SessionConfig,
    private readonly onDestroyed: () => void,
  ) {
    this.clientId = options.clientId;
    this.firstClose = new Promise((resolve) => {
      this.firstCloseDone = resolve;
    });
  }

  on(listener: DriverListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async start(): Promise<void> {
    if (this.phase !== 'idle') throw new Error(`session ${this.clientId} was already started`);
    this.phase = 'starting';
    try {
      assertSupportedProxy(this.options.proxy);
      await mkdir(this.config.paths.auth, { recursive: true });
      await mkdir(this.config.paths.webCache, { recursive: true });
      this.restoring = await this.config.store.exists(this.clientId);
      if (this.isDestroyed()) throw new Error(`session ${this.clientId} was destroyed while starting`);
      const client = this.config.clientFactory(this.clientOptions());
      this.client = client;
      this.attach(client);
      await this.initialize(client);
      if (this.isDestroyed()) throw new Error(`session ${this.clientId} was destroyed while starting`);
      this.phase = 'started';
    } catch (error) {
      // report the failure as soon as the client is closed; destroy() callers also wait for a browser
      // that initialize() was still launching
      await Promise.race([this.destroy(), this.firstClose]);
      if (error instanceof UnsupportedProxyError || error instanceof InitTimeoutError) throw error;
      const failure = connectFailureOf(error, this.options.proxy, this.config.connectTimeoutMs);
      if (failure) throw failure;
      throw new Error(`whatsapp-web.js could not start ${this.clientId}: ${errorMessage(error)}`, { cause: error });
    }
  }

  /** the last reported state, checked against WhatsApp Web while connected; 'disconnected' once broken */
  async getState(): Promise<DriverState> {
    const client = this.client;
    if (this.broken) return 'disconnected';
    if (!client || this.phase !== 'started' || this.state !== 'connected') return this.state;
    const live = await this.guard('getState', () => client.getState());
    return live ? mapWwebjsState(live) : this.state;
  }

  async sendText(to: string, text: string): Promise<{ id: string }> {
    const jid = toJid(to);
    return this.call('sendText', async (client) => {
      await this.assertRegistered(client, jid, to);
      return sentId(await client.sendMessage(jid, text, { sendSeen: false }));
    });
  }

  async sendMedia(to: string, media: MediaFile, caption?: string): Promise<{ id: string }> {
    const jid = toJid(to);
    return this.call('sendMedia', async (client) => {
      let content: WMessageMedia;
      try {
        content = MessageMedia.fromFilePath(media.path);
      } catch (error) {
        throw new SendError('failed', `cannot read media ${media.path}: ${errorMessage(error)}`);
      }
      // our upload knows better than the file name (stored uploads have no extension)
      content.mimetype = media.mimetype;
      content.filename = media.filename;
      await this.assertRegistered(client, jid, to);
      return sentId(await client.sendMessage(jid, content, { caption, sendSeen: false }));
    });
  }

  async isRegistered(number: string): Promise<boolean> {
    const digits = number.replace(/\D/g, '');
    return this.call('isRegistered', async (client) => (digits ? client.isRegisteredUser(`${digits}@c.us`) : false));
  }

  /**
   * Logs out on WhatsApp (best effort: a broken or unstarted client cannot, and the device then
   * stays linked on the phone until WhatsApp drops it), deletes the stored session, destroys.
   */
  async logout(): Promise<void> {
    const client = this.client;
    this.terminal = true;
    if (client && this.phase === 'started') {
      await withTimeout(client.logout(), LOGOUT_TIMEOUT_MS, () => new Error('logout timed out')).catch(() => {});
    }
    await this.config.store.delete(this.clientId);
    this.setState('loggedOut', 'LOGOUT');
    await this.destroy();
  }

  destroy(): Promise<void> {
    this.destroying ??= this.teardown();
    return this.destroying;
  }

  /** SIGKILLs this session's Chromium process group now, if it runs; synchronous, never throws */
  killBrowser(): boolean {
    return this.client ? killBrowserGroup(this.client) : false;
  }

  // ---- internals ----

  private isDestroyed() {
    return this.phase === 'destroyed';
  }

  private clientOptions(): ClientOptions {
    const { proxy, pairingNumber } = this.options;
    const options: ClientOptions = {
      // RemoteAuth (with the fixes of SafeRemoteAuth) into our store; its dataPath (profiles and zips)
      // is under dataDir, never the cwd
      authStrategy: new SafeRemoteAuth({
        clientId: this.clientId,
        store: this.config.adapter,
        backupSyncIntervalMs: 60_000,
        dataPath: this.config.paths.auth,
      }) as unknown as AuthStrategy,
      puppeteer: {
        executablePath: this.config.chromePath,
        headless: this.config.headless,
        args: chromiumArgs(proxy),
      },
      webVersionCache: { type: 'local', path: this.config.paths.webCache },
      takeoverOnConflict: false,
    };
    if (proxy?.username && (proxy.protocol === 'http' || proxy.protocol === 'https')) {
      // whatsapp-web.js calls page.authenticate() with this before navigating
      options.proxyAuthentication = { username: proxy.username, password: proxy.password ?? '' };
    }
    const phone = pairingNumber?.replace(/\D/g, '');
    if (phone) {
      // whatsapp-web.js then calls requestPairingCode() itself when a login is needed and emits
      // `code` (again every intervalMs until linked) instead of `qr`
      options.pairWithPhoneNumber = { phoneNumber: phone, showNotification: true, intervalMs: 180_000 };
    }
    return options;
  }

  private async initialize(client: ClientLike): Promise<void> {
    this.initSettled = false;
    const init = Promise.resolve()
      .then(() => client.initialize())
      .finally(() => {
        this.initSettled = true;
      });
    init.catch(() => {}); // a rejection after the timeout has nobody left to tell
    const ms = this.config.initTimeoutMs;
    const reach = this.watchReach(client);
    try {
      await withTimeout(Promise.race([init, reach.failed]), ms, () => new InitTimeoutError(this.clientId, ms));
    } finally {
      reach.stop();
    }
  }

  /**
   * Fails with a timed-out ConnectFailure when WhatsApp Web's page gets no response at all within
   * connectTimeoutMs of the browser being up (initialize() sets `pupPage` before it navigates): a
   * proxy or network that swallows the connection gives Chromium no error for minutes.
   */
  private watchReach(client: ClientLike): { failed: Promise<never>; stop(): void } {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const ms = this.config.connectTimeoutMs;
    const failed = new Promise<never>((_, reject) => {
      const arm = () => {
        if (stopped) return;
        const page = client.pupPage;
        // the browser is still launching: look again shortly
        if (!page) {
          timer = setTimeout(arm, 25);
          return;
        }
        let reached = false;
        page.on('response', () => {
          reached = true;
        });
        // a response before the listener was on shows in the page's address (the navigation committed)
        const committed = () => {
          const url = page.url?.() ?? 'about:blank';
          return url !== '' && url !== 'about:blank';
        };
        timer = setTimeout(() => {
          if (!reached && !committed() && !stopped) {
            reject(connectFailure('timeout', 'no response', this.options.proxy, ms));
          }
        }, ms);
      };
      arm();
    });
    failed.catch(() => {}); // stop() may leave it pending for ever; nobody waits on it then
    return {
      failed,
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  private attach(client: ClientLike) {
    client.on('qr', (qr) => void this.onLoginPrompt({ type: 'qr', qr: String(qr) }));
    client.on('code', (code) => void this.onLoginPrompt({ type: 'code', code: String(code) }));
    client.on('authenticated', () => {
      this.restoring = false;
      this.emit({ type: 'authenticated' });
    });
    client.on('auth_failure', (message) => {
      this.restoring = false;
      this.terminal = true;
      this.emit({ type: 'auth_failure', message: String(message ?? 'authentication failed') });
      this.setState('loggedOut', 'AUTH_FAILURE');
    });
    client.on('ready', () => {
      this.restoring = false;
      this.emit({ type: 'ready', info: toClientInfo(client.info) });
      this.setState('connected');
    });
    client.on('change_state', (state) => void this.onWaState(state, 'change_state'));
    client.on('disconnected', (reason) => void this.onWaState(reason, 'disconnected'));
    client.on('message_revoke_everyone', (after, before) => this.onRevoke(after, before));
    client.on('message', (message) => this.onMessage(message));
    client.on('message_ack', (message, ack) => this.onAck(message, ack));
  }

  /** A receipt of one of our messages (whatsapp-web.js MessageAck: -1 error, 1 server, 2 device, 3 read, 4 played). */
  private onAck(raw: unknown, ack: unknown) {
    const msg = raw as WwebjsMessage | null | undefined;
    const id = msg?.id?._serialized;
    if (!id || !(msg?.fromMe ?? msg?.id?.fromMe)) return;
    const kind = ACKS.get(Number(ack));
    if (kind) this.emit({ type: 'ack', messageId: id, ack: kind });
  }

  /** One of our messages deleted for everyone (whatsapp-web.js gives the revoked one and, maybe, the original). */
  private onRevoke(after: unknown, before: unknown) {
    const msg = (before ?? after) as WwebjsMessage | null | undefined;
    const id = msg?.id?._serialized;
    if (!id || !(msg?.fromMe ?? msg?.id?.fromMe)) return;
    this.emit({ type: 'revoke', messageId: id });
  }

  /** A message from a person (not a group or a status): its text, or the template button pressed. */
  private onMessage(raw: unknown) {
    const msg = raw as WwebjsMessage | null | undefined;
    const from = msg?.from;
    if (!msg || msg.fromMe || typeof from !== 'string' || !from.endsWith('@c.us')) return;
    const buttonId =
      typeof msg.selectedButtonId === 'string' && msg.selectedButtonId ? msg.selectedButtonId : undefined;
    this.emit({
      type: 'message',
      from: from.slice(0, -'@c.us'.length),
      text: typeof msg.body === 'string' ? msg.body : '',
      ...(buttonId ? { buttonId } : {}),
    });
  }

  private async onLoginPrompt(event: Extract<DriverEvent, { type: 'qr' | 'code' }>) {
    if (this.terminal || this.isDestroyed()) return;
    if (!this.restoring) {
      this.emit(event);
      return;
    }
    // WhatsApp asks for a new login although we restored a stored session: it is no longer valid.
    this.restoring = false;
    this.terminal = true;
    await this.deleteStored();
    this.emit({
      type: 'auth_failure',
      message: 'the stored session could not be restored: WhatsApp asked for a new login',
    });
    this.setState('loggedOut', 'RESTORE_FAILED');
  }

  private async onWaState(raw: unknown, source: 'change_state' | 'disconnected') {
    const reason = raw == null ? undefined : String(raw);
    const state = mapWwebjsState(reason, source);
    if (state === 'loggedOut') {
      // unlinked from the phone: the stored copy is useless
      this.terminal = true;
      await this.deleteStored();
    } else if (state === 'conflict') {
      // open in another WhatsApp Web: this client is done, but the stored session still logs in
      // (a reconnect rebuilds the client from it and takes the account back)
      this.terminal = true;
    } else if (reason && BLOCK_STATES.has(reason)) {
      this.terminal = true;
      this.emit({ type: 'restricted', reason });
    }
    this.setState(state, reason);
  }

  private async deleteStored() {
    await this.config.store.delete(this.clientId).catch(() => {});
  }

  private setState(state: DriverState, reason?: string) {
    if (state === this.state) return;
    this.state = state;
    this.emit(reason === undefined ? { type: 'state', state } : { type: 'state', state, reason });
  }

  private emit(event: DriverEvent) {
    if (this.isDestroyed()) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // a listener's bug must not reach whatsapp-web.js (it would surface inside the page bridge)
      }
    }
  }

  private markBroken(message: string) {
    if (this.broken) return;
    this.broken = true;
    this.emit({ type: 'broken', message });
  }

  /** runs a call on the client, translating puppeteer failures into SendError (and `broken`) */
  private async guard<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof SendError) throw error;
      const message = errorMessage(error);
      if (isBrokenError(message)) {
        this.markBroken(message);
        throw new SendError('failed', `${what} failed: the WhatsApp Web page broke (${message}); rebuild the client`);
      }
      throw new SendError(failureCode(message), `${what} failed: ${message}`);
    }
  }

  /** guard() for calls that need a connected client */
  private async call<T>(what: string, fn: (client: ClientLike) => Promise<T>): Promise<T> {
    const client = this.client;
    if (!client || this.phase !== 'started' || this.state !== 'connected') {
      throw new SendError('not_connected', `${this.clientId} is not connected (${this.state})`);
    }
    if (this.broken) throw new SendError('not_connected', `${this.clientId} broke and is waiting to be rebuilt`);
    return this.guard(what, () => fn(client));
  }

  private async assertRegistered(client: ClientLike, jid: string, to: string) {
    if (!(await client.isRegisteredUser(jid))) throw new SendError('not_registered', `${to} is not on WhatsApp`);
  }

  private async teardown(): Promise<void> {
    this.phase = 'destroyed';
    const client = this.client;
    try {
      if (client) await this.closeLaunched(client);
    } catch {
      // destroy() never throws
    }
    this.firstCloseDone();
    this.listeners.clear();
    this.onDestroyed();
  }

  /** closes the client's Chromium, including one initialize() is still launching */
  private async closeLaunched(client: ClientLike): Promise<void> {
    await closeClient(client);
    this.firstCloseDone();
    if (!this.initSettled) {
      // initialize() may still be inside puppeteer.launch(): whatsapp-web.js only sets pupBrowser
      // once launch resolves, so the destroy() above had no browser to close. Wait for it.
      const until = Date.now() + LATE_LAUNCH_WAIT_MS;
      while (!this.initSettled && !client.pupBrowser && Date.now() < until) await sleep(100);
      await closeClient(client);
    }
    client.removeAllListeners();
  }
}

/** client.destroy() bounded in time; then make sure Chromium's process group is gone. Never throws. */
async function closeClient(client: ClientLike): Promise<void> {
  await withTimeout(
    Promise.resolve().then(() => client.destroy()),
    CLOSE_TIMEOUT_MS,
    () => new Error('destroy timed out'),
  ).catch(() => {});
  killBrowserGroup(client);
}

/** SIGKILLs the client's Chromium and its children if it still runs; returns whether it did. */
function killBrowserGroup(client: ClientLike): boolean {
  let proc: ReturnType<NonNullable<ClientLike['pupBrowser']>['process']> = null;
  try {
    proc = client.pupBrowser?.process() ?? null;
  } catch {}
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return false;
  try {
    // puppeteer launches Chromium detached, in its own process group (zygotes, renderers, GPU…)
    if (proc.pid) process.kill(-proc.pid, 'SIGKILL');
    else proc.kill('SIGKILL');
    return true;
  } catch {
    try {
      return proc.kill('SIGKILL');
    } catch {
      return false;
    }
  }
}

function toJid(to: string): string {
  const digits = to.replace(/\D/g, '');
  if (!digits) throw new SendError('not_registered', `"${to}" is not a phone number`);
  return `${digits}@c.us`;
}

function sentId(message: { id: { _serialized: string } } | null | undefined): { id: string } {
  const id = message?.id?._serialized;
  if (!id) throw new SendError('failed', 'WhatsApp Web did not return the sent message');
  return { id };
}
