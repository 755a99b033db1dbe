/**
 * The driver contract's harness for `baileys`: the real BaileysDriver and auth state, over a fake
 * WhatsApp (baileys-fake.ts) whose sockets emit Baileys' own event shapes and behave as WhatsApp's
 * servers make a socket behave (a QR for a new login; the connection for known credentials). A lost
 * connection is retried only after a minute here, so the cases see the session while it is down
 * (the reconnect itself: baileys.test.ts).
 */
import { proto } from '@whiskeysockets/baileys';
import { BaileysDriver } from './baileys';
import { MemoryAuthKeyStore } from './baileys-auth';
import { FakeWhatsApp } from './baileys-fake';
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
  const whatsapp = new FakeWhatsApp();
  const driver = new BaileysDriver({
    store,
    keys: new MemoryAuthKeyStore(),
    reconnectDelaysMs: [60_000],
    socketFactory: whatsapp.factory,
  });
  return {
    driver,
    store,
    remote: (clientId) => remoteSide(whatsapp, clientId),
    unreachable: () => {
      whatsapp.offline = true;
      return {};
    },
    async close() {
      whatsapp.close();
      await driver.close();
    },
  };
}

function remoteSide(whatsapp: FakeWhatsApp, clientId: string): RemoteSide {
  const socket = () => whatsapp.socket(clientId);
  return {
    link: async ({ number, pushname }) => {
      whatsapp.link(clientId, number, pushname);
      await new Promise((r) => setTimeout(r, 10));
    },
    register: (numbers) => {
      for (const n of numbers) whatsapp.registered.add(n);
    },
    ack: (messageId, ack) => socket().status(messageId, STATUS[ack]),
    revoke: (messageId) => socket().revoke(messageId),
    reply: ({ from, text, buttonId }) =>
      socket().incoming({
        key: { remoteJid: `${from}@s.whatsapp.net`, fromMe: false, id: `IN${Date.now()}` },
        message: buttonId
          ? { buttonsResponseMessage: { selectedButtonId: buttonId, selectedDisplayText: text ?? '' } }
          : { conversation: text ?? '' },
      }),
    disconnect: () => socket().close(408, 'connection lost'),
    loggedOutFromPhone: () => socket().close(401, 'logged out'),
    conflict: () => socket().close(440, 'replaced'),
    ban: () => socket().close(403, 'forbidden'),
    failNextSend: (kind) => {
      socket().failNext =
        kind === 'rate-limit'
          ? Object.assign(new Error('rate-overlimit'), { output: { statusCode: 429 } })
          : kind === 'restricted'
            ? Object.assign(new Error('forbidden'), { output: { statusCode: 403 } })
            : new Error('Timed Out');
    },
  };
}
