import type { ToolKind } from '@wa/core/db/tool-tables';
import type { EventBus } from '@wa/core/realtime/bus';
import type { DeviceReply } from '@wa/core/realtime/device-commands';
import { type MonitorAccount, withMonitor } from '@wa/core/realtime/monitor-fields';
import { publishToOwnerAndAdmins, publishToUser } from '@wa/core/realtime/publish';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import type { LiveEvent, LiveEventMap, WebhookEvent, WebhookEventData } from '@wa/shared';
import type { AckKind, ClientInfo, DriverState, Engine, WhatsAppSession } from '../drivers/types';

/** What a holder says of its session: the driver's state, or 'reconnecting...' while it is rebuilt. */
export type HeldState = DriverState | 'reconnecting...';

/**
 * The account's loops as its session's handlers use them (AccountLoops implements it, made per
 * session by the registry): the session names what it needs, so this module knows no loop.
 */
export interface SessionLoops {
  /** whether the blast loop runs (or waits out an outage) here */
  readonly blasting: boolean;
  startBlast(): void;
  stopBlast(graceMs?: number): Promise<void>;
  startSends(): void;
  startTool(kind: ToolKind, id: number): void;
  stopTool(kind: ToolKind, id: number, graceMs?: number): Promise<void>;
  /** stops every loop after its step in flight */
  stopAll(graceMs?: number): Promise<void>;
  /** the session is gone: every loop stops and is forgotten */
  close(): Promise<void>;
  /** a connected account carries on with what is switched on; `current` says the session is still held */
  resume(current: () => boolean): Promise<void>;
}

/**
 * The receipts of the messages a session's blast sent, waiting to be settled in batches
 * (SessionReceipts in receipts.ts, made per session by the registry): they go with the session.
 */
export interface SessionReceiptQueue {
  /** a receipt WhatsApp reported for one of the session's messages */
  add(messageId: string, ack: AckKind): void;
  /** the session is dropped: its waiting receipts and timers go with it */
  close(): void;
}

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
  /** rebuilds of a broken client in a row (at most MAX_REBUILDS) */
  rebuilds: number;
  /** reconnect attempts of the account's session on this holder so far (rebuilds, a sweep's restore): the monitor's reconnectTime */
  reconnects: number;
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
  loops: SessionLoops;
  /** the receipts of its blast's messages, settled in batches (receipts.ts) */
  receipts: SessionReceiptQueue;
}

/** A held session as the realtime monitor sees it: its run status is whether its blast loop runs here. */
export function monitorOf(
  live: Pick<LiveSession, 'userId' | 'deviceId' | 'accountId' | 'state' | 'info' | 'reconnects'> & {
    loops?: { readonly blasting: boolean };
  },
): MonitorAccount {
  return {
    id: live.accountId,
    userId: live.userId,
    deviceId: live.deviceId,
    state: live.state,
    status: live.loops?.blasting ? 'sending' : 'idle',
    number: live.info?.phonenumber ?? null,
    reconnects: live.reconnects,
  };
}

/** What `emitFor` needs of a session: its owner, and what the monitor shows of it. */
export type EmitSource = Parameters<typeof monitorOf>[0];

/**
 * Publishes an event about a session to its owner and, unless `admins` is false, to client-admin
 * (a login's codes and its `authenticated` are for the owner's create page only), with the
 * realtime monitor's fields.
 */
export function emitFor<E extends LiveEvent>(
  bus: EventBus,
  live: EmitSource,
  event: E,
  payload: LiveEventMap[E],
  admins = true,
): Promise<void> {
  const full = withMonitor(monitorOf(live), event, payload);
  if (admins) return publishToOwnerAndAdmins(bus, live.userId, event, full);
  return publishToUser(bus, live.userId, event, full);
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
  live: Pick<LiveSession, 'userId' | 'accountId' | 'deviceId'> & { info?: ClientInfo | null; phone?: string | null },
  event: E,
  data: AccountEventData<E>,
): void {
  if (live.accountId === null) return;
  const ref: AccountRef = {
    user_id: live.userId,
    account_id: live.accountId,
    device_id: live.deviceId,
    phone: live.info?.phonenumber ?? live.phone ?? null,
  };
  webhooks.emit(event, live.userId, { ...ref, ...data } as WebhookEventData[E]);
}
