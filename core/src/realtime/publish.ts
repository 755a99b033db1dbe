import { ADMIN_CHANNEL, type LiveEvent, type LiveEventMap, type LiveMessageOf, userChannel } from '@wa/shared';
import type { EventBus } from './bus';

/** The bus channel that carries the live events of a socket channel (`client-7` → `ws:client-7`). */
export function liveBusChannel(channel: string): string {
  return `ws:${channel}`;
}

/**
 * Sends `{ event, payload }` to every socket joined to `channel`, on whichever API replica it is
 * connected (the hubs subscribe to `ws:{channel}` on the bus). The payload's type comes from the
 * event (LiveEventMap), so a sender cannot drift from what the browsers read.
 */
export function publishLive<E extends LiveEvent>(
  bus: EventBus,
  channel: string,
  event: E,
  payload: LiveEventMap[E],
): Promise<void> {
  const message: LiveMessageOf<E> = { event, payload };
  return bus.publish(liveBusChannel(channel), message);
}

/** To the sockets of one user (`client-{userId}`). */
export function publishToUser<E extends LiveEvent>(
  bus: EventBus,
  userId: number,
  event: E,
  payload: LiveEventMap[E],
): Promise<void> {
  return publishLive(bus, userChannel(userId), event, payload);
}

/** To the sockets of every admin and dev (`client-admin`). */
export function publishToAdmins<E extends LiveEvent>(bus: EventBus, event: E, payload: LiveEventMap[E]): Promise<void> {
  return publishLive(bus, ADMIN_CHANNEL, event, payload);
}

/**
 * To the owner of a row (an account, a tool; none for a tool whose owner is gone) and to the
 * admins: both lists show the row, and an admin who owns it hears it on both channels, as the
 * browser expects.
 */
export async function publishToOwnerAndAdmins<E extends LiveEvent>(
  bus: EventBus,
  ownerId: number | null,
  event: E,
  payload: LiveEventMap[E],
): Promise<void> {
  if (ownerId !== null) await publishToUser(bus, ownerId, event, payload);
  await publishToAdmins(bus, event, payload);
}

/**
 * The bus channel on which a bump of a user's token version is announced (a password, e-mail or
 * role change, "log out everywhere"). Every hub subscribes to it and closes that user's sockets
 * opened with an older token: the version is checked at admission only, so without it a socket
 * would keep streaming after its token ended. It carries no `ws:` prefix, so no browser hears it.
 */
export const TOKEN_VERSION_CHANNEL = 'auth:token-version';

/** The message on TOKEN_VERSION_CHANNEL: tokens of `userId` older than `tokenVersion` have ended. */
export interface TokenVersionBump {
  userId: number;
  tokenVersion: number;
}

/** Tells every API replica's hub that the user's tokens older than `tokenVersion` have ended. */
export function publishTokenVersion(bus: EventBus, userId: number, tokenVersion: number): Promise<void> {
  const message: TokenVersionBump = { userId, tokenVersion };
  return bus.publish(TOKEN_VERSION_CHANNEL, message);
}

/** Whether a bus message is a TokenVersionBump. */
export function isTokenVersionBump(m: unknown): m is TokenVersionBump {
  const v = m as Partial<TokenVersionBump> | null;
  return typeof v === 'object' && v !== null && Number.isInteger(v.userId) && Number.isInteger(v.tokenVersion);
}
