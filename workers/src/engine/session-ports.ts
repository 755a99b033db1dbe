import type { DeviceRefusal } from '@wa/core/realtime/device-commands';
import type { LiveEvent, LiveEventMap } from '@wa/shared';
import type { Engine } from '../drivers/types';
import type { HeldState, LiveSession } from './live-session';

/** How a session is dropped (SessionRegistry.drop). */
export interface DropOptions {
  /** keep the stored session (a saved account comes back from it without a new QR scan) */
  keepStored: boolean;
  /** release the account's lease, so another host may take it at once */
  release: boolean;
  /** the session is rebuilt in place right after: an unsaved login goes on */
  rebuild?: boolean;
  /** why a login failed: its waiting `qr` requests get this (login-failure.ts) */
  failure?: DeviceRefusal;
}

/**
 * What a session's handlers (driver-events.ts, device-commands.ts, login-failure.ts) may do to
 * the sessions this host holds. SessionRegistry implements it; a handler gets it with the few
 * services it uses (its own `…Ports`), never the registry and the deps it was built with.
 */
export interface Sessions {
  /** set once the host stops: broken sessions are no longer rebuilt, failed logins not remembered */
  readonly stopped: boolean;
  /** whether `entry` is still the session held for its device (a rebuild replaces it) */
  isCurrent(entry: LiveSession): boolean;
  /** the session's state, recorded on its account (a state that is down ends its blast and sends) */
  setState(entry: LiveSession, state: HeldState): Promise<void>;
  /** a live event about the session to its owner and, unless `admins` is false, client-admin */
  emit<E extends LiveEvent>(entry: LiveSession, event: E, payload: LiveEventMap[E], admins?: boolean): Promise<void>;
  /** an unsaved login showed a sign of life: it lives longer */
  touch(entry: LiveSession): Promise<void>;
  /** stops and forgets the session of `deviceId` */
  drop(deviceId: string, opts: DropOptions): Promise<void>;
  /** rebuilds the session in place from its stored session (`limit` rebuilds in a row; null: asked for) */
  rebuild(entry: LiveSession, limit: number | null): Promise<void>;
}

/**
 * The sessions held here as the lease sweeper sees them: what a handler may do (`Sessions`), and
 * besides it lists them, finds one by its device and starts one (a claimed account's, restored
 * from its stored session). SessionRegistry implements it; host.ts hands it to the sweeper.
 */
export interface HeldSessions extends Sessions {
  /** the session held for `deviceId`, if any */
  get(deviceId: string): LiveSession | undefined;
  /** every session held here */
  sessions(): LiveSession[];
  /**
   * starts a session for a device: a login (no account yet), or a saved account restored from its
   * stored session (`reconnects`: the monitor's count of attempts it starts with)
   */
  start(
    deviceId: string,
    userId: number,
    accountId: number | null,
    pairingNumber: string | null,
    proxyValue: string | null,
    counted?: boolean,
    engine?: Engine | null,
    reconnects?: number,
  ): Promise<void>;
}
