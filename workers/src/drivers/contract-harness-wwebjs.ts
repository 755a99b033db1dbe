/**
 * The driver contract's harness for `wwebjs`: the real WwebjsDriver, with a fake whatsapp-web.js
 * `Client` in place of Chromium and WhatsApp Web (injected through `clientFactory`).
 *
 * The fake acts as whatsapp-web.js 1.34 does (src/Client.js), so the contract sees what the driver
 * would see in production:
 * - it drives the driver's real RemoteAuth strategy as Client does: setup() when built,
 *   beforeBrowserInitialized() in initialize() (unpacking the stored profile), storeRemoteSession()
 *   after a fresh login, logout()/disconnect()/destroy(); so sessions really round-trip through the
 *   SessionStore as zips of a Chromium profile, and a restore is decided by what that profile holds;
 * - events carry whatsapp-web.js's names and payloads, messages being real whatsapp-web.js
 *   `Message` objects built from WhatsApp Web's message models;
 * - a `change_state` outside CONNECTED/OPENING/PAIRING/TIMEOUT makes it do what Client does with
 *   takeoverOnConflict off: RemoteAuth.disconnect() (which deletes the stored session), then
 *   `disconnected`, then destroy().
 */
import { EventEmitter } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientOptions, Message, MessageMedia } from 'whatsapp-web.js';
import pkg from 'whatsapp-web.js';
import type { ContractHarness, RemoteSide } from './contract';
import { MemorySessionStore } from './session-store';
import type { AckKind } from './types';
import { type ClientLike, WwebjsDriver } from './wwebjs';
import type { RemoteAuthInstance } from './wwebjs-store';

/** WhatsApp Web's message model, the `data` whatsapp-web.js builds a Message from. */
interface MessageModel {
  id: { fromMe: boolean; remote: string; id: string; _serialized: string };
  from: string;
  to: string;
  body: string;
  type: string;
  /** seconds */
  t: number;
  ack: number;
  /** set on a button reply (type buttons_response) */
  selectedButtonId?: string;
}

/** whatsapp-web.js's Message class (its typings declare Message as an interface only). */
const WMessage = (pkg as unknown as { Message: new (client: unknown, data: MessageModel) => Message }).Message;

/** whatsapp-web.js's MessageAck values. */
const MESSAGE_ACK: Record<AckKind, number> = { failed: -1, server: 1, delivered: 2, read: 3 };

/** the states Client's onAppStateChangedEvent keeps the client for (takeoverOnConflict off) */
const ACCEPTED_STATES = new Set(['CONNECTED', 'OPENING', 'PAIRING', 'TIMEOUT']);

/** errors as puppeteer reports a failure inside the page's sendMessage */
const SEND_FAILURES: Record<Parameters<RemoteSide['failNextSend']>[0], string> = {
  generic: 'Evaluation failed: Error: Message send failed',
  'rate-limit': 'Evaluation failed: Error: rate-overlimit',
  restricted: 'Evaluation failed: Error: 403 forbidden: this account is restricted',
};

interface Account {
  number: string;
  pushname: string;
}

/** Where the fake's "WhatsApp Web" keeps the linked account: in the profile RemoteAuth saves and restores. */
function accountFile(profile: string): string {
  return path.join(profile, 'Default', 'Local Storage', 'contract-account.json');
}

async function readAccount(profile: string): Promise<Account | null> {
  try {
    return JSON.parse(await readFile(accountFile(profile), 'utf8')) as Account;
  } catch {
    return null;
  }
}

const seconds = () => Math.floor(Date.now() / 1000);

/** whatsapp-web.js's Client, as far as the driver and the contract reach it. */
class FakeWhatsAppWeb extends EventEmitter implements ClientLike {
  info: ClientLike['info'] = null;
  pupBrowser: ClientLike['pupBrowser'] = null;
  private readonly auth: RemoteAuthInstance;
  private waState: string | null = null;
  private readonly registered = new Set<string>();
  private readonly sent = new Map<string, MessageModel>();
  private failure: Error | null = null;
  private serial = 0;

  constructor(readonly options: ClientOptions) {
    super();
    this.auth = options.authStrategy as unknown as RemoteAuthInstance;
    this.auth.setup(this); // as Client's constructor does
  }

  get clientId(): string | undefined {
    return this.auth.clientId;
  }

  /** no network: the navigation to WhatsApp Web fails as Chromium's does offline */
  offline = false;

  async initialize(): Promise<void> {
    // RemoteAuth unpacks the stored profile, if any, before the browser starts
    await this.auth.beforeBrowserInitialized();
    if (this.offline) throw new Error('net::ERR_NAME_NOT_RESOLVED at https://web.whatsapp.com/');
    const account = await readAccount(this.auth.userDataDir);
    // WhatsApp Web then logs that profile in, or asks for a login, from the page (after initialize())
    setImmediate(() => {
      if (account) this.open(account);
      else if (this.options.pairWithPhoneNumber?.phoneNumber) this.emit('code', 'KTRK4S7Q');
      else this.emit('qr', '2@Y29udHJhY3Q=,a2V5MQ==,a2V5Mg==,a2V5Mw==');
    });
  }

  async getState(): Promise<string | null> {
    return this.waState;
  }

  async sendMessage(chatId: string, content: string | MessageMedia, options?: { caption?: string }) {
    const failure = this.failure;
    this.failure = null;
    if (failure) throw failure;
    const media = typeof content !== 'string';
    const model = this.model(true, chatId, media ? (options?.caption ?? '') : content, media ? 'image' : 'chat');
    this.sent.set(model.id._serialized, model);
    return new WMessage(this, model);
  }

  async isRegisteredUser(id: string): Promise<boolean> {
    return this.registered.has(id);
  }

  async logout(): Promise<void> {
    this.waState = null;
    await this.auth.logout();
  }

  async destroy(): Promise<void> {
    await this.auth.destroy();
  }

  // ---- WhatsApp's side ----

  /** the phone linked: WhatsApp Web writes its keys into the profile and logs in */
  async link(account: Account): Promise<void> {
    const file = accountFile(this.auth.userDataDir);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(account));
    this.open(account);
    // RemoteAuth.afterAuthReady saves a fresh login 60 s after `ready` (for WhatsApp Web to settle);
    // the fake saves at once
    await this.auth.storeRemoteSession({ emit: true });
  }

  register(numbers: string[]): void {
    for (const n of numbers) this.registered.add(`${n}@c.us`);
  }

  ack(messageId: string, ack: AckKind): void {
    const value = MESSAGE_ACK[ack];
    this.emit('message_ack', new WMessage(this, { ...this.sentModel(messageId), ack: value }), value);
  }

  /** (the message in its revoked state, the original as whatsapp-web.js remembered it) */
  revoke(messageId: string): void {
    const original = this.sentModel(messageId);
    const revoked = { ...original, type: 'revoked', body: '' };
    this.emit('message_revoke_everyone', new WMessage(this, revoked), new WMessage(this, original));
  }

  reply({ from, text, buttonId }: { from: string; text?: string; buttonId?: string }): void {
    const model = this.model(false, `${from}@c.us`, text ?? '', buttonId ? 'buttons_response' : 'chat');
    if (buttonId) model.selectedButtonId = buttonId;
    this.emit('message', new WMessage(this, model));
  }

  /** Client's onAppStateChangedEvent */
  async changeState(state: string): Promise<void> {
    this.waState = state;
    this.emit('change_state', state);
    if (ACCEPTED_STATES.has(state)) return;
    await this.auth.disconnect();
    this.emit('disconnected', state);
    await this.destroy();
  }

  /** unlinked from the phone: WhatsApp Web navigates to post_logout=1, Client's framenavigated handler runs */
  async unlinked(): Promise<void> {
    this.waState = null;
    this.emit('disconnected', 'LOGOUT');
    await this.auth.logout();
    await this.auth.beforeBrowserInitialized();
  }

  failNextSend(kind: Parameters<RemoteSide['failNextSend']>[0]): void {
    this.failure = new Error(SEND_FAILURES[kind]);
  }

  // ---- internals ----

  private open(account: Account): void {
    this.waState = 'CONNECTED';
    const user = account.number;
    this.info = { pushname: account.pushname, wid: { user, server: 'c.us', _serialized: `${user}@c.us` } };
    this.emit('authenticated');
    this.emit('ready');
  }

  /** a message model of ours (`fromMe`, to `chat`) or of the person `chat` */
  private model(fromMe: boolean, chat: string, body: string, type: string): MessageModel {
    const me = this.info?.wid?._serialized ?? '';
    const key = `3EB0${(++this.serial).toString(16).toUpperCase().padStart(16, '0')}`;
    return {
      id: { fromMe, remote: chat, id: key, _serialized: `${fromMe}_${chat}_${key}` },
      from: fromMe ? me : chat,
      to: fromMe ? chat : me,
      body,
      type,
      t: seconds(),
      ack: fromMe ? 0 : 1,
    };
  }

  private sentModel(messageId: string): MessageModel {
    const model = this.sent.get(messageId);
    if (!model) throw new Error(`the fake whatsapp-web.js client sent no message ${messageId}`);
    return model;
  }
}

function remoteSide(client: FakeWhatsAppWeb, pending: Promise<void>[]): RemoteSide {
  const track = (work: Promise<void>) => {
    pending.push(work);
  };
  return {
    link: (account) => client.link(account),
    register: (numbers) => client.register(numbers),
    ack: (messageId, ack) => client.ack(messageId, ack),
    revoke: (messageId) => client.revoke(messageId),
    reply: (message) => client.reply(message),
    // WhatsApp Web's socket times out when the connection drops
    disconnect: () => track(client.changeState('TIMEOUT')),
    loggedOutFromPhone: () => track(client.unlinked()),
    conflict: () => track(client.changeState('CONFLICT')),
    // a ban shows as a terms-of-service block; WhatsApp Web gives no reason beyond the state
    ban: () => track(client.changeState('TOS_BLOCK')),
    failNextSend: (kind) => client.failNextSend(kind),
  };
}

export async function wwebjsHarness(): Promise<ContractHarness> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'wa-contract-wwebjs-'));
  const store = new MemorySessionStore();
  const clients: FakeWhatsAppWeb[] = [];
  /** remote work still running (state changes, logouts); close() waits for it and surfaces its errors */
  const pending: Promise<void>[] = [];
  let offline = false;
  const driver = new WwebjsDriver({
    store,
    dataDir,
    chromePath: '/nonexistent/chromium', // never launched: the fake client has no browser
    initTimeoutMs: 5000,
    clientFactory: (options) => {
      const client = new FakeWhatsAppWeb(options);
      client.offline = offline;
      clients.push(client);
      return client;
    },
  });
  return {
    driver,
    store,
    remote(clientId) {
      // the newest client: a restore builds a new one for the same clientId
      const client = clients.findLast((c) => c.clientId === clientId);
      if (!client) throw new Error(`no whatsapp-web.js client for ${clientId}`);
      return remoteSide(client, pending);
    },
    unreachable() {
      offline = true;
      return {};
    },
    async close() {
      try {
        await driver.close();
        await Promise.all(pending);
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
