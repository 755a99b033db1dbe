import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { isTokenVersionBump, TOKEN_VERSION_CHANNEL } from '@wa/core/realtime/publish';

/**
 * The close code of a socket whose token has ended (its user's token version was bumped: a
 * password, e-mail or role change, "log out everywhere"). The web (`live-reconnect.ts`) knows it:
 * it does not reconnect with the dead token but checks it, and signs out as for an expired token.
 */
export const CLOSE_TOKEN_ENDED = 4001;

/**
 * How long a bump is remembered for sockets still being admitted: one whose admission read the
 * version just before the bump opens after the hub heard it, and is closed as it opens.
 */
const REMEMBER_MS = 60_000;

/** A hub's ear on TOKEN_VERSION_CHANNEL. */
export interface TokenVersionWatch {
  /**
   * Settles once bumps are heard (subscribing again after a failure). Admissions wait for it before
   * they read the user's version, so no bump after that read goes unheard.
   */
  ready(): Promise<void>;
  /** whether a bump heard in the last minute ended the user's token of `tokenVersion` */
  ended(userId: number, tokenVersion: number): boolean;
  /** leaves the bus channel */
  close(): Promise<void>;
}

/**
 * Subscribes to the token-version bumps of every API replica (core's `publishTokenVersion`, sent by
 * the users service) and hands each to `onBump`, which closes the user's sockets opened with an
 * older token.
 */
export function watchTokenVersions(
  bus: EventBus,
  log: Logger | undefined,
  onBump: (userId: number, tokenVersion: number) => void,
): TokenVersionWatch {
  const recent = new Map<number, { version: number; forget: NodeJS.Timeout }>();
  let subscribed: Promise<void> | null = null;
  let off: (() => Promise<void>) | null = null;

  const heard = (message: unknown) => {
    if (!isTokenVersionBump(message)) {
      log?.warn('realtime: ignored a malformed token-version message');
      return;
    }
    const { userId, tokenVersion } = message;
    log?.debug({ userId }, 'realtime: token version bumped, closing older sockets');
    const seen = recent.get(userId);
    if (seen) clearTimeout(seen.forget);
    const forget = setTimeout(() => recent.delete(userId), REMEMBER_MS);
    forget.unref();
    recent.set(userId, { version: Math.max(tokenVersion, seen?.version ?? 0), forget });
    onBump(userId, tokenVersion);
  };

  const subscribe = (): Promise<void> => {
    subscribed ??= bus.subscribe(TOKEN_VERSION_CHANNEL, heard).then(
      (unsubscribe) => {
        off = unsubscribe;
      },
      (err) => {
        subscribed = null;
        throw err;
      },
    );
    return subscribed;
  };
  subscribe().catch((err) => log?.error({ err }, 'realtime: could not subscribe to token versions'));

  return {
    ready: subscribe,
    ended: (userId, tokenVersion) => tokenVersion < (recent.get(userId)?.version ?? 0),
    async close() {
      for (const { forget } of recent.values()) clearTimeout(forget);
      recent.clear();
      await subscribed?.catch(() => {});
      await off?.();
      off = null;
    },
  };
}
