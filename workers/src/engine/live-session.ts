import type { EventBus } from '@wa/core/realtime/bus';
import type { DeviceReply } from '@wa/core/realtime/device-commands';
import { publishToOwnerAndAdmins, publishToUser } from '@wa/core/realtime/publish';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import type { LiveEvent, LiveEventMap, WebhookEvent, WebhookEventData } from '@wa/shared';
import type { ClientInfo, DriverState, Engine, WhatsAppSession } from '../drivers/types';
import type { AccountLoops } from './account-loops';

/** What a holder says of its session: the driver's state, or 'reconnecting...' while it is rebuilt. */
export type HeldState = DriverState | 'reconnecting...';

/** One live session held by this process (a login in progress, or a saved account). */
export interface LiveSession {
  deviceId: string;
  userId: number;
  session: WhatsAppSession;
  /** the saved account's id once the account row exists */
  accountId: number | null;
  state: HeldState;
  qr: string | null;
  code: string | null;
  info: ClientInfo | null;
  /** waiting `qr` requests, answered when a code appears */
  qrWaiters: Array<(reply: DeviceReply<'qr'>) => void>;
  unsubscribe: () => Promise<void>;
  startedAt: number;
  rebuilds: number;
  /** the engine the session runs on (a rebuild uses the same one) */
  engine: Engine | null;
  /** an unsaved login is dropped after this (ms epoch); see SessionRegistry.touch */
  deadline: number;
  /** whether the login has shown its first QR or pairing code */
  codeShown: boolean;
  /**
   * started by a login job: counts against the host's maxPendingLogins while unsaved, as its
   * whatsapp_logins row counts at the API (a direct `open` counts in neither)
   */
  counted: boolean;
  /** the account's blast, one-off sends, generators and validators running here */
  loops: AccountLoops;
}

/**
 * Publishes an event about a session to its owner and, unless `admins` is false, to client-admin
 * (a login's codes and its `authenticated` are for the owner's create page only).
 */
export function emitFor<E extends LiveEvent>(
  bus: EventBus,
  live: Pick<LiveSession, 'userId'>,
  event: E,
  payload: LiveEventMap[E],
  admins = true,
): Promise<void> {
  if (admins) return publishToOwnerAndAdmins(bus, live.userId, event, payload);
  return publishToUser(bus, live.userId, event, payload);
}

/** What every account event's webhook data starts with. */
export type AccountRef = { user_id: number; account_id: number; device_id: string; phone: string | null };

/** The webhook events about an account (all but withdraw.status). */
export type AccountWebhookEvent = Exclude<WebhookEvent, 'withdraw.status'>;

/** An account event's data without the account's own fields. */
export type AccountEventData<E extends AccountWebhookEvent> = Omit<WebhookEventData[E], keyof AccountRef>;

/**
 * Tells the webhooks an event about a saved account (a login in progress has none), with the
 * account's own fields: its owner, id, device id and number when known.
 */
export function hookFor<E extends AccountWebhookEvent>(
  webhooks: WebhookEmitter,
  live: Pick<LiveSession, 'userId' | 'accountId' | 'deviceId'> & { info?: ClientInfo | null },
  event: E,
  data: AccountEventData<E>,
): void {
  if (live.accountId === null) return;
  const ref: AccountRef = {
    user_id: live.userId,
    account_id: live.accountId,
    device_id: live.deviceId,
    phone: live.info?.phonenumber ?? null,
  };
  webhooks.emit(event, live.userId, { ...ref, ...data } as WebhookEventData[E]);
}
