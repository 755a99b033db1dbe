import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ClientOptions } from 'whatsapp-web.js';
import pkg from 'whatsapp-web.js';
import { MemorySessionStore } from './session-store';
import {
  ConnectFailure,
  type DriverEvent,
  type ProxyConfig,
  SendError,
  UnsupportedProxyError,
  type WhatsAppSession,
} from './types';
import {
  assertSupportedProxy,
  type ClientLike,
  chromiumArgs,
  InitTimeoutError,
  isBrokenError,
  mapWwebjsState,
  toClientInfo,
  WWEBJS_CHROMIUM_ARGS,
  WwebjsDriver,
  wwebjsPaths,
} from './wwebjs';
import { clientIdFromSession, EMPTY_ZIP, RemoteAuthStoreAdapter, SafeRemoteAuth } from './wwebjs-store';

const { MessageMedia, RemoteAuth } = pkg;

type Behaviour = 'resolve' | 'hang' | Error;

/** A stand-in for whatsapp-web.js's Client: an EventEmitter whose calls the tests script and record. */
class FakeClient extends EventEmitter implements ClientLike {
  info: ClientLike['info'] = null;
  pupBrowser: ClientLike['pupBrowser'] = null;
  initBehaviour: Behaviour = 'resolve';
  waState: string | null = 'CONNECTED';
  registered = new Set<string>();
  sent: { chatId: string; content: unknown; options?: { caption?: string; sendSeen?: boolean } }[] = [];
  /** the next call of sendMessage/getState/isRegisteredUser rejects with this */
  failNext: Error | null = null;
  destroyCalls = 0;
  /** destroy() calls that found a launched browser to close */
  browserCloses = 0;
  destroyError: Error | null = null;
  logoutCalls = 0;
  logoutError: Error | null = null;
  initializeCalls = 0;

  constructor(readonly options: ClientOptions) {
    super();
  }

  async initialize() {
    this.initializeCalls++;
    const b = this.initBehaviour;
    if (b === 'hang') return new Promise<void>(() => {});
    if (b instanceof Error) throw b;
  }
  private takeFailure() {
    const e = this.failNext;
    this.failNext = null;
    if (e) throw e;
  }
  async getState() {
    this.takeFailure();
    return this.waState;
  }
  async sendMessage(chatId: string, content: unknown, options?: { caption?: string; sendSeen?: boolean }) {
    this.takeFailure();
    this.sent.push({ chatId, content, options });
    return { id: { _serialized: `true_${chatId}_MSG${this.sent.length}` } };
  }
  async isRegisteredUser(id: string) {
    this.takeFailure();
    return this.registered.has(id);
  }
  async logout() {
    this.logoutCalls++;
    if (this.logoutError) throw this.logoutError;
  }
  async destroy() {
    this.destroyCalls++;
    if (this.pupBrowser) this.browserCloses++;
    if (this.destroyError) throw this.destroyError;
  }
  /** what whatsapp-web.js does once WhatsApp Web has synced an authenticated account */
  becomeReady(user = '6281234567890') {
    this.info = { pushname: 'Toko Maju', wid: { user, server: 'c.us', _serialized: `${user}@c.us` } };
    this.emit('authenticated');
    this.emit('ready');
  }
}

let dataDir: string;
let store: MemorySessionStore;
let clients: FakeClient[];

function makeDriver(extra: { initTimeoutMs?: number } = {}) {
  return new WwebjsDriver({
    store,
    dataDir,
    chromePath: '/usr/bin/chromium',
    initTimeoutMs: extra.initTimeoutMs ?? 2000,
    clientFactory: (options) => {
      const c = new FakeClient(options);
      clients.push(c);
      return c;
    },
  });
}

function record(session: WhatsAppSession) {
  const events: DriverEvent[] = [];
  session.on((e) => events.push(e));
  return events;
}

async function readySession(clientId = 'id-1-abc', extra: { pairingNumber?: string; proxy?: ProxyConfig } = {}) {
  const driver = makeDriver();
  const session = driver.createSession({ clientId, ...extra });
  const events = record(session);
  await session.start();
  const client = clients.at(-1)!;
  client.becomeReady();
  return { driver, session, events, client };
}

const flush = () => new Promise((r) => setImmediate(r));

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'wa-wwebjs-unit-'));
  store = new MemorySessionStore();
  clients = [];
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('mapWwebjsState', () => {
  it.each([
    ['CONNECTED', 'connected'],
    ['CONFLICT', 'conflict'],
    ['UNPAIRED', 'loggedOut'],
    ['UNPAIRED_IDLE', 'loggedOut'],
    ['LOGOUT', 'loggedOut'],
    ['TOS_BLOCK', 'disconnected'],
    ['SMB_TOS_BLOCK', 'disconnected'],
    ['TIMEOUT', 'disconnected'],
    ['UNLAUNCHED', 'disconnected'],
    ['PROXYBLOCK', 'disconnected'],
    ['DEPRECATED_VERSION', 'disconnected'],
    ['NAVIGATION', 'disconnected'],
    ['OPENING', 'unknown'],
    ['PAIRING', 'unknown'],
    ['SOMETHING_NEW', 'unknown'],
    [null, 'unknown'],
    [undefined, 'unknown'],
  ] as const)('change_state %s → %s', (reason, expected) => {
    expect(mapWwebjsState(reason)).toBe(expected);
  });

  it.each([
    ['LOGOUT', 'loggedOut'],
    ['CONFLICT', 'conflict'],
    ['NAVIGATION', 'disconnected'],
    ['TOS_BLOCK', 'disconnected'],
    ['Max qrcode retries reached', 'disconnected'],
    ['OPENING', 'disconnected'],
    ['CONNECTED', 'disconnected'],
  ] as const)('disconnected %s → %s (the client is gone)', (reason, expected) => {
    expect(mapWwebjsState(reason, 'disconnected')).toBe(expected);
  });
});

describe('Chromium flags and proxies', () => {
  it('runs as root without GPU, quietly, and without the memory-costly extras', () => {
    for (const flag of [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-extensions',
      '--mute-audio',
    ]) {
      expect(WWEBJS_CHROMIUM_ARGS).toContain(flag);
    }
    // measured to cost memory; and puppeteer owns --headless / --user-data-dir (RemoteAuth's profile)
    expect(WWEBJS_CHROMIUM_ARGS).not.toContain('--no-zygote');
    expect(WWEBJS_CHROMIUM_ARGS.some((a) => a.startsWith('--headless') || a.startsWith('--user-data-dir'))).toBe(false);
    expect(WWEBJS_CHROMIUM_ARGS.filter((a) => a.startsWith('--disable-features=')).join()).toContain(
      'WebUIOmniboxPopup',
    );
  });

  it('adds --proxy-server for every protocol, bracketing IPv6 hosts', () => {
    expect(chromiumArgs(null)).toEqual([...WWEBJS_CHROMIUM_ARGS]);
    expect(chromiumArgs({ protocol: 'http', host: '10.0.0.1', port: 8080 }).at(-1)).toBe(
      '--proxy-server=http://10.0.0.1:8080',
    );
    expect(chromiumArgs({ protocol: 'socks5', host: 'p.example', port: 1080 }).at(-1)).toBe(
      '--proxy-server=socks5://p.example:1080',
    );
    expect(chromiumArgs({ protocol: 'https', host: '2001:db8::1', port: 443 }).at(-1)).toBe(
      '--proxy-server=https://[2001:db8::1]:443',
    );
  });

  it('refuses SOCKS proxies with credentials only', () => {
    expect(() =>
      assertSupportedProxy({ protocol: 'socks5', host: 'h', port: 1, username: 'u', password: 'p' }),
    ).toThrow(UnsupportedProxyError);
    expect(() => assertSupportedProxy({ protocol: 'socks4', host: 'h', port: 1, username: 'u' })).toThrow(
      'Chromium cannot authenticate to SOCKS proxies; use an HTTP proxy or one without credentials',
    );
    expect(() => assertSupportedProxy({ protocol: 'socks5', host: 'h', port: 1 })).not.toThrow();
    expect(() =>
      assertSupportedProxy({ protocol: 'http', host: 'h', port: 1, username: 'u', password: 'p' }),
    ).not.toThrow();
  });

  it('start() rejects a SOCKS proxy with credentials before any browser is created', async () => {
    const session = makeDriver().createSession({
      clientId: 'id-1-socks',
      proxy: { protocol: 'socks5', host: '10.0.0.9', port: 1080, username: 'u', password: 'p' },
    });
    await expect(session.start()).rejects.toBeInstanceOf(UnsupportedProxyError);
    expect(clients).toHaveLength(0);
  });

  it('passes HTTP proxy credentials to whatsapp-web.js proxyAuthentication', async () => {
    const session = makeDriver().createSession({
      clientId: 'id-1-http',
      proxy: { protocol: 'http', host: '10.0.0.2', port: 3128, username: 'alice', password: 's3cret' },
    });
    await session.start();
    const opts = clients[0].options;
    expect(opts.puppeteer?.args).toContain('--proxy-server=http://10.0.0.2:3128');
    expect(opts.proxyAuthentication).toEqual({ username: 'alice', password: 's3cret' });
    await session.destroy();
  });

  it('starts with a SOCKS proxy without credentials and no proxyAuthentication', async () => {
    const session = makeDriver().createSession({
      clientId: 'id-1-socksok',
      proxy: { protocol: 'socks5', host: '10.0.0.3', port: 1080 },
    });
    await session.start();
    expect(clients[0].options.puppeteer?.args).toContain('--proxy-server=socks5://10.0.0.3:1080');
    expect(clients[0].options.proxyAuthentication).toBeUndefined();
    await session.destroy();
  });
});

describe('client options', () => {
  it('uses RemoteAuth and the web cache under dataDir, the system Chromium and our flags', async () => {
    const session = makeDriver().createSession({ clientId: 'id-1700000000000-abc' });
    await session.start();
    const opts = clients[0].options;
    const paths = wwebjsPaths(dataDir);
    expect(opts.authStrategy).toBeInstanceOf(RemoteAuth);
    const auth = opts.authStrategy as unknown as { clientId: string; dataPath: string; backupSyncIntervalMs: number };
    expect(auth.clientId).toBe('id-1700000000000-abc');
    expect(auth.dataPath).toBe(paths.auth);
    expect(auth.dataPath.startsWith(dataDir)).toBe(true);
    expect(auth.backupSyncIntervalMs).toBe(60_000);
    expect(opts.webVersionCache).toEqual({ type: 'local', path: paths.webCache });
    expect(opts.puppeteer?.executablePath).toBe('/usr/bin/chromium');
    expect(opts.puppeteer?.headless).toBe(true);
    expect(opts.puppeteer?.args).toEqual([...WWEBJS_CHROMIUM_ARGS]);
    expect(opts.pairWithPhoneNumber).toBeUndefined();
    expect(opts.takeoverOnConflict).toBe(false);
    expect(existsSync(paths.auth) && existsSync(paths.webCache)).toBe(true);
    await session.destroy();
  });

  it('asks for a pairing code for pairingNumber (digits only)', async () => {
    const session = makeDriver().createSession({ clientId: 'id-1-pair', pairingNumber: '+62 812-3456-7890' });
    await session.start();
    expect(clients[0].options.pairWithPhoneNumber).toMatchObject({ phoneNumber: '6281234567890' });
    await session.destroy();
  });
});

describe('login events', () => {
  it('maps qr → authenticated → ready (with the account info) → connected', async () => {
    const session = makeDriver().createSession({ clientId: 'id-1-qr' });
    const events = record(session);
    await session.start();
    expect(await session.getState()).toBe('unknown');
    const c = clients[0];
    c.emit('qr', '2@abc,def');
    c.emit('qr', '2@ghi,jkl');
    c.becomeReady('6281111111111');
    expect(events).toEqual([
      { type: 'qr', qr: '2@abc,def' },
      { type: 'qr', qr: '2@ghi,jkl' },
      { type: 'authenticated' },
      {
        type: 'ready',
        info: { phonenumber: '6281111111111', pushname: 'Toko Maju', server: 'c.us', serialized: '6281111111111@c.us' },
      },
      { type: 'state', state: 'connected' },
    ]);
    expect(await session.getState()).toBe('connected');
    await session.destroy();
  });

  it('maps the pairing code event', async () => {
    const session = makeDriver().createSession({ clientId: 'id-1-code', pairingNumber: '6281234567890' });
    const events = record(session);
    await session.start();
    clients[0].emit('code', 'ABCD1234');
    await flush();
    expect(events).toEqual([{ type: 'code', code: 'ABCD1234' }]);
    await session.destroy();
  });

  it('a QR while a stored session existed means the restore failed: auth_failure, loggedOut, session deleted', async () => {
    await store.save('id-1-old', Buffer.from('zip'));
    const session = makeDriver().createSession({ clientId: 'id-1-old' });
    const events = record(session);
    await session.start();
    clients[0].emit('qr', '2@new');
    await flush();
    expect(events).toEqual([
      { type: 'auth_failure', message: expect.stringContaining('could not be restored') },
      { type: 'state', state: 'loggedOut', reason: 'RESTORE_FAILED' },
    ]);
    expect(await store.exists('id-1-old')).toBe(false);
    clients[0].emit('qr', '2@again');
    await flush();
    expect(events).toHaveLength(2);
    await session.destroy();
  });

  it('a restored session that authenticates keeps its stored copy', async () => {
    await store.save('id-1-kept', Buffer.from('zip'));
    const session = makeDriver().createSession({ clientId: 'id-1-kept' });
    const events = record(session);
    await session.start();
    clients[0].becomeReady();
    await flush();
    expect(events.map((e) => e.type)).toEqual(['authenticated', 'ready', 'state']);
    expect(await store.exists('id-1-kept')).toBe(true);
    await session.destroy();
  });

  it('maps auth_failure', async () => {
    const session = makeDriver().createSession({ clientId: 'id-1-af' });
    const events = record(session);
    await session.start();
    clients[0].emit('auth_failure', 'Unable to log in');
    expect(events).toEqual([
      { type: 'auth_failure', message: 'Unable to log in' },
      { type: 'state', state: 'loggedOut', reason: 'AUTH_FAILURE' },
    ]);
    await session.destroy();
  });

  it('toClientInfo tolerates a missing info', () => {
    expect(toClientInfo(null)).toEqual({ phonenumber: '', pushname: '', server: '', serialized: '' });
  });
});

describe('state changes', () => {
  it('CONFLICT keeps the stored session (a reconnect takes the account back) and reports conflict once', async () => {
    await store.save('id-1-conf', Buffer.from('zip'));
    const { session, events, client } = await readySession('id-1-conf');
    client.emit('change_state', 'CONFLICT');
    client.emit('disconnected', 'CONFLICT'); // whatsapp-web.js follows up with this
    await flush();
    expect(events.filter((e) => e.type === 'state').at(-1)).toEqual({
      type: 'state',
      state: 'conflict',
      reason: 'CONFLICT',
    });
    expect(events.filter((e) => e.type === 'state' && e.state === 'conflict')).toHaveLength(1);
    expect(await store.exists('id-1-conf')).toBe(true);
    await expect(session.sendText('6281', 'x')).rejects.toMatchObject({ code: 'not_connected' });
    await session.destroy();
  });

  it('TOS_BLOCK is a restriction (a ban signal) and ends the session; TIMEOUT then CONNECTED goes disconnected and back', async () => {
    const { session, events, client } = await readySession('id-1-tos');
    client.emit('change_state', 'TIMEOUT');
    client.emit('change_state', 'CONNECTED');
    client.emit('change_state', 'TOS_BLOCK');
    await flush();
    expect(events.filter((e) => e.type === 'state').map((e) => e.type === 'state' && e.state)).toEqual([
      'connected',
      'disconnected',
      'connected',
      'disconnected',
    ]);
    expect(events.filter((e) => e.type === 'restricted')).toEqual([{ type: 'restricted', reason: 'TOS_BLOCK' }]);
    await session.destroy();
  });

  it('reports the revoke of one of our messages, and not of a message someone else sent', async () => {
    const { session, events, client } = await readySession('id-1-rev');
    const id = 'true_6281111@c.us_3EB0AAAA';
    // whatsapp-web.js: (the revoked message now, the original when it had it)
    client.emit('message_revoke_everyone', { id: { _serialized: id, fromMe: true }, fromMe: true }, undefined);
    client.emit('message_revoke_everyone', { id: { _serialized: 'x' } }, { id: { _serialized: id }, fromMe: true });
    client.emit('message_revoke_everyone', { id: { _serialized: 'false_6281@c.us_X', fromMe: false }, fromMe: false });
    await flush();
    expect(events.filter((e) => e.type === 'revoke')).toEqual([
      { type: 'revoke', messageId: id },
      { type: 'revoke', messageId: id },
    ]);
    await session.destroy();
  });

  it('reports the receipts of our messages (message_ack), not of messages to us', async () => {
    const { session, events, client } = await readySession('id-1-ack');
    const mine = { id: { _serialized: 'true_6281@c.us_3EB0A', fromMe: true }, fromMe: true };
    for (const ack of [0, 1, 2, 3, 4, -1]) client.emit('message_ack', mine, ack);
    client.emit('message_ack', { id: { _serialized: 'false_6281@c.us_X', fromMe: false }, fromMe: false }, 3);
    await flush();
    expect(events.filter((e) => e.type === 'ack').map((e) => e.type === 'ack' && e.ack)).toEqual([
      'server',
      'delivered',
      'read',
      'read',
      'failed',
    ]);
    await session.destroy();
  });

  it('reports messages from people with their number, text and the button pressed; not groups or our own', async () => {
    const { session, events, client } = await readySession('id-1-msg');
    client.emit('message', { from: '6281222333444@c.us', body: 'STOP', fromMe: false });
    client.emit('message', { from: '6281222333444@c.us', body: 'Berhenti', selectedButtonId: 'stop-1' });
    client.emit('message', { from: '120363@g.us', body: 'STOP' });
    client.emit('message', { from: 'status@broadcast', body: 'hi' });
    client.emit('message', { from: '6281222333444@c.us', body: 'mine', fromMe: true });
    await flush();
    expect(events.filter((e) => e.type === 'message')).toEqual([
      { type: 'message', from: '6281222333444', text: 'STOP' },
      { type: 'message', from: '6281222333444', text: 'Berhenti', buttonId: 'stop-1' },
    ]);
    await session.destroy();
  });

  it('a LOGOUT disconnect reports loggedOut, deletes the session and stops forwarding QR codes', async () => {
    await store.save('id-1-lo', Buffer.from('zip'));
    const { session, events, client } = await readySession('id-1-lo');
    client.emit('disconnected', 'LOGOUT');
    await flush();
    client.emit('qr', '2@after-logout');
    await flush();
    expect(events.at(-1)).toEqual({ type: 'state', state: 'loggedOut', reason: 'LOGOUT' });
    expect(events.some((e) => e.type === 'qr')).toBe(false);
    expect(await store.exists('id-1-lo')).toBe(false);
    await session.destroy();
  });
});

describe('sends', () => {
  it('refuses to send before the session is connected', async () => {
    const session = makeDriver().createSession({ clientId: 'id-1-nc' });
    await expect(session.sendText('6281', 'hi')).rejects.toMatchObject({ code: 'not_connected' });
    await session.start();
    await expect(session.sendText('6281', 'hi')).rejects.toMatchObject({ code: 'not_connected' });
    await expect(session.isRegistered('6281')).rejects.toBeInstanceOf(SendError);
    expect(clients[0].sent).toHaveLength(0);
    await session.destroy();
  });

  it('sends text to <number>@c.us and returns the message id', async () => {
    const { session, client } = await readySession();
    client.registered.add('6289876543210@c.us');
    await expect(session.sendText('6289876543210', 'Halo')).resolves.toEqual({ id: 'true_6289876543210@c.us_MSG1' });
    expect(client.sent).toEqual([{ chatId: '6289876543210@c.us', content: 'Halo', options: { sendSeen: false } }]);
    await session.destroy();
  });

  it('reports an unregistered target as not_registered without sending', async () => {
    const { session, client } = await readySession();
    await expect(session.sendText('6280000000000', 'Halo')).rejects.toMatchObject({
      name: 'SendError',
      code: 'not_registered',
    });
    expect(client.sent).toHaveLength(0);
    await session.destroy();
  });

  it('sends media from a file with our mimetype, filename and caption', async () => {
    const { session, client } = await readySession();
    client.registered.add('6289876543210@c.us');
    const file = path.join(dataDir, 'upload-7f3a'); // stored uploads have no extension
    writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
    const res = await session.sendMedia(
      '6289876543210',
      { path: file, mimetype: 'image/png', filename: 'promo.png' },
      'Diskon 50%',
    );
    expect(res.id).toBe('true_6289876543210@c.us_MSG1');
    const [sent] = client.sent;
    expect(sent.content).toBeInstanceOf(MessageMedia);
    const media = sent.content as InstanceType<typeof MessageMedia>;
    expect(media.mimetype).toBe('image/png');
    expect(media.filename).toBe('promo.png');
    expect(Buffer.from(media.data, 'base64')).toEqual(readFileSync(file));
    expect(sent.options).toEqual({ caption: 'Diskon 50%', sendSeen: false });
    await expect(
      session.sendMedia('6289876543210', { path: path.join(dataDir, 'missing'), mimetype: 'image/png', filename: 'x' }),
    ).rejects.toMatchObject({ code: 'failed' });
    await session.destroy();
  });

  it('isRegistered asks isRegisteredUser with @c.us', async () => {
    const { session, client } = await readySession();
    client.registered.add('6281111111111@c.us');
    expect(await session.isRegistered('6281111111111')).toBe(true);
    expect(await session.isRegistered('6282222222222')).toBe(false);
    await session.destroy();
  });

  it('a detached frame emits broken once and fails the send; later calls are not_connected', async () => {
    const { session, events, client } = await readySession();
    client.registered.add('6281111111111@c.us');
    client.failNext = new Error('Attempted to use detached Frame ABC123.');
    const err = await session.sendText('6281111111111', 'x').catch((e) => e);
    expect(err).toBeInstanceOf(SendError);
    expect(err.code).toBe('failed');
    expect(events.filter((e) => e.type === 'broken')).toEqual([
      { type: 'broken', message: 'Attempted to use detached Frame ABC123.' },
    ]);
    await expect(session.sendText('6281111111111', 'x')).rejects.toMatchObject({ code: 'not_connected' });
    expect(events.filter((e) => e.type === 'broken')).toHaveLength(1);
    expect(await session.getState()).toBe('disconnected');
    await session.destroy();
  });

  it('a destroyed execution context in getState emits broken and throws SendError(failed)', async () => {
    const { session, events, client } = await readySession();
    client.waState = 'CONNECTED';
    expect(await session.getState()).toBe('connected');
    client.failNext = new Error('Execution context was destroyed, most likely because of a navigation.');
    await expect(session.getState()).rejects.toMatchObject({ code: 'failed' });
    expect(events.at(-1)).toMatchObject({ type: 'broken' });
    await session.destroy();
  });

  it('other errors fail the send without breaking the session', async () => {
    const { session, events, client } = await readySession();
    client.registered.add('6281111111111@c.us');
    client.failNext = new Error('Evaluation failed: something else');
    await expect(session.sendText('6281111111111', 'x')).rejects.toMatchObject({ code: 'failed' });
    expect(events.some((e) => e.type === 'broken')).toBe(false);
    await expect(session.sendText('6281111111111', 'y')).resolves.toMatchObject({ id: expect.any(String) });
    await session.destroy();
  });

  it('a rate limit or a restricted account fails the send with its own code (ban signals)', async () => {
    const { session, client } = await readySession();
    client.registered.add('6281111111111@c.us');
    client.failNext = new Error('Evaluation failed: rate-overlimit');
    await expect(session.sendText('6281111111111', 'x')).rejects.toMatchObject({ code: 'rate_limited' });
    client.failNext = new Error('Evaluation failed: Error: 403 forbidden');
    await expect(session.sendText('6281111111111', 'x')).rejects.toMatchObject({ code: 'restricted' });
    client.failNext = new Error('Evaluation failed: 429 Too Many Requests');
    await expect(session.isRegistered('6281111111111')).rejects.toMatchObject({ code: 'rate_limited' });
    await session.destroy();
  });

  it('isBrokenError recognises puppeteer page failures only', () => {
    expect(isBrokenError(new Error('Protocol error (Runtime.callFunctionOn): Target closed'))).toBe(true);
    expect(isBrokenError('Execution context was destroyed')).toBe(true);
    expect(isBrokenError(new Error('not-authorized'))).toBe(false);
  });
});

describe('start failures', () => {
  it('times out a hanging initialize(), rejects clearly and destroys the client', async () => {
    const driver = new WwebjsDriver({
      store,
      dataDir,
      chromePath: '/usr/bin/chromium',
      initTimeoutMs: 150,
      clientFactory: (options) => {
        const c = new FakeClient(options);
        c.initBehaviour = 'hang'; // Chromium launched, page.goto() never answers
        c.pupBrowser = { process: () => null };
        clients.push(c);
        return c;
      },
    });
    const session = driver.createSession({ clientId: 'id-1-hang' });
    const t0 = Date.now();
    const err = await session.start().catch((e) => e);
    expect(Date.now() - t0).toBeLessThan(1500);
    expect(err).toBeInstanceOf(InitTimeoutError);
    expect(err.message).toMatch(/did not load within 150 ms/);
    expect(clients[0].browserCloses).toBeGreaterThanOrEqual(1);
  });

  it('closes a browser that finished launching only after the timeout', async () => {
    const driver = new WwebjsDriver({
      store,
      dataDir,
      chromePath: '/usr/bin/chromium',
      initTimeoutMs: 100,
      clientFactory: (options) => {
        const c = new FakeClient(options);
        c.initBehaviour = 'hang';
        // puppeteer.launch() resolves 300 ms in: only then does whatsapp-web.js set pupBrowser
        setTimeout(() => {
          c.pupBrowser = { process: () => null };
        }, 300);
        clients.push(c);
        return c;
      },
    });
    const session = driver.createSession({ clientId: 'id-1-late' });
    const t0 = Date.now();
    await expect(session.start()).rejects.toBeInstanceOf(InitTimeoutError);
    expect(Date.now() - t0).toBeLessThan(290); // start() does not wait for the launch…
    expect(clients[0].browserCloses).toBe(0);
    await session.destroy(); // …destroy() does, and closes the late browser
    expect(clients[0].browserCloses).toBe(1);
  });

  it('rejects with the browser error when initialize() fails (offline) and destroys the client', async () => {
    const driver = new WwebjsDriver({
      store,
      dataDir,
      chromePath: '/usr/bin/chromium',
      clientFactory: (options) => {
        const c = new FakeClient(options);
        c.initBehaviour = new Error('net::ERR_NAME_NOT_RESOLVED at https://web.whatsapp.com/');
        c.pupBrowser = { process: () => null };
        clients.push(c);
        return c;
      },
    });
    const session = driver.createSession({ clientId: 'id-1-off' });
    const events = record(session);
    const err = await session.start().catch((e) => e);
    // the navigation's net error names the cause for the create page (connect-failure.test.ts)
    expect(err).toBeInstanceOf(ConnectFailure);
    expect(err).toMatchObject({ kind: 'unreachable' });
    expect(err.cause.message).toBe('net::ERR_NAME_NOT_RESOLVED at https://web.whatsapp.com/');
    expect(clients[0].browserCloses).toBeGreaterThanOrEqual(1);
    clients[0].emit('qr', 'late');
    expect(events).toEqual([]);
  });
});

describe('logout and destroy', () => {
  it('logout logs out on WhatsApp, deletes the stored session and destroys the client', async () => {
    await store.save('id-1-out', Buffer.from('zip'));
    const { session, events, client } = await readySession('id-1-out');
    await session.logout();
    expect(client.logoutCalls).toBe(1);
    expect(await store.exists('id-1-out')).toBe(false);
    expect(client.destroyCalls).toBeGreaterThanOrEqual(1);
    expect(events.at(-1)).toEqual({ type: 'state', state: 'loggedOut', reason: 'LOGOUT' });
    await expect(session.sendText('6281', 'x')).rejects.toMatchObject({ code: 'not_connected' });
  });

  it('logout still deletes the stored session when WhatsApp Web cannot log out', async () => {
    await store.save('id-1-out2', Buffer.from('zip'));
    const { session, client } = await readySession('id-1-out2');
    client.logoutError = new Error('Attempted to use detached Frame');
    await session.logout();
    expect(await store.exists('id-1-out2')).toBe(false);
  });

  it('destroy is idempotent, never throws, keeps the stored session and kills a browser left running', async () => {
    await store.save('id-1-d', Buffer.from('zip'));
    const { session, events, client } = await readySession('id-1-d');
    const kills: string[] = [];
    client.pupBrowser = {
      process: () => ({
        exitCode: null,
        signalCode: null,
        kill: (signal) => {
          kills.push(String(signal));
          return true;
        },
      }),
    };
    client.destroyError = new Error('Protocol error: Connection closed.');
    await expect(session.destroy()).resolves.toBeUndefined();
    await expect(session.destroy()).resolves.toBeUndefined();
    expect(client.destroyCalls).toBe(1);
    expect(kills).toEqual(['SIGKILL']);
    expect(await store.exists('id-1-d')).toBe(true);
    const before = events.length;
    client.emit('change_state', 'CONFLICT');
    await flush();
    expect(events).toHaveLength(before);
    await expect(session.start()).rejects.toThrow(/already started/);
  });

  it('killBrowsers SIGKILLs every running Chromium synchronously, and the exit hook lives only while sessions do', async () => {
    const exitListeners = process.listenerCount('exit');
    const driver = makeDriver();
    const a = driver.createSession({ clientId: 'id-1-ka' });
    const b = driver.createSession({ clientId: 'id-1-kb' });
    expect(process.listenerCount('exit')).toBe(exitListeners + 1);
    await a.start();
    await b.start();
    const kills: string[] = [];
    const fakeProcess = (name: string, exitCode: number | null) => ({
      process: () => ({
        exitCode,
        signalCode: null,
        kill: (signal?: NodeJS.Signals) => {
          kills.push(`${name} ${signal}`);
          return true;
        },
      }),
    });
    clients[0].pupBrowser = fakeProcess('a', null);
    clients[1].pupBrowser = fakeProcess('b', 0); // already exited
    expect(driver.killBrowsers()).toBe(1);
    expect(kills).toEqual(['a SIGKILL']);
    await driver.close();
    expect(process.listenerCount('exit')).toBe(exitListeners);
  });

  it('driver.close destroys every open session', async () => {
    const driver = makeDriver();
    const a = driver.createSession({ clientId: 'id-1-a' });
    const b = driver.createSession({ clientId: 'id-1-b' });
    await a.start();
    await b.start();
    await driver.close();
    expect(clients.map((c) => c.destroyCalls)).toEqual([1, 1]);
  });
});

describe('RemoteAuth store adapter', () => {
  it('maps session names to clientIds', () => {
    expect(clientIdFromSession('RemoteAuth-id-1-abc')).toBe('id-1-abc');
    expect(clientIdFromSession('id-1-abc')).toBe('id-1-abc');
  });

  /** drives our RemoteAuth strategy with a minimal client, as whatsapp-web.js would */
  function remoteAuth(adapter: RemoteAuthStoreAdapter, clientId: string) {
    const auth = new SafeRemoteAuth({
      clientId,
      store: adapter,
      backupSyncIntervalMs: 60_000,
      dataPath: adapter.zipDir,
    });
    const client = { options: { puppeteer: {} as { userDataDir?: string } }, emit: () => true };
    auth.setup(client);
    return { client, auth };
  }

  it('round-trips a Chromium profile through RemoteAuth, fully extracted before Chromium starts, never in the cwd', async () => {
    const cwdBefore = new Set(readdirSync(process.cwd()));
    const adapter = new RemoteAuthStoreAdapter(store, wwebjsPaths(dataDir).auth);
    const first = remoteAuth(adapter, 'id-1-rt');
    expect(first.auth).toBeInstanceOf(RemoteAuth);
    await first.auth.beforeBrowserInitialized();
    const profile = first.client.options.puppeteer.userDataDir!;
    expect(profile).toBe(path.join(adapter.zipDir, 'RemoteAuth-id-1-rt'));
    mkdirSync(path.join(profile, 'Default', 'Local Storage'), { recursive: true });
    writeFileSync(path.join(profile, 'Default', 'Local Storage', 'leveldb'), 'wa-keys');
    mkdirSync(path.join(profile, 'Default', 'IndexedDB'), { recursive: true });
    writeFileSync(path.join(profile, 'Default', 'IndexedDB', 'big'), Buffer.alloc(256 * 1024, 7));
    mkdirSync(path.join(profile, 'Default', 'Cache'), { recursive: true });
    writeFileSync(path.join(profile, 'Default', 'Cache', 'big'), 'not needed');

    await first.auth.storeRemoteSession();
    const saved = await store.load('id-1-rt');
    expect(saved?.subarray(0, 2).toString()).toBe('PK');
    expect(existsSync(adapter.zipPath('RemoteAuth-id-1-rt'))).toBe(false); // RemoteAuth removed its zip

    rmSync(profile, { recursive: true, force: true });
    const second = remoteAuth(adapter, 'id-1-rt');
    await second.auth.beforeBrowserInitialized();
    // checked right away: upstream RemoteAuth resolves before unzipper has written the files
    expect(readFileSync(path.join(profile, 'Default', 'Local Storage', 'leveldb'), 'utf8')).toBe('wa-keys');
    expect(readFileSync(path.join(profile, 'Default', 'IndexedDB', 'big'))).toEqual(Buffer.alloc(256 * 1024, 7));
    expect(existsSync(path.join(profile, 'Default', 'Cache'))).toBe(false);
    expect(existsSync(adapter.zipPath('RemoteAuth-id-1-rt'))).toBe(false);

    await second.auth.logout(); // RemoteAuth.disconnect → store.delete
    expect(await store.exists('id-1-rt')).toBe(false);
    expect(existsSync(profile)).toBe(false);
    expect(new Set(readdirSync(process.cwd()))).toEqual(cwdBefore);
  });

  it('a destroyed strategy stops its periodic backups but keeps the first save of a fresh login', async () => {
    const adapter = new RemoteAuthStoreAdapter(store, wwebjsPaths(dataDir).auth);
    const { auth, client } = remoteAuth(adapter, 'id-1-stop');
    await auth.beforeBrowserInitialized();
    mkdirSync(path.join(client.options.puppeteer.userDataDir!, 'Default', 'Local Storage'), { recursive: true });
    await auth.destroy();
    await auth.storeRemoteSession(); // what the leaked setInterval would do
    expect(await store.exists('id-1-stop')).toBe(false);
    await auth.storeRemoteSession({ emit: true }); // the delayed first save after a fresh login
    expect(await store.exists('id-1-stop')).toBe(true);
  });

  it('a failing backup does not reject (it would be an unhandled rejection inside setInterval)', async () => {
    const failing = new MemorySessionStore();
    failing.save = async () => {
      throw new Error('database is down');
    };
    const adapter = new RemoteAuthStoreAdapter(failing, wwebjsPaths(dataDir).auth);
    const { auth, client } = remoteAuth(adapter, 'id-1-fail');
    await auth.beforeBrowserInitialized();
    mkdirSync(path.join(client.options.puppeteer.userDataDir!, 'Default', 'Local Storage'), { recursive: true });
    await expect(auth.storeRemoteSession()).resolves.toBeUndefined();
    await expect(adapter.save({ session: 'RemoteAuth-id-1-fail' })).rejects.toThrow(); // the adapter itself does fail
  });

  it('extract writes an empty zip when the session vanished, so the restore falls back to a fresh login', async () => {
    const adapter = new RemoteAuthStoreAdapter(store, wwebjsPaths(dataDir).auth);
    const target = path.join(adapter.zipDir, 'RemoteAuth-gone.zip');
    await adapter.extract({ session: 'RemoteAuth-gone', path: target });
    expect(readFileSync(target)).toEqual(EMPTY_ZIP);

    // the race itself: sessionExists says yes, the row is gone by the time extract runs
    const racing = new MemorySessionStore();
    racing.exists = async () => true;
    const { auth, client } = remoteAuth(new RemoteAuthStoreAdapter(racing, adapter.zipDir), 'gone');
    await expect(auth.beforeBrowserInitialized()).resolves.toBeUndefined();
    expect(client.options.puppeteer.userDataDir).toBe(path.join(adapter.zipDir, 'RemoteAuth-gone'));
    expect(existsSync(target)).toBe(false);
  });
});
