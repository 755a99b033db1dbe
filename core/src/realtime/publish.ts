import { ADMIN_CHANNEL, type LiveEvent, type LiveMessage, userChannel } from '@wa/shared';
import type { EventBus } from './bus';

/** The bus channel that carries the live events of a socket channel (`client-7` → `ws:client-7`). */
export function liveBusChannel(channel: string): string {
  return `ws:${channel}`;
}

/**
 * Sends `{ event, payload }` to every socket joined to `channel`, on whichever API replica it is
 * connected (the hubs subscribe to `ws:{channel}` on the bus).
 */
export function publishLive(
  bus: EventBus,
  channel: string,
  event: LiveEvent,
  payload: Record<string, unknown>,
): Promise<void> {
  const message: LiveMessage = { event, payload };
  return bus.publish(liveBusChannel(channel), message);
}

/** To the sockets of one user (`client-{userId}`). */
export function publishToUser(
  bus: EventBus,
  userId: number,
  event: LiveEvent,
  payload: Record<string, unknown>,
): Promise<void> {
  return publishLive(bus, userChannel(userId), event, payload);
}

/** To the sockets of every admin and dev (`client-admin`). */
export function publishToAdmins(bus: EventBus, event: LiveEvent, payload: Record<string, unknown>): Promise<void> {
  return publishLive(bus, ADMIN_CHANNEL, event, payload);
}
