import { EventEmitter } from 'node:events';
import type {
  AnyMessageContent,
  AuthenticationState,
  BaileysEventMap,
  UserFacingSocketConfig,
  WAMessage,
} from '@whiskeysockets/baileys';
import { proto, WAMessageStubType } from '@whiskeysockets/baileys';
import type { SocketFactory, SocketLike } from './baileys';

/**
 * A stand-in for Baileys' socket (tests only): what the driver calls is recorded, and `emit*`
 * produce Baileys' own event shapes (`connection.update`, `creds.update`, `messages.upsert`,
 * `messages.update`, `message-receipt.update`) as WhatsApp's servers would cause them. No network.
 */
export class FakeSocket implements SocketLike {
  private readonly emitter = new EventEmitter();
  readonly ev: SocketLike['ev'] = {
    on: (event, listener) => {
      this.emitter.on(event, listener as (arg: unknown) => void);
    },
    removeAllListeners: (event) => {
      this.emitter.removeAllListeners(event);
    },
  };
  user: SocketLike['user'] = undefined;
  readonly sent: { jid: string; content: AnyMessageContent; id: string }[] = [];
  readonly pairingRequests: string[] = [];
  /** every jid a number check (onWhatsApp) asked about */
  readonly checked: string[] = [];
  /** numbers (digits) on WhatsApp */
  registered = new Set<string>();
  /** the next sendMessage / onWhatsApp rejects with this */
  failNext: Error | null = null;
  ended = false;
  logouts = 0;

  constructor(readonly config: UserFacingSocketConfig) {}

  get auth(): AuthenticationState {
    return this.config.auth;
  }

  listeners(event: keyof BaileysEventMap): number {
    return this.emitter.listenerCount(event);
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    this.pairingRequests.push(phoneNumber);
    return `CODE${String(this.pairingRequests.length).padStart(4, '0')}`;
  }

  async sendMessage(jid: string, content: AnyMessageContent): Promise<WAMessage | undefined> {
    this.takeFailure();
    const id = `3EB0${String(this.sent.length + 1).padStart(16, '0')}`;
    this.sent.push({ jid, content, id });
    return { key: { id, fromMe: true, remoteJid: jid } };
  }

  async onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[] | undefined> {
    this.takeFailure();
    this.checked.push(...jids);
    return jids.map((jid) => ({ jid, exists: this.registered.has(jid.split('@')[0] ?? '') }));
  }

  async logout(): Promise<void> {
    this.logouts++;
  }

  end(): void {
    this.ended = true;
  }

  private takeFailure(): void {
    const e = this.failNext;
    this.failNext = null;
    if (e) throw e;
  }

  // ---- WhatsApp's side ----

  emit<E extends keyof BaileysEventMap>(event: E, arg: BaileysEventMap[E]): void {
    this.emitter.emit(event, arg);
  }

  qr(qr: string): void {
    this.emit('connection.update', { qr });
  }

  /** The phone scanned the QR or entered the code: WhatsApp signs the device (pair-success). */
  pairSuccess(number: string, name = 'Member'): void {
    const update = {
      me: { id: `${number}:12@s.whatsapp.net`, name },
      account: proto.ADVSignedDeviceIdentity.fromObject({ details: Buffer.from('d') }),
      platform: 'smba',
    };
    Object.assign(this.auth.creds, update);
    this.emit('creds.update', update);
  }

  open(number: string, name = 'Member'): void {
    this.user = { id: `${number}:12@s.whatsapp.net`, name };
    this.emit('connection.update', { connection: 'open' });
  }

  close(statusCode?: number, message = 'closed'): void {
    const error = Object.assign(new Error(message), { output: { statusCode } });
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }

  status(id: string, status: proto.WebMessageInfo.Status, fromMe = true): void {
    this.emit('messages.update', [{ key: { id, fromMe, remoteJid: '6281@s.whatsapp.net' }, update: { status } }]);
  }

  revoke(id: string): void {
    this.emit('messages.update', [
      {
        key: { id, fromMe: true, remoteJid: '6281@s.whatsapp.net' },
        update: { message: null, messageStubType: WAMessageStubType.REVOKE },
      },
    ]);
  }

  receipt(id: string, receipt: { receiptTimestamp?: number; readTimestamp?: number }): void {
    this.emit('message-receipt.update', [
      {
        key: { id, fromMe: true, remoteJid: '6281@s.whatsapp.net' },
        receipt: { userJid: '6281@s.whatsapp.net', ...receipt },
      },
    ]);
  }

  incoming(message: WAMessage, type: 'notify' | 'append' = 'notify'): void {
    this.emit('messages.upsert', { messages: [message], type });
  }
}

/** A socket factory that keeps every socket it made (a reconnect makes a new one). */
export function fakeSockets(): { factory: SocketFactory; made: FakeSocket[]; last(): FakeSocket } {
  const made: FakeSocket[] = [];
  return {
    made,
    factory: (config) => {
      const s = new FakeSocket(config);
      made.push(s);
      return s;
    },
    last: () => {
      const s = made.at(-1);
      if (!s) throw new Error('no socket was made');
      return s;
    },
  };
}

/**
 * WhatsApp's side for many sessions at once (tests only): each new socket behaves as WhatsApp's
 * servers make it — one without logged-in credentials shows a QR, one with them (a restore on any
 * worker, or the login again after a pairing's restartRequired) opens — and the phone's side is
 * played per device id. `registered` is who is on WhatsApp, for every socket.
 */
export class FakeWhatsApp {
  readonly registered = new Set<string>();
  /** no network: new sockets close as Baileys closes one whose host cannot be resolved */
  offline = false;
  private readonly sockets = new Map<string, FakeSocket[]>();
  private readonly timers = new Set<NodeJS.Timeout>();

  readonly factory: SocketFactory = (config, clientId) => {
    const socket = new FakeSocket(config);
    socket.registered = this.registered;
    const list = this.sockets.get(clientId) ?? [];
    list.push(socket);
    this.sockets.set(clientId, list);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.offline) unreachable(socket);
      else connectLikeWhatsApp(socket, list.length);
    }, 1);
    this.timers.add(timer);
    return socket;
  };

  /** the session's current socket */
  socket(clientId: string): FakeSocket {
    const s = this.sockets.get(clientId)?.at(-1);
    if (!s) throw new Error(`no socket for ${clientId}`);
    return s;
  }

  /** every socket a session has had (a reconnect or a restore makes a new one) */
  socketsOf(clientId: string): FakeSocket[] {
    return this.sockets.get(clientId) ?? [];
  }

  /** The phone scans the QR (or enters the code): pair-success, then WhatsApp's restartRequired. */
  link(clientId: string, number: string, name = 'Member'): void {
    const socket = this.socket(clientId);
    socket.pairSuccess(number, name);
    socket.close(515, 'restart required');
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** A socket whose host cannot be resolved, as Baileys reports it (a Boom over ws's error, 408). */
function unreachable(socket: FakeSocket): void {
  if (socket.ended) return;
  const cause = Object.assign(new Error('getaddrinfo ENOTFOUND web.whatsapp.com'), { code: 'ENOTFOUND' });
  const error = Object.assign(new Error('WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)'), {
    output: { statusCode: 408 },
    data: cause,
  });
  socket.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
}

/** What WhatsApp does with a new socket: a QR for a new login, the connection for known credentials. */
function connectLikeWhatsApp(socket: FakeSocket, n: number): void {
  if (socket.ended) return;
  const { creds } = socket.auth;
  const me = creds.me;
  if (creds.account && me) socket.open(me.id.split(/[:@]/)[0] ?? '', me.name ?? '');
  else socket.qr(`2@fake-qr-${n}`);
}
