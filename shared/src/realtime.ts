import type { Role } from './constants';

/**
 * The realtime contract (§4 Live events, §7 Realtime): a browser opens `/ws?id={userId}&token={jwt}`
 * and receives JSON messages `{ event, payload }` published on the channels its token may see:
 * its own `client-{userId}`, and `client-admin` for admin and dev.
 */

export const ADMIN_CHANNEL = 'client-admin';

export function userChannel(userId: number): string {
  return `client-${userId}`;
}

/** The channels a user of a role may join. */
export function channelsFor(userId: number, role: Role): string[] {
  return role === 'admin' || role === 'dev' ? [userChannel(userId), ADMIN_CHANNEL] : [userChannel(userId)];
}

export const LIVE_EVENTS = [
  'count_success',
  'count_fail',
  'count_synced',
  'sending',
  'generating',
  'validating',
  'stop',
  'idle',
  'finished',
  'error_blast',
  'error_generate',
  'error_validate',
  'connection.update',
  'suspended',
  'reconnecting',
  'attempting',
  'progressing',
  'waiting',
  'reset',
  'update_target',
  'qr',
  'code',
  'authenticated',
  'in_use',
  'error',
] as const;
export type LiveEvent = (typeof LIVE_EVENTS)[number];

/** One message on a socket. `payload.deviceId` names the account for account events. */
export interface LiveMessage<P = Record<string, unknown>> {
  event: LiveEvent;
  payload: P;
}
