import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import type { DeviceOp, DeviceRefusal, DeviceRequest } from '@wa/core/realtime/device-commands';
import { deviceChannel } from '@wa/core/realtime/rpc';
import type { LiveSession } from './live-session';
import type { Sessions } from './session-ports';

/**
 * A login that failed (its connection never reached WhatsApp, its session would not start, or no
 * worker would take it) ends at once: it stops counting against its user and the workers, the
 * `qr` requests waiting for its code get the failure, and the create page hears why. qr-new-client
 * answers with it (502) instead of waiting out the QR wait for a code that will never come.
 */

/**
 * How long this host still answers a failed login's `qr` requests with why it failed: the API's
 * QR wait (§9: 120 s), so an ask that starts any time after the failure hears it too.
 */
export const FAILED_LOGIN_ANSWER_MS = 120_000;

/** The API answers a login whose connection failed with this: the gateway to WhatsApp failed. */
export const LOGIN_FAILED_STATUS = 502;

/** What ending a failed login uses: the sessions held here, the failed logins still answering, the bus and the log. */
export interface LoginFailurePorts {
  sessions: Sessions;
  failedLogins: FailedLogins;
  bus: EventBus;
  log: Logger;
}

/**
 * Ends a login whose session failed before it was saved: the login row goes (a new-client right
 * after fits under the caps), waiting `qr` requests get `message` with `status`, later ones too
 * (FailedLogins), and the owner's create page hears it as the `error` event.
 */
export async function failLogin(
  ports: LoginFailurePorts,
  entry: LiveSession,
  message: string,
  status = LOGIN_FAILED_STATUS,
): Promise<void> {
  const { sessions } = ports;
  const { deviceId, userId } = entry;
  const refusal: DeviceRefusal = { ok: false, error: message, status };
  ports.log.warn({ deviceId, reason: message }, 'login failed');
  // a session removed meanwhile (its page let go, the host stops) has nobody left to answer
  const current = sessions.isCurrent(entry);
  // drop ends the login row before it answers the waiting requests
  await sessions.drop(deviceId, { keepStored: false, release: true, failure: refusal });
  if (current && !sessions.stopped) await ports.failedLogins.remember(ports.bus, deviceId, userId, refusal);
  await sessions.emit(entry, 'error', { deviceId, message });
}

interface Answering {
  timer: NodeJS.Timeout;
  unsubscribe: (() => Promise<void>) | null;
}

/**
 * The logins that failed on this host lately, each still answering its device channel: a `qr`
 * request gets the failure (its owner, or admin and dev, as onDeviceRequest checks), a `remove`
 * (the create page letting go) is acknowledged and ends the answering; other ops get no answer,
 * as for a device nobody holds.
 */
export class FailedLogins {
  private readonly answering = new Map<string, Answering>();

  constructor(private readonly ttlMs = FAILED_LOGIN_ANSWER_MS) {}

  /** Answers `deviceId`'s requests with `refusal` for the next ttlMs. */
  async remember(bus: EventBus, deviceId: string, userId: number, refusal: DeviceRefusal): Promise<void> {
    await this.forget(deviceId);
    const timer = setTimeout(() => void this.forget(deviceId), this.ttlMs);
    timer.unref();
    const entry: Answering = { timer, unsubscribe: null };
    this.answering.set(deviceId, entry);
    const unsubscribe = await bus.subscribe(deviceChannel(deviceId), (message) => {
      void this.answer(bus, deviceId, userId, refusal, message).catch(() => {});
    });
    // forgotten while subscribing (a new session for the device, the host stopping)
    if (this.answering.get(deviceId) !== entry) await unsubscribe().catch(() => {});
    else entry.unsubscribe = unsubscribe;
  }

  /** Stops answering for `deviceId` (a new session for it starts here, or its page let go). */
  async forget(deviceId: string): Promise<void> {
    const entry = this.answering.get(deviceId);
    if (!entry) return;
    this.answering.delete(deviceId);
    clearTimeout(entry.timer);
    await entry.unsubscribe?.().catch(() => {});
  }

  /** Stops answering for every failed login (the host stops). */
  async close(): Promise<void> {
    await Promise.all([...this.answering.keys()].map((deviceId) => this.forget(deviceId)));
  }

  private async answer(
    bus: EventBus,
    deviceId: string,
    userId: number,
    refusal: DeviceRefusal,
    message: unknown,
  ): Promise<void> {
    const req = message as Partial<DeviceRequest<DeviceOp>> | null;
    if (!req || typeof req.replyTo !== 'string' || typeof req.args !== 'object' || req.args === null) return;
    if (req.op !== 'qr' && req.op !== 'remove') return;
    const { privileged, userId: caller } = req.args;
    if (!privileged && caller !== userId) {
      await bus.publish(req.replyTo, { ok: false, error: 'You are not allowed to do this.', status: 403 });
      return;
    }
    if (req.op === 'qr') {
      await bus.publish(req.replyTo, refusal);
      return;
    }
    await bus.publish(req.replyTo, { ok: true, data: { deviceId } });
    await this.forget(deviceId);
  }
}
