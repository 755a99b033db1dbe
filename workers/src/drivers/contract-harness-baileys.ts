/**
 * The driver contract's harness for `baileys`: the real BaileysDriver and auth state, over a fake
 * socket (baileys-fake.ts) that emits Baileys' own event shapes. WhatsApp's side acts as it does for
 * a real socket: a socket with no logged-in credentials shows a QR by itself; one with them (a
 * restore, or the login again after a pairing's restartRequired) opens by itself. A lost
 * connection is retried only after a minute here, so the cases see the session while it is down.
 */
import { proto } from '@whiskeysockets/baileys';
import { BaileysDriver } from './baileys';
import { MemoryAuthKeyStore } from './baileys-auth';
import { FakeSocket } from './baileys-fake';
import type { ContractHarness, RemoteSide } from './contract';
import { MemorySessionStore } from './session-store';
import type { AckKind } from './types';

const { Status } = proto.WebMessageInfo;
const STATUS: Record<AckKind, proto.WebMessageInfo.Status> = {
  server: Status.SERVER_ACK,
  delivered: Status.DELIVERY_ACK,
  read: Status.READ,
  failed: Status.ERROR,
};

export async function baileysHarness(): Promise<ContractHarness> {
  const store = new MemorySessionStore();
  const registered = new Set<string>();
  const made: FakeSocket[] = [];
  const timers: NodeJS.Timeout[] = [];
  const driver = new BaileysDriver({
    store,
    keys: new MemoryAuthKeyStore(),
    reconnectDelaysMs: [60_000],
    socketFactory: (config) => {
      const socket = new FakeSocket(config);
      socket.registered = registered;
      made.push(socket);
      timers.push(setTimeout(() => connectLikeWhatsApp(socket, made.length), 1));
      return socket;
    },
  });
  const last = () => {
    const socket = made.at(-1);
    if (!socket) throw new Error('no socket yet');
    return socket;
  };
  return {
    driver,
    store,
    remote: () => remoteSide(last),
    async close() {
      for (const t of timers) clearTimeout(t);
      await driver.close();
    },
  };
}

/** What WhatsApp does with a new socket: a QR for a new login, the connection for known credentials. */
function connectLikeWhatsApp(socket: FakeSocket, n: number): void {
  if (socket.ended) return;
  const me = socket.auth.creds.me;
  if (socket.auth.creds.account && me) socket.open(me.id.split(/[:@]/)[0] ?? '', me.name ?? '');
  else socket.qr(`2@fake-qr-${n}`);
}

function remoteSide(last: () => FakeSocket): RemoteSide {
  return {
    // pair-success, then WhatsApp's restartRequired: the driver logs in again on a new socket, which opens
    link: async ({ number, pushname }) => {
      last().pairSuccess(number, pushname);
      last().close(515, 'restart required');
      await new Promise((r) => setTimeout(r, 10));
    },
    register: (numbers) => {
      for (const n of numbers) last().registered.add(n);
    },
    ack: (messageId, ack) => last().status(messageId, STATUS[ack]),
    revoke: (messageId) => last().revoke(messageId),
    reply: ({ from, text, buttonId }) =>
      last().incoming({
        key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id: `IN${Date.now()}` },
        message: buttonId
          ? { buttonsResponseMessage: { selectedButtonId: buttonId, selectedDisplayText: text ?? '' } }
          : { conversation: text ?? '' },
      }),
    disconnect: () => last().close(408, 'connection lost'),
    loggedOutFromPhone: () => last().close(401, 'logged out'),
    conflict: () => last().close(440, 'replaced'),
    ban: () => last().close(403, 'forbidden'),
    failNextSend: (kind) => {
      last().failNext =
        kind === 'rate-limit'
          ? Object.assign(new Error('rate-overlimit'), { output: { statusCode: 429 } })
          : kind === 'restricted'
            ? Object.assign(new Error('forbidden'), { output: { statusCode: 403 } })
            : new Error('Timed Out');
    },
  };
}
