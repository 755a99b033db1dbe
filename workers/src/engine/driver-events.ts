import type { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import type { DriverEvent } from '../drivers/types';
import { guardedAccount } from './account-loops';
import type { AccountSafety } from './account-safety';
import { hookFor, type LiveSession } from './live-session';
import { failLogin, type LoginFailurePorts } from './login-failure';

/** A broken client is rebuilt in place at most this many times in a row. */
export const MAX_REBUILDS = 5;

type EventOf<T extends DriverEvent['type']> = Extract<DriverEvent, { type: T }>;

/**
 * What a session's driver events use: the sessions held here and a failed login's ports, the
 * account's writes they make, the safety rules they feed, and the webhooks (SessionRegistry
 * builds it once).
 */
export interface DriverEventPorts extends LoginFailurePorts {
  accounts: Pick<AccountsRepo, 'recordClientInfo' | 'suspend'>;
  safety: Pick<AccountSafety, 'onRevoke' | 'onMessage' | 'onRestricted' | 'onDrop'>;
  webhooks: WebhookEmitter;
}

/**
 * What a session's driver events do (§4 Account creation flow, WhatsApp account state): the
 * login's codes reach the create page, the account's state reaches its row and the lists, and a
 * session that ended or broke is dropped or rebuilt. Events of a session that was replaced meanwhile
 * (a rebuild) are ignored.
 */
export async function onDriverEvent(ports: DriverEventPorts, entry: LiveSession, event: DriverEvent): Promise<void> {
  if (!ports.sessions.isCurrent(entry)) return;
  switch (event.type) {
    case 'qr':
    case 'code':
      return showCode(ports, entry, event);
    case 'authenticated':
      entry.qr = null;
      entry.code = null;
      // scanned: the browser saves as soon as it hears `authenticated`, however late in its countdown
      return ports.sessions.touch(entry);
    case 'ready':
      return ready(ports, entry, event);
    case 'state':
      return stateChanged(ports, entry, event);
    case 'auth_failure':
      await ports.sessions.setState(entry, 'loggedOut');
      await ports.sessions.emit(entry, 'connection.update', {
        deviceId: entry.deviceId,
        state: 'loggedOut',
        message: event.message,
      });
      hookFor(ports.webhooks, entry, 'account.state', { state: 'loggedOut', message: event.message });
      return ports.sessions.drop(entry.deviceId, { keepStored: false, release: true });
    case 'connect_failed':
      // a login that never reached WhatsApp is over: qr-new-client and the create page hear why now
      if (entry.accountId === null) return failLogin(ports, entry, event.message);
      // drivers report it only for logins; a saved account would just be down
      return stateChanged(ports, entry, { type: 'state', state: 'disconnected', reason: event.kind });
    case 'broken':
      // the client must be rebuilt: restore it from the stored session in place
      ports.log.warn({ deviceId: entry.deviceId, message: event.message }, 'session broken, rebuilding');
      return ports.sessions.rebuild(entry, MAX_REBUILDS);
    case 'ack':
      // a receipt of a message a blast sent; a login in progress has sent nothing
      return entry.receipts.add(event.messageId, event.ack);
    case 'revoke':
      // a login in progress has sent nothing: only a saved account's messages count
      if (entry.accountId === null) return;
      return ports.safety.onRevoke(guardedAccount(ports, entry, entry.loops), event.messageId);
    case 'message':
      if (entry.accountId === null) return;
      return ports.safety.onMessage(guardedAccount(ports, entry, entry.loops), event);
    case 'restricted':
      if (entry.accountId === null) return;
      return ports.safety.onRestricted(guardedAccount(ports, entry, entry.loops), event.reason);
  }
}

/** A QR or pairing code: waiting `qr` requests get it, and the owner's create page shows it. */
async function showCode(ports: DriverEventPorts, entry: LiveSession, event: EventOf<'qr' | 'code'>): Promise<void> {
  const { deviceId } = entry;
  if (event.type === 'qr') entry.qr = event.qr;
  else entry.code = event.code;
  if (!entry.codeShown) {
    entry.codeShown = true;
    await ports.sessions.touch(entry);
  }
  const data = { deviceId, qr: entry.qr, code: entry.code };
  for (const w of entry.qrWaiters) w({ ok: true, data });
  entry.qrWaiters = [];
  if (event.type === 'qr') await ports.sessions.emit(entry, 'qr', { deviceId, qr: event.qr }, false);
  else await ports.sessions.emit(entry, 'code', { deviceId, code: event.code }, false);
}

/** Logged in: a saved account's details are refreshed; a login tells its create page to save it. */
async function ready(ports: DriverEventPorts, entry: LiveSession, event: EventOf<'ready'>): Promise<void> {
  entry.info = event.info;
  if (entry.accountId !== null) return ports.accounts.recordClientInfo(entry.accountId, event.info);
  await ports.sessions.touch(entry);
  // §4 Account creation flow: the browser saves the account when it hears this
  await ports.sessions.emit(entry, 'authenticated', { deviceId: entry.deviceId, clientInfo: event.info }, false);
}

/**
 * The connection changed: a connected account goes on with its loops, any other state stops
 * them. A suspension is counted; a logout ends the session (it needs a new login).
 */
async function stateChanged(ports: DriverEventPorts, entry: LiveSession, event: EventOf<'state'>): Promise<void> {
  const { deviceId } = entry;
  const was = entry.state;
  await ports.sessions.setState(entry, event.state);
  if (event.state === 'connected') await entry.loops.resume(() => ports.sessions.isCurrent(entry));
  else await entry.loops.stopAll(0);
  if (was !== event.state) hookFor(ports.webhooks, entry, 'account.state', { state: event.state });
  if (event.state === 'suspended' && entry.accountId !== null) {
    const count = await ports.accounts.suspend(entry.accountId);
    await ports.sessions.emit(entry, 'suspended', { deviceId, suspended_count: count, state: 'suspended' });
    hookFor(ports.webhooks, entry, 'account.suspended', { kind: 'suspended', suspended_count: count });
    return;
  }
  await ports.sessions.emit(entry, 'connection.update', { deviceId, state: event.state });
  // a session that keeps dropping is a ban signal (account safety)
  if (event.state === 'disconnected' && was === 'connected' && entry.accountId !== null) {
    await ports.safety.onDrop(guardedAccount(ports, entry, entry.loops));
  }
  if (event.state === 'loggedOut') {
    // the stored session is gone: the account needs a new login
    await ports.sessions.drop(deviceId, { keepStored: false, release: true });
  }
  // a conflict (the account opened in another WhatsApp Web) stays held here with its stored
  // session, so nothing takes it back by itself; POST reconnect rebuilds it in place (§4 Reconnect)
}
