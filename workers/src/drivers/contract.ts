/**
 * The driver contract: what the engine relies on of every WhatsApp driver, as behaviour seen only
 * through the public `WhatsAppSession` API and its events. Each driver runs the same cases through a
 * harness that plays WhatsApp's side of a live session (the phone, the servers, the other people).
 * contract.test.ts runs it against every driver; a new driver gets a harness and one line there.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientInfo } from '@wa/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AckKind,
  ConnectFailure,
  type DriverEvent,
  type DriverState,
  SendError,
  type SendFailureCode,
  type SessionOptions,
  type SessionStore,
  type WhatsAppDriver,
  type WhatsAppSession,
} from './types';

/** WhatsApp's side of one live session, as the phone and the servers would act. */
export interface RemoteSide {
  link(account: { number: string; pushname: string }): Promise<void>; // the phone scans the QR / enters the pairing code
  register(numbers: string[]): void; // these numbers are on WhatsApp (others are not)
  ack(messageId: string, ack: AckKind): void; // a receipt for a message this account sent
  revoke(messageId: string): void; // the member deleted that sent message for everyone
  reply(m: { from: string; text?: string; buttonId?: string }): void; // someone wrote / pressed a template button
  disconnect(): void; // connection lost
  loggedOutFromPhone(): void; // device unlinked from the phone
  conflict(): void; // opened elsewhere / replaced
  ban(reason?: string): void; // WhatsApp restricted/banned the account
  failNextSend(kind: 'generic' | 'rate-limit' | 'restricted'): void; // the next send fails that way
}

export interface ContractHarness {
  driver: WhatsAppDriver;
  store: SessionStore; // the store the driver persists sessions in
  remote(clientId: string): RemoteSide; // valid once that session's start() has resolved
  /**
   * WhatsApp cannot be reached by the sessions started from now on (no network, a dead proxy);
   * returns what such a session is created with (the sim is told by its proxy)
   */
  unreachable(): Pick<SessionOptions, 'proxy'>;
  close(): Promise<void>;
}

/**
 * The numbers the cases use. A harness whose driver decides registration by itself (the sim) must
 * agree that `target` is on WhatsApp and `stranger` is not.
 */
export const CONTRACT_NUMBERS = {
  target: '6281234500001', // on WhatsApp: every case that sends registers it first
  stranger: '6289876500002', // never registered
  account: '6281311112222', // the phone that scans the QR
  pairing: '6285722223333', // the phone that enters the pairing code
  replier: '6281398765432', // a person who writes to the account
} as const;

/** The cases, by the id a driver's `skip` list names them with. */
export const CONTRACT_CASES = {
  qrLogin: 'QR login: qr, then authenticated → ready → connected, and the session is stored',
  qrWaitsForLink: 'QR login: nothing logs in before the phone links',
  qrNumber: 'QR login: ready carries the number of the phone that linked',
  pairingLogin: 'pairing-code login: a code and no qr, then connected as the pairing number',
  connectFailed:
    'a login that cannot reach WhatsApp fails with a ConnectFailure naming the cause (start() rejects or a connect_failed event), with no code',
  restore: 'restore: a stored session logs in again without a qr or code, as the same number',
  sendAndReceipts: 'sendText resolves an id; delivered then read receipts follow in order',
  notRegistered: 'sendText to a number not on WhatsApp fails not_registered',
  notConnectedBeforeLogin: 'sendText before login fails not_connected',
  notConnectedAfterDisconnect: 'sendText after a disconnect fails not_connected',
  sendMedia: 'sendMedia of a file with a caption resolves an id',
  isRegistered: 'isRegistered: true for a registered number, false otherwise',
  rateLimited: 'a rate-limited send fails rate_limited and the session still sends',
  restricted: 'a send refused for a restricted account fails restricted and the session still sends',
  genericFailure: 'any other send failure fails failed and the session still sends',
  revoke: 'a message deleted for everyone is a revoke event with its id',
  replyText: 'a text from a person is a message event with their number and text',
  replyButton: 'a template button press is a message event with its buttonId',
  disconnect: 'a lost connection is state disconnected',
  loggedOutFromPhone: 'unlinked from the phone: state loggedOut and the stored session is deleted',
  conflict: 'opened elsewhere: state conflict',
  conflictKeepsStored: 'opened elsewhere: the stored session is kept (a reconnect takes the account back)',
  ban: 'a ban is a restricted event',
  logout: 'logout(): state loggedOut and the stored session is deleted',
  destroy: 'destroy(): no more events reach listeners, sends fail not_connected, the stored session is kept',
} as const;

export type ContractCase = keyof typeof CONTRACT_CASES;

/** `skip`: the cases this driver cannot pass yet (say why next to the list) */
export type ContractOptions = { skip?: readonly ContractCase[] };

const N = CONTRACT_NUMBERS;
/** RemoteAuth (wwebjs) allows only [-_\w] in a clientId; the engine's ids look like this */
const CLIENT_ID = 'id-1700000000000-contract';
/** generous for a loaded CI machine; a passing case takes milliseconds */
const WAIT = { timeout: 3000, interval: 5 };
/** how long "nothing happens" is watched for */
const QUIET_MS = 150;
/** the bytes of a 1×1 transparent PNG */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

type EventOf<T extends DriverEvent['type']> = Extract<DriverEvent, { type: T }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every event a session emits, in order, with waits on them. */
class Recorder {
  readonly events: DriverEvent[] = [];
  constructor(session: WhatsAppSession) {
    session.on((event) => this.events.push(event));
  }
  of<T extends DriverEvent['type']>(type: T): EventOf<T>[] {
    return this.events.filter((e): e is EventOf<T> => e.type === type);
  }
  /** the first event of that type (matching `match`), waiting for it to come */
  next<T extends DriverEvent['type']>(type: T, match: (e: EventOf<T>) => boolean = () => true): Promise<EventOf<T>> {
    return vi.waitFor(() => {
      const found = this.of(type).find(match);
      if (!found) throw new Error(`no ${type} event yet; got ${JSON.stringify(this.events)}`);
      return found;
    }, WAIT);
  }
  state(state: DriverState): Promise<EventOf<'state'>> {
    return this.next('state', (e) => e.state === state);
  }
}

/** a driver may persist or delete asynchronously: wait for the store to say so */
async function storeSays(store: SessionStore, exists: boolean): Promise<void> {
  await vi.waitFor(async () => expect(await store.exists(CLIENT_ID)).toBe(exists), WAIT);
}

/** the code of the SendError a call rejects with (and that it is one) */
async function failureOf(call: Promise<unknown>): Promise<SendFailureCode> {
  const error = await call.then(() => null).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SendError);
  return (error as SendError).code;
}

type Live = Awaited<ReturnType<typeof started>> & { info: ClientInfo };

/** starts a session; `pairing` logs in with a pairing code instead of a QR */
async function started(h: ContractHarness, pairing = false) {
  const session = h.driver.createSession({ clientId: CLIENT_ID, pairingNumber: pairing ? N.pairing : null });
  const rec = new Recorder(session);
  await session.start();
  return { session, rec, remote: h.remote(CLIENT_ID) };
}

/** a session logged in, connected and stored, with `target` on WhatsApp */
async function loggedIn(h: ContractHarness, pairing = false): Promise<Live> {
  const { session, rec, remote } = await started(h, pairing);
  await rec.next(pairing ? 'code' : 'qr');
  await remote.link({ number: pairing ? N.pairing : N.account, pushname: 'Toko Kontrak' });
  const { info } = await rec.next('ready');
  await rec.state('connected');
  await storeSays(h.store, true);
  remote.register([N.target]);
  return { session, rec, remote, info };
}

/** sends one text to `target` and returns its id */
async function sendOne(live: Live): Promise<string> {
  const { id } = await live.session.sendText(N.target, 'Halo, promo hari ini');
  expect(id).toMatch(/\S/);
  return id;
}

type Case = (h: ContractHarness, tmp: string) => Promise<void>;

const CASES: Record<ContractCase, Case> = {
  async qrLogin(h) {
    const { session, rec, remote } = await started(h);
    expect(await session.getState()).not.toBe('connected');
    const { qr } = await rec.next('qr');
    expect(qr).toMatch(/\S/);
    await remote.link({ number: N.account, pushname: 'Toko Kontrak' });
    await rec.state('connected');
    const at = ['qr', 'authenticated', 'ready', 'connected'].map((step) =>
      rec.events.findIndex((e) => e.type === step || (e.type === 'state' && e.state === step)),
    );
    const inOrder = at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1]));
    expect(inOrder, `qr → authenticated → ready → connected in ${JSON.stringify(rec.events)}`).toBe(true);
    expect(rec.of('ready')[0].info.phonenumber).toMatch(/^62\d{8,13}$/);
    expect(rec.of('code')).toEqual([]);
    expect(await session.getState()).toBe('connected');
    await storeSays(h.store, true);
  },

  async qrWaitsForLink(h) {
    const { rec, remote } = await started(h);
    await rec.next('qr');
    await sleep(QUIET_MS);
    expect(rec.events.filter((e) => e.type === 'authenticated' || e.type === 'ready')).toEqual([]);
    expect(await h.store.exists(CLIENT_ID)).toBe(false);
    // and the login still completes once the phone does link
    await remote.link({ number: N.account, pushname: 'Toko Kontrak' });
    await rec.state('connected');
  },

  async qrNumber(h) {
    const { info } = await loggedIn(h);
    expect(info.phonenumber).toBe(N.account);
  },

  async pairingLogin(h) {
    const { rec, info } = await loggedIn(h, true);
    const { code } = rec.of('code')[0];
    expect(code).toMatch(/\S/);
    expect(rec.of('qr')).toEqual([]);
    expect(info.phonenumber).toBe(N.pairing);
  },

  async connectFailed(h) {
    const session = h.driver.createSession({ clientId: CLIENT_ID, ...h.unreachable() });
    const rec = new Recorder(session);
    const rejected = await session.start().then(
      () => null,
      (e: unknown) => e,
    );
    // either way is the driver's: a browser's navigation rejects start(), a socket fails after it
    const failure = rejected
      ? (() => {
          expect(rejected).toBeInstanceOf(ConnectFailure);
          return { kind: (rejected as ConnectFailure).kind, message: (rejected as ConnectFailure).message };
        })()
      : await rec.next('connect_failed');
    expect(failure.kind).toBe('unreachable');
    expect(failure.message).toMatch(/WhatsApp could not be reached/);
    await sleep(QUIET_MS);
    expect(rec.events.filter((e) => e.type === 'qr' || e.type === 'code' || e.type === 'ready')).toEqual([]);
    expect(await session.getState()).not.toBe('connected');
    expect(await h.store.exists(CLIENT_ID)).toBe(false);
  },

  async restore(h) {
    const first = await loggedIn(h);
    await first.session.destroy();
    expect(await h.store.exists(CLIENT_ID)).toBe(true);
    const { session, rec } = await started(h);
    await rec.state('connected');
    expect(rec.events.filter((e) => e.type === 'qr' || e.type === 'code')).toEqual([]);
    expect(rec.of('ready')[0]?.info.phonenumber).toBe(first.info.phonenumber);
    expect(await session.getState()).toBe('connected');
  },

  async sendAndReceipts(h) {
    const live = await loggedIn(h);
    const id = await sendOne(live);
    live.remote.ack(id, 'delivered');
    live.remote.ack(id, 'read');
    // a driver may report the server's receipt of the send by itself: only the phone's count here
    const acks = () => live.rec.of('ack').filter((e) => e.messageId === id && e.ack !== 'server');
    await vi.waitFor(() => expect(acks()).toHaveLength(2), WAIT);
    expect(acks().map((e) => e.ack)).toEqual(['delivered', 'read']);
  },

  async notRegistered(h) {
    const { session } = await loggedIn(h);
    expect(await failureOf(session.sendText(N.stranger, 'Halo'))).toBe('not_registered');
  },

  async notConnectedBeforeLogin(h) {
    const session = h.driver.createSession({ clientId: CLIENT_ID });
    expect(await failureOf(session.sendText(N.target, 'Halo'))).toBe('not_connected');
    const rec = new Recorder(session);
    await session.start();
    h.remote(CLIENT_ID).register([N.target]);
    expect(await failureOf(session.sendText(N.target, 'Halo'))).toBe('not_connected');
    await rec.next('qr'); // it was indeed waiting for a login
  },

  async notConnectedAfterDisconnect(h) {
    const { session, rec, remote } = await loggedIn(h);
    remote.disconnect();
    await rec.state('disconnected');
    expect(await failureOf(session.sendText(N.target, 'Halo'))).toBe('not_connected');
  },

  async sendMedia(h, tmp) {
    const { session } = await loggedIn(h);
    const file = path.join(tmp, 'upload-7f3a'); // stored uploads have no extension
    await writeFile(file, PNG);
    const media = { path: file, mimetype: 'image/png', filename: 'promo.png' };
    const { id } = await session.sendMedia(N.target, media, 'Diskon 50%');
    expect(id).toMatch(/\S/);
  },

  async isRegistered(h) {
    const { session } = await loggedIn(h);
    expect(await session.isRegistered(N.target)).toBe(true);
    expect(await session.isRegistered(N.stranger)).toBe(false);
  },

  rateLimited: (h) => failsThenSends(h, 'rate-limit', 'rate_limited'),
  restricted: (h) => failsThenSends(h, 'restricted', 'restricted'),
  genericFailure: (h) => failsThenSends(h, 'generic', 'failed'),

  async revoke(h) {
    const live = await loggedIn(h);
    const id = await sendOne(live);
    live.remote.revoke(id);
    await live.rec.next('revoke', (e) => e.messageId === id);
  },

  async replyText(h) {
    const { rec, remote } = await loggedIn(h);
    remote.reply({ from: N.replier, text: 'STOP' });
    const message = await rec.next('message');
    expect(message).toEqual({ type: 'message', from: N.replier, text: 'STOP' });
  },

  async replyButton(h) {
    const { rec, remote } = await loggedIn(h);
    remote.reply({ from: N.replier, text: 'Berhenti', buttonId: 'stop-1' });
    const message = await rec.next('message');
    expect(message.from).toBe(N.replier);
    expect(message.buttonId).toBe('stop-1');
  },

  async disconnect(h) {
    const { rec, remote } = await loggedIn(h);
    remote.disconnect();
    await rec.state('disconnected');
  },

  async loggedOutFromPhone(h) {
    const { rec, remote } = await loggedIn(h);
    remote.loggedOutFromPhone();
    await rec.state('loggedOut');
    await storeSays(h.store, false);
  },

  async conflict(h) {
    const { rec, remote } = await loggedIn(h);
    remote.conflict();
    await rec.state('conflict');
  },

  async conflictKeepsStored(h) {
    const { rec, remote } = await loggedIn(h);
    remote.conflict();
    await rec.state('conflict');
    await sleep(QUIET_MS); // whatever the client does after a conflict, it has done it by now
    expect(await h.store.exists(CLIENT_ID)).toBe(true);
  },

  async ban(h) {
    const { rec, remote } = await loggedIn(h);
    remote.ban('temporarily banned for spam');
    const { reason } = await rec.next('restricted');
    expect(reason).toMatch(/\S/);
  },

  async logout(h) {
    const { session, rec } = await loggedIn(h);
    await session.logout();
    expect(await h.store.exists(CLIENT_ID)).toBe(false);
    await rec.state('loggedOut');
    expect(await session.getState()).toBe('loggedOut');
  },

  async destroy(h) {
    const live = await loggedIn(h);
    const id = await sendOne(live);
    const before = live.rec.events.length;
    await live.session.destroy();
    // WhatsApp's side may still have things in flight; a remote may also refuse a destroyed session
    const late = [
      () => live.remote.ack(id, 'delivered'),
      () => live.remote.reply({ from: N.replier, text: 'late' }),
      () => live.remote.disconnect(),
    ];
    await Promise.allSettled(late.map(async (happen) => happen()));
    await sleep(QUIET_MS);
    expect(live.rec.events.slice(before)).toEqual([]);
    expect(await failureOf(live.session.sendText(N.target, 'Halo'))).toBe('not_connected');
    expect(await h.store.exists(CLIENT_ID)).toBe(true);
  },
};

type FailKind = Parameters<RemoteSide['failNextSend']>[0];

/** the next send fails as told, and the session goes on sending (the engine pauses, then resumes) */
async function failsThenSends(h: ContractHarness, kind: FailKind, code: SendFailureCode): Promise<void> {
  const live = await loggedIn(h);
  live.remote.failNextSend(kind);
  expect(await failureOf(live.session.sendText(N.target, 'Halo'))).toBe(code);
  await sendOne(live);
}

/** Registers the contract's cases for one driver, each on a fresh harness. */
export function describeDriverContract(
  name: string,
  makeHarness: () => Promise<ContractHarness>,
  options: ContractOptions = {},
): void {
  const skip = new Set(options.skip ?? []);
  describe(`driver contract: ${name}`, () => {
    let harness: ContractHarness | null = null;
    let tmp = '';
    beforeEach(async () => {
      tmp = await mkdtemp(path.join(tmpdir(), 'wa-contract-'));
      harness = await makeHarness();
    });
    afterEach(async () => {
      await harness?.close();
      harness = null;
      await rm(tmp, { recursive: true, force: true });
    });
    for (const id of Object.keys(CASES) as ContractCase[]) {
      const run = CASES[id];
      (skip.has(id) ? it.skip : it)(`${CONTRACT_CASES[id]} [${id}]`, async () => {
        if (!harness) throw new Error('no harness');
        await run(harness, tmp);
      });
    }
  });
}
