import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BufferJSON, initAuthCreds, proto } from '@whiskeysockets/baileys';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BaileysDriver, baileysFailure, closeAction, toClientInfo } from './baileys';
import { MemoryAuthKeyStore } from './baileys-auth';
import { type FakeSocket, fakeSockets } from './baileys-fake';
import { proxyAgent } from './proxy-agent';
import { MemorySessionStore } from './session-store';
import { type DriverEvent, SendError, type SessionOptions, type WhatsAppSession } from './types';

const NUMBER = '6281234567890';
const { Status } = proto.WebMessageInfo;

let store: MemorySessionStore;
let keys: MemoryAuthKeyStore;
let sockets: ReturnType<typeof fakeSockets>;
let driver: BaileysDriver;
let dir: string;

beforeEach(() => {
  store = new MemorySessionStore();
  keys = new MemoryAuthKeyStore();
  sockets = fakeSockets();
  driver = new BaileysDriver({ store, keys, socketFactory: sockets.factory, reconnectDelaysMs: [5] });
  dir = mkdtempSync(path.join(tmpdir(), 'baileys-test-'));
});
afterEach(async () => {
  await driver.close();
  rmSync(dir, { recursive: true, force: true });
});

async function started(
  options: Partial<SessionOptions> = {},
): Promise<{ session: WhatsAppSession; events: DriverEvent[] }> {
  const session = driver.createSession({ clientId: 'id-1', ...options });
  const events: DriverEvent[] = [];
  session.on((e) => events.push(e));
  await session.start();
  return { session, events };
}

const tick = () => new Promise((r) => setTimeout(r, 20));
const types = (events: DriverEvent[]) => events.map((e) => (e.type === 'state' ? `state:${e.state}` : e.type));

/** A QR login through to connected, as WhatsApp runs it: QR, pair-success, restart (515), open. */
async function loggedIn(options: Partial<SessionOptions> = {}) {
  const s = await started(options);
  sockets.last().qr('QR-1');
  sockets.last().pairSuccess(NUMBER, 'Budi');
  sockets.last().close(515, 'restart required');
  sockets.last().open(NUMBER, 'Budi');
  await tick();
  return s;
}

/** A stored session that had logged in: the next start restores it. */
async function storeLoggedIn(clientId = 'id-1') {
  const creds = {
    ...initAuthCreds(),
    me: { id: `${NUMBER}:3@s.whatsapp.net` },
    account: { details: Buffer.from('x') },
  };
  await store.save(clientId, Buffer.from(JSON.stringify(creds, BufferJSON.replacer)));
}

describe('Baileys driver: login', () => {
  it('shows the QR, hears the pairing, reconnects on restartRequired with the same credentials and connects', async () => {
    const { session, events } = await loggedIn();
    expect(events[0]).toEqual({ type: 'qr', qr: 'QR-1' });
    expect(types(events)).toEqual(['qr', 'authenticated', 'ready', 'state:connected']);
    expect(events.find((e) => e.type === 'ready')).toEqual({
      type: 'ready',
      info: { phonenumber: NUMBER, pushname: 'Budi', server: 's.whatsapp.net', serialized: `${NUMBER}@s.whatsapp.net` },
    });
    // a second socket, on the same auth state, after the 515
    expect(sockets.made).toHaveLength(2);
    expect(sockets.made[1]?.auth.creds).toBe(sockets.made[0]?.auth.creds);
    expect(sockets.made[0]?.ended).toBe(true);
    expect(await session.getState()).toBe('connected');
    // the credentials are stored once logged in, and restore on another worker
    const saved = await store.load('id-1');
    expect(JSON.parse(String(saved), BufferJSON.reviver).me.id).toBe(`${NUMBER}:12@s.whatsapp.net`);
  });

  it('stores nothing before the phone pairs: a QR shown is no session to restore', async () => {
    await started();
    sockets.last().qr('QR-1');
    sockets.last().emit('creds.update', { nextPreKeyId: 31 });
    await tick();
    expect(await store.exists('id-1')).toBe(false);
  });

  it('asks for a pairing code once the socket is connecting, only once per socket, and shows no QR', async () => {
    const { events } = await started({ pairingNumber: '+62 812-3456-7890' });
    expect(sockets.last().pairingRequests).toEqual([]);
    sockets.last().qr('QR-1');
    sockets.last().qr('QR-2');
    await tick();
    expect(sockets.last().pairingRequests).toEqual([NUMBER]);
    expect(events).toEqual([{ type: 'code', code: 'CODE0001' }]);
  });

  it('restores a stored session without a code, and one WhatsApp no longer knows ends logged out and deleted', async () => {
    await storeLoggedIn();
    const { events } = await started();
    sockets.last().open(NUMBER);
    await tick();
    expect(types(events)).toEqual(['authenticated', 'ready', 'state:connected']);
    await driver.close();

    await storeLoggedIn('id-2');
    const again = driver.createSession({ clientId: 'id-2' });
    const seen: DriverEvent[] = [];
    again.on((e) => seen.push(e));
    await again.start();
    sockets.last().qr('QR-X');
    await tick();
    expect(types(seen)).toEqual(['auth_failure', 'state:loggedOut']);
    expect(await store.exists('id-2')).toBe(false);
  });
});

describe('Baileys driver: connection closes', () => {
  it('maps close codes to what the session does next', () => {
    expect(closeAction(515)).toBe('restart');
    expect(closeAction(401)).toBe('loggedOut');
    expect(closeAction(440)).toBe('conflict');
    expect(closeAction(403)).toBe('banned');
    expect(closeAction(500)).toBe('badSession');
    expect(closeAction(408)).toBe('retry');
    expect(closeAction(undefined)).toBe('retry');
  });

  it('a lost connection reconnects by itself and comes back connected', async () => {
    const { events, session } = await loggedIn();
    sockets.last().close(408, 'connection lost');
    await tick();
    expect(await session.getState()).toBe('disconnected');
    expect(sockets.made).toHaveLength(3);
    sockets.last().open(NUMBER);
    await tick();
    expect(types(events).slice(-3)).toEqual(['state:disconnected', 'ready', 'state:connected']);
  });

  it('logged out on the phone: state loggedOut, the stored session and its keys deleted, no reconnect', async () => {
    const { events } = await loggedIn();
    await keys.write('id-1', [{ type: 'pre-key', id: '1', value: '{}' }]);
    sockets.last().close(401, 'logged out');
    await tick();
    expect(types(events).at(-1)).toBe('state:loggedOut');
    expect(await store.exists('id-1')).toBe(false);
    expect(keys.data.has('id-1')).toBe(false);
    expect(sockets.made).toHaveLength(2);
  });

  it('replaced elsewhere: conflict, the stored session kept, no reconnect', async () => {
    const { events } = await loggedIn();
    sockets.last().close(440, 'replaced');
    await tick();
    expect(types(events).at(-1)).toBe('state:conflict');
    expect(await store.exists('id-1')).toBe(true);
    expect(sockets.made).toHaveLength(2);
  });

  it('banned (403): a restricted event, then disconnected, no reconnect', async () => {
    const { events } = await loggedIn();
    sockets.last().close(403, 'forbidden');
    await tick();
    expect(types(events).slice(-2)).toEqual(['restricted', 'state:disconnected']);
    expect(sockets.made).toHaveLength(2);
  });
});

describe('Baileys driver: sending', () => {
  it('sends text to a number on WhatsApp and returns the message id; refuses others', async () => {
    const { session } = await loggedIn();
    const socket = sockets.last();
    socket.registered.add('6285700000001');
    const sent = await session.sendText('6285700000001', 'Halo');
    expect(sent.id).toMatch(/^3EB0/);
    expect(sent).toEqual({ id: socket.sent[0]?.id });
    expect(socket.sent[0]).toMatchObject({ jid: '6285700000001@s.whatsapp.net', content: { text: 'Halo' } });
    await expect(session.sendText('6285700000002', 'Halo')).rejects.toMatchObject({ code: 'not_registered' });
    expect(await session.isRegistered('6285700000001')).toBe(true);
    expect(await session.isRegistered('6285700000002')).toBe(false);
  });

  it('sends pictures with their caption and other files as documents; a missing file fails', async () => {
    const { session } = await loggedIn();
    const socket = sockets.last();
    socket.registered.add('6285700000001');
    const file = path.join(dir, 'a.png');
    writeFileSync(file, Buffer.from('89504e47', 'hex'));
    await session.sendMedia('6285700000001', { path: file, mimetype: 'image/png', filename: 'a.png' }, 'Lihat');
    expect(socket.sent[0]?.content).toEqual({ image: { url: file }, mimetype: 'image/png', caption: 'Lihat' });
    await session.sendMedia('6285700000001', { path: file, mimetype: 'application/pdf', filename: 'a.pdf' });
    expect(socket.sent[1]?.content).toEqual({
      document: { url: file },
      mimetype: 'application/pdf',
      fileName: 'a.pdf',
    });
    const missing = { path: path.join(dir, 'none.png'), mimetype: 'image/png', filename: 'none.png' };
    await expect(session.sendMedia('6285700000001', missing)).rejects.toMatchObject({ code: 'failed' });
  });

  it("turns WhatsApp's refusals into the kinds the engine acts on", async () => {
    const { session } = await loggedIn();
    const socket = sockets.last();
    socket.registered.add('6285700000001');
    socket.failNext = Object.assign(new Error('rate-overlimit'), { output: { statusCode: 429 } });
    await expect(session.sendText('6285700000001', 'x')).rejects.toMatchObject({ code: 'rate_limited' });
    expect(baileysFailure(Object.assign(new Error('x'), { output: { statusCode: 403 } }))).toBe('restricted');
    expect(baileysFailure(new Error('Connection Closed'))).toBe('not_connected');
    expect(baileysFailure(new Error('Timed Out'))).toBe('failed');
  });

  it('gives WhatsApp back the text of a sent message a device could not decrypt, from the log', async () => {
    const asked: string[] = [];
    const d = new BaileysDriver({
      store,
      keys,
      socketFactory: sockets.factory,
      sentText: async (clientId, id) => {
        asked.push(`${clientId}/${id}`);
        return id === 'M1' ? 'Halo Budi' : null;
      },
    });
    await d.createSession({ clientId: 'id-9' }).start();
    const { getMessage } = sockets.last().config;
    expect(await getMessage?.({ id: 'M1', fromMe: true })).toEqual({ conversation: 'Halo Budi' });
    expect(await getMessage?.({ id: 'M2', fromMe: true })).toBeUndefined();
    expect(asked).toEqual(['id-9/M1', 'id-9/M2']);
    await d.close();
  });

  it('refuses to send while not connected', async () => {
    const { session } = await started();
    const sent = session.sendText('6285700000001', 'x');
    await expect(sent).rejects.toBeInstanceOf(SendError);
    await expect(sent).rejects.toMatchObject({ code: 'not_connected' });
  });
});

describe('Baileys driver: what WhatsApp tells', () => {
  let socket: FakeSocket;
  let events: DriverEvent[];
  beforeEach(async () => {
    ({ events } = await loggedIn());
    socket = sockets.last();
    events.length = 0;
  });

  it('reports receipts of its own messages from messages.update and message-receipt.update', () => {
    socket.status('M1', Status.SERVER_ACK);
    socket.status('M1', Status.DELIVERY_ACK);
    socket.status('M1', Status.READ);
    socket.status('M2', Status.ERROR);
    socket.status('M3', Status.DELIVERY_ACK, false);
    socket.receipt('M4', { receiptTimestamp: 1 });
    socket.receipt('M4', { receiptTimestamp: 1, readTimestamp: 2 });
    expect(events).toEqual([
      { type: 'ack', messageId: 'M1', ack: 'server' },
      { type: 'ack', messageId: 'M1', ack: 'delivered' },
      { type: 'ack', messageId: 'M1', ack: 'read' },
      { type: 'ack', messageId: 'M2', ack: 'failed' },
      { type: 'ack', messageId: 'M4', ack: 'delivered' },
      { type: 'ack', messageId: 'M4', ack: 'read' },
    ]);
  });

  it('reports a revoke of its own message (rule #1)', () => {
    socket.revoke('M9');
    expect(events).toEqual([{ type: 'revoke', messageId: 'M9' }]);
  });

  it('reports messages from people, with the button pressed; not groups, not its own, not history', () => {
    socket.incoming({
      key: { remoteJid: '6285700000001@s.whatsapp.net', fromMe: false, id: 'I1' },
      message: { conversation: 'STOP' },
    });
    socket.incoming({
      key: { remoteJid: '1234567@lid', remoteJidAlt: '6285700000002@s.whatsapp.net', fromMe: false, id: 'I2' },
      message: { buttonsResponseMessage: { selectedButtonId: 'stop-1', selectedDisplayText: 'Berhenti' } },
    });
    socket.incoming({ key: { remoteJid: '1203@g.us', fromMe: false, id: 'I3' }, message: { conversation: 'grup' } });
    socket.incoming({
      key: { remoteJid: '6285700000001@s.whatsapp.net', fromMe: true, id: 'I4' },
      message: { conversation: 'me' },
    });
    socket.incoming(
      { key: { remoteJid: '6285700000001@s.whatsapp.net', fromMe: false, id: 'I5' }, message: { conversation: 'old' } },
      'append',
    );
    expect(events).toEqual([
      { type: 'message', from: '6285700000001', text: 'STOP' },
      { type: 'message', from: '6285700000002', text: 'Berhenti', buttonId: 'stop-1' },
    ]);
  });
});

describe('Baileys driver: ending', () => {
  it('logout logs out on WhatsApp, deletes the session and its keys', async () => {
    const { session, events } = await loggedIn();
    const socket = sockets.last();
    await keys.write('id-1', [{ type: 'session', id: '6281.0', value: '{}' }]);
    await session.logout();
    expect(socket.logouts).toBe(1);
    expect(await store.exists('id-1')).toBe(false);
    expect(keys.data.has('id-1')).toBe(false);
    expect(types(events).at(-1)).toBe('state:loggedOut');
  });

  it('destroy closes the socket, keeps the stored session and tells nothing more', async () => {
    const { session, events } = await loggedIn();
    const socket = sockets.last();
    const before = events.length;
    await session.destroy();
    socket.status('M1', Status.DELIVERY_ACK);
    expect(socket.ended).toBe(true);
    expect(socket.listeners('messages.update')).toBe(0);
    expect(events).toHaveLength(before);
    expect(await store.exists('id-1')).toBe(true);
  });
});

describe('Baileys driver: proxies and identity', () => {
  it('uses the account proxy for the socket and uploads, SOCKS5 with credentials included', async () => {
    expect(proxyAgent(null)).toBeUndefined();
    expect(proxyAgent({ protocol: 'http', host: '10.0.0.1', port: 3128 })).toBeInstanceOf(HttpsProxyAgent);
    const socks = proxyAgent({ protocol: 'socks5', host: '10.0.0.2', port: 1080, username: 'u@x', password: 'p:w' });
    expect(socks).toBeInstanceOf(SocksProxyAgent);
    expect((socks as SocksProxyAgent).proxy).toMatchObject({
      host: '10.0.0.2',
      port: 1080,
      userId: 'u@x',
      password: 'p:w',
    });
    await started({ proxy: { protocol: 'socks5', host: '10.0.0.2', port: 1080, username: 'u', password: 'p' } });
    expect(sockets.last().config.agent).toBeInstanceOf(SocksProxyAgent);
    expect(sockets.last().config.fetchAgent).toBe(sockets.last().config.agent);
  });

  it('reads the account number from a device jid', () => {
    expect(toClientInfo({ id: `${NUMBER}:7@s.whatsapp.net`, name: 'A' })).toEqual({
      phonenumber: NUMBER,
      pushname: 'A',
      server: 's.whatsapp.net',
      serialized: `${NUMBER}@s.whatsapp.net`,
    });
  });
});
