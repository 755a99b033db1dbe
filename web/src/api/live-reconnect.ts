/** Reconnect delays: 1 s doubling up to 30 s, back to 1 s once a socket opens. */
export const BACKOFF_MIN_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * The hub closes a user's oldest socket with this code when the user opens one socket too many
 * (`CLOSE_TOO_MANY_SOCKETS` in server/src/realtime/hub.ts; the two must agree).
 */
export const CLOSE_TOO_MANY_SOCKETS = 4000;

/**
 * The hub closes a socket with this code when its token has ended: the user's password, e-mail or
 * role changed, or "log out everywhere" (`CLOSE_TOKEN_ENDED` in server/src/realtime/token-versions.ts;
 * the two must agree). Reconnecting with that token would be refused again and again: the browser
 * checks its token instead, and signs out as for an expired one.
 */
export const CLOSE_TOKEN_ENDED = 4001;

/**
 * Closes that blame this client: 1008 (too many frames), 1003 (unsupported data), 1009 (a frame too
 * big). Reconnecting at once would repeat the misuse, and as the socket had opened, the back-off
 * would have gone back to 1 s: a reconnect loop.
 */
const CLOSED_FOR_MISUSE = new Set([1003, 1008, 1009]);

/**
 * When to open the socket again: after a number of milliseconds, once the tab is shown, or only
 * after the token has been checked (and the session kept).
 */
export type Reconnect = number | 'when-shown' | 'check-token';

/**
 * When to reconnect after the socket closed with `code`, given the current back-off `delay` and
 * whether this tab is hidden. A tab pushed out by the user's newer tabs stays off while hidden (the
 * newer tabs have the events; a hidden tab reconnecting would push out the next one, and so on
 * round), reconnects once shown, and waits the longest back-off while shown, so that more visible
 * tabs than the hub allows take turns every 30 s, not every second.
 */
export function reconnectAfter(code: number, delay: number, hidden: boolean): Reconnect {
  if (code === CLOSE_TOKEN_ENDED) return 'check-token';
  if (code === CLOSE_TOO_MANY_SOCKETS) return hidden ? 'when-shown' : BACKOFF_MAX_MS;
  if (CLOSED_FOR_MISUSE.has(code)) return BACKOFF_MAX_MS;
  return delay;
}

/** The back-off after `delay`: doubled, up to BACKOFF_MAX_MS. */
export function nextDelay(delay: number): number {
  return Math.min(delay * 2, BACKOFF_MAX_MS);
}
