import type { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { EventBus } from '@wa/core/realtime/bus';
import type { DeviceArgs, DeviceOp, DeviceReply, DeviceRequest } from '@wa/core/realtime/device-commands';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import { SendError, type WhatsAppDriver } from '../drivers/types';
import { type HeldState, hookFor, type LiveSession } from './live-session';
import type { Sessions } from './session-ports';

/**
 * What the device commands use: the sessions held here, the bus their replies go on, the lease an
 * adopted account gets, the webhooks, and the driver (its simulator's controls). SessionRegistry
 * builds it once.
 */
export interface DeviceCommandPorts {
  sessions: Sessions;
  accounts: Pick<AccountsRepo, 'adopt'>;
  bus: EventBus;
  webhooks: WebhookEmitter;
  workerId: string;
  leaseMs: number;
  driver: Pick<WhatsAppDriver, 'control'>;
}

/** Answers one request: `reply` publishes to the caller's reply channel. */
type DeviceHandler<Op extends DeviceOp> = (
  ports: DeviceCommandPorts,
  entry: LiveSession,
  args: DeviceArgs<Op>,
  reply: (r: DeviceReply<Op>) => Promise<void>,
) => Promise<void>;

/** The session's own state; the last one it reported when the driver cannot say. */
const currentState = (entry: LiveSession): Promise<HeldState> => entry.session.getState().catch(() => entry.state);

/** Refuses a loop on an account whose session is not connected right now. */
const notConnected = (entry: LiveSession, state: HeldState) => ({
  ok: false as const,
  error: `${entry.info?.phonenumber ?? entry.deviceId} is ${state}`,
  status: 409,
});

const NOT_SAVED = { ok: false as const, error: 'This account is not saved yet.' };

/**
 * The holder's answer to every op of DeviceCommandMap (n8n's pubsub handlers): a table keyed by
 * op, so an op added to the map without its handler here does not compile.
 */
const HANDLERS: { [Op in DeviceOp]: DeviceHandler<Op> } = {
  async qr(_ports, entry, _args, reply) {
    const { deviceId } = entry;
    if (entry.qr || entry.code) return reply({ ok: true, data: { deviceId, qr: entry.qr, code: entry.code } });
    // already logged in (the phone was quick): nothing to scan, the browser heard `authenticated`
    if (entry.state === 'connected' || entry.info) {
      return reply({ ok: true, data: { deviceId, qr: null, code: null, state: 'connected' } });
    }
    entry.qrWaiters.push((r) => void reply(r));
  },

  async state(ports, entry, _args, reply) {
    const state = ports.sessions.isCurrent(entry) ? await currentState(entry) : 'unknown';
    return reply({ ok: true, data: { state, info: entry.info, workerId: ports.workerId } });
  },

  async adopt(ports, entry, { accountId }, reply) {
    if (!Number.isInteger(accountId)) return reply({ ok: false, error: 'accountId is required' });
    const { accounts, workerId, leaseMs } = ports;
    // the login was just saved as this account (new, or a re-login of an old one): its first state
    const saved = entry.accountId !== accountId;
    entry.accountId = accountId;
    const state = await currentState(entry);
    entry.state = state;
    await accounts.adopt(accountId, workerId, leaseMs, state);
    if (saved) hookFor(ports.webhooks, entry, 'account.state', { state });
    return reply({ ok: true, data: { state, workerId } });
  },

  async send(_ports, entry, { to, text }, reply) {
    try {
      const res = await entry.session.sendText(to, text);
      return reply({ ok: true, data: { id: res.id } });
    } catch (err) {
      const code = err instanceof SendError ? err.code : 'failed';
      return reply({ ok: false, error: `${code}: ${err instanceof Error ? err.message : String(err)}` });
    }
  },

  async remove(ports, entry, _args, reply) {
    // a login that was never saved leaves nothing behind; a saved account keeps its session
    const keepStored = entry.accountId !== null;
    await reply({ ok: true, data: { deviceId: entry.deviceId } });
    await ports.sessions.drop(entry.deviceId, { keepStored, release: true });
  },

  async activate(ports, entry, _args, reply) {
    const state = await currentState(entry);
    await ports.sessions.setState(entry, state === 'suspended' ? 'connected' : state);
    // the API activates only a suspended account: whatever the session says now is a change
    hookFor(ports.webhooks, entry, 'account.state', { state: entry.state });
    return reply({ ok: true, data: { state: entry.state } });
  },

  async blast(_ports, entry, { action }, reply) {
    if (entry.accountId === null) return reply(NOT_SAVED);
    if (action === 'stop') {
      await entry.loops.stopBlast(0);
      return reply({ ok: true, data: { deviceId: entry.deviceId, status: 'idle' } });
    }
    const state = await currentState(entry);
    if (state !== 'connected') return reply(notConnected(entry, state));
    entry.loops.startBlast();
    return reply({ ok: true, data: { deviceId: entry.deviceId, status: 'sending' } });
  },

  async tool(_ports, entry, args, reply) {
    if (args.kind === 'send') {
      // the send-message job's nudge: the account's one-off sends go on here
      if (entry.accountId === null) return reply(NOT_SAVED);
      entry.loops.startSends();
      return reply({ ok: true, data: { deviceId: entry.deviceId } });
    }
    const { kind, id, action } = args;
    if (!Number.isInteger(id)) return reply({ ok: false, error: 'id is required' });
    if (action === 'stop') {
      await entry.loops.stopTool(kind, id, 0);
      return reply({ ok: true, data: { id, status: 'idle' } });
    }
    const state = await currentState(entry);
    if (state !== 'connected') return reply(notConnected(entry, state));
    entry.loops.startTool(kind, id);
    return reply({ ok: true, data: { id, status: 'running' } });
  },

  async sim(ports, entry, { command }, reply) {
    const { deviceId } = entry;
    const control = ports.driver.control;
    if (!control) return reply({ ok: false, error: 'The simulator is not in use (WA_DRIVER=sim).', status: 404 });
    try {
      const sim = control.call(ports.driver, deviceId);
      const done = { deviceId, action: command.action };
      switch (command.action) {
        case 'revoke':
          return reply({ ok: true, data: { ...done, messageId: sim.revoke(command.messageId) } });
        case 'reply':
          sim.reply({ from: command.from, text: command.text, buttonId: command.buttonId });
          break;
        case 'fail':
          sim.fail(command.count, command.kind);
          break;
        case 'ban':
          sim.ban(command.reason);
          break;
        case 'ack':
          sim.ack(command.messageId, command.ack);
          break;
        case 'logout':
          await sim.logout();
          break;
        default:
          sim[command.action]();
      }
      return reply({ ok: true, data: done });
    } catch (err) {
      return reply({ ok: false, error: err instanceof Error ? err.message : String(err), status: 409 });
    }
  },

  async reconnect(ports, entry, _args, reply) {
    await reply({ ok: true, data: { deviceId: entry.deviceId } });
    await ports.sessions.rebuild(entry, null);
  },
};

function isRequest(m: unknown): m is DeviceRequest<DeviceOp> {
  if (!m || typeof m !== 'object') return false;
  const r = m as Partial<DeviceRequest<DeviceOp>>;
  return (
    typeof r.replyTo === 'string' &&
    typeof r.op === 'string' &&
    Object.hasOwn(HANDLERS, r.op) &&
    typeof r.args === 'object' &&
    r.args !== null
  );
}

/**
 * A request on the device's channel (callDevice). A login in progress, like a saved account,
 * answers only its owner, or admin and dev; an unknown op gets no answer (the caller times out).
 */
export async function onDeviceRequest(ports: DeviceCommandPorts, entry: LiveSession, message: unknown): Promise<void> {
  if (!isRequest(message)) return;
  await handle(ports, entry, message);
}

async function handle<Op extends DeviceOp>(ports: DeviceCommandPorts, entry: LiveSession, req: DeviceRequest<Op>) {
  const reply = (r: DeviceReply<Op>) => ports.bus.publish(req.replyTo, r);
  const args = req.args;
  if (!args.privileged && args.userId !== entry.userId) {
    return reply({ ok: false, error: 'You are not allowed to do this.', status: 403 });
  }
  await HANDLERS[req.op](ports, entry, args, reply);
}
