/**
 * The driver contract's harness for `sim`: WhatsApp's side is the simulator's own SimControl.
 *
 * Two things the sim decides by itself rather than being told, and how the harness lives with them:
 * - The simulated phone links on its own `pairDelayMs` after start(), so `link` has nothing to do;
 *   a QR login's number is derived from the seed and the clientId (a pairing login's is the pairing
 *   number). The cases that need the phone to wait for `link`, or to be a given number, are skipped
 *   for the sim (contract.test.ts).
 * - Whether a number is on WhatsApp is a seeded draw (simIsRegistered). SEED was picked so that the
 *   contract's `target` is registered and its `stranger` is not; `register` only checks that the
 *   numbers it is given are ones the sim has, and says which seed to change otherwise.
 */
import type { SimConfig } from '@wa/core/config-engine';
import type { ContractHarness, RemoteSide } from './contract';
import { MemorySessionStore } from './session-store';
import { SimDriver, simIsRegistered } from './sim';
import type { SimControl } from './types';

/** with registeredRate 0.5, seed 4 puts 6281234500001 on WhatsApp and not 6289876500002 */
const SEED = 4;

const CONFIG: SimConfig = {
  seed: SEED,
  // the phone "scans" almost at once: the qr comes first (synchronously in start()), then the login
  pairDelayMs: 20,
  sendFailRate: 0,
  sendLatencyMs: [0, 0],
  restoreDelayMs: 5,
  // one QR per login is enough; no refreshes to wade through
  qrRefreshMs: 60_000,
  registeredRate: 0.5,
  // no receipts of its own: the cases send them through `ack`, and expect exactly those
  deliverRate: 0,
  readRate: 0,
  ackDelayMs: 60_000,
};

export async function simHarness(): Promise<ContractHarness> {
  const store = new MemorySessionStore();
  const driver = new SimDriver(store, CONFIG);
  /** logouts from the phone still running; close() waits for them and surfaces their errors */
  const pending: Promise<void>[] = [];
  return {
    driver,
    store,
    remote: (clientId) => remoteSide(driver.control(clientId), pending),
    // the simulator's dead proxy (simulatedConnectFailure): any host in the .invalid domain
    unreachable: () => ({ proxy: { protocol: 'http', host: 'offline.invalid', port: 8080 } }),
    async close() {
      await driver.close();
      await Promise.all(pending);
    },
  };
}

function remoteSide(control: SimControl, pending: Promise<void>[]): RemoteSide {
  return {
    // the simulated phone links by itself after pairDelayMs (see above)
    link: async () => {},
    register: (numbers) => {
      const missing = numbers.filter((n) => !simIsRegistered(CONFIG, n));
      if (missing.length) {
        throw new Error(
          `the sim (seed ${SEED}, registeredRate ${CONFIG.registeredRate}) does not have ${missing.join(', ')} on WhatsApp; pick another seed`,
        );
      }
    },
    ack: (messageId, ack) => control.ack(messageId, ack),
    revoke: (messageId) => {
      control.revoke(messageId);
    },
    reply: (message) => control.reply(message),
    disconnect: () => control.disconnect(),
    loggedOutFromPhone: () => {
      pending.push(control.logout());
    },
    conflict: () => control.conflict(),
    ban: (reason) => control.ban(reason),
    failNextSend: (kind) => control.fail(1, kind),
  };
}
