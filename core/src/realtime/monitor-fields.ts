import type { LiveEvent, LiveEventMap, MonitorFields, RunStatus, WhatsappState } from '@wa/shared';

/** The account an event is about, as the realtime monitor shows it (see MonitorFields). */
export interface MonitorAccount {
  /** the saved account's id (null: a login not saved yet) */
  id: number | null;
  userId: number;
  deviceId: string;
  state: WhatsappState | null;
  status: RunStatus;
  number: string | null;
  /** reconnect attempts so far, when the sender knows them (the session's holder) */
  reconnects?: number;
}

/** The connection's events: they say how many times the session was reconnected so far. */
const CONNECTION_EVENTS: ReadonlySet<LiveEvent> = new Set<LiveEvent>([
  'connection.update',
  'reconnecting',
  'suspended',
  'error',
]);

/**
 * An account event's payload with the realtime monitor's fields (§3 Realtime monitor message):
 * the date, the account's state, run status and number, the account as `sender`, and, on the
 * connection's events, `reconnectTime`. The event's own `state` and `status` win, and the sender
 * says the same, so a line and its sender never disagree.
 */
export function withMonitor<E extends LiveEvent>(
  account: MonitorAccount,
  event: E,
  payload: LiveEventMap[E],
): LiveEventMap[E] {
  const own = payload as { state?: unknown; status?: unknown };
  const state = typeof own.state === 'string' ? (own.state as WhatsappState) : account.state;
  const status = own.status === 'idle' || own.status === 'sending' ? own.status : account.status;
  const fields: MonitorFields = {
    date: new Date().toISOString(),
    state,
    status,
    number: account.number,
    sender: { id: account.id, user_id: account.userId, clientid: account.deviceId, state, status },
    ...(CONNECTION_EVENTS.has(event) && account.reconnects !== undefined ? { reconnectTime: account.reconnects } : {}),
  };
  return { ...fields, ...payload, state, status } as LiveEventMap[E];
}

/** A saved account's row as the realtime monitor shows it (the API's events; its holder knows the reconnects). */
export function monitorAccount(acc: {
  id: number;
  userId: number;
  clientid: string;
  state: WhatsappState | null;
  status: RunStatus;
  phonenumber?: string | null;
}): MonitorAccount {
  return {
    id: acc.id,
    userId: acc.userId,
    deviceId: acc.clientid,
    state: acc.state,
    status: acc.status,
    number: acc.phonenumber ?? null,
  };
}
