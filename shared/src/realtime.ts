import type { Role, RunStatus, WhatsappState } from './constants';
import { everyKey } from './keys';

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

// ---- payloads ------------------------------------------------------------------------------------
// An event sent about an account and about a tool (count_success, finished, waiting…) carries a
// union; `tool` tells the members apart: a tool's payload names its tool, an account's has none.

/** The account an account event is about, as the realtime monitor names it (§3 Realtime monitor message). */
export type LiveSender = {
  /** the account's id; null while its login is not saved yet */
  id: number | null;
  user_id: number;
  clientid: string;
  state: WhatsappState | null;
  status: RunStatus;
};

/**
 * What an account event carries besides its own fields (§3 Realtime monitor message), for the dev's
 * /monitor/realtime: when it happened, the account's state, run status and number, the account
 * itself (`sender`) and, on the connection's events, how many times its session was reconnected so
 * far. The engine fills them in on every account event it sends (`monitorFields` in
 * workers/src/engine/live-session.ts); an event's own `state` or `status` is the one shown.
 */
export type MonitorFields = {
  /** when it happened (ISO) */
  date: string;
  state: WhatsappState | null;
  status: RunStatus;
  /** the account's own number, once known */
  number: string | null;
  sender: LiveSender;
  /** the session's reconnect attempts so far (rebuilds in place, restores by a sweep): 'reconnect N times' */
  reconnectTime?: number;
  /** seconds until the next message (waiting) */
  waitTime?: number;
};

/**
 * Names the WhatsApp account (its device id, `clientid`) an account event is about, with the
 * realtime monitor's fields (optional in the type: a sender outside the engine may leave them out).
 * `tool` is never set: it is what tells an account's payload from a tool's (`isToolMessage`).
 */
export type DeviceRef = { deviceId: string; tool?: undefined } & Partial<MonitorFields>;

/** Names the generator or validator a tool event is about: `tool` says which, and which id follows. */
export type ToolId = { tool: 'generator'; generatorId: number } | { tool: 'validator'; validatorId: number };

/** Names the generator or validator a tool event is about, and the account that runs it. */
export type ToolRef = ToolId & { deviceId: string };

/** What WhatsApp tells about the logged-in account (§4 Account creation flow, clientInfo). */
export type ClientInfo = {
  /** digits only, with the 62 country code, e.g. 6281234567890 */
  phonenumber: string;
  pushname: string;
  /** the WhatsApp server part of the id, usually 'c.us' */
  server: string;
  /** the serialized id, e.g. 6281234567890@c.us */
  serialized: string;
};

/** A target number's row after a blast message to it (§4 Phone number rows, on client-admin only). */
export type LiveReceiver = {
  id: number;
  count_success: number;
  count_fail: number;
  last_sent: string | null;
  in_use: number;
};

/**
 * A blast message counted on its account: `value` is the account's new count. The owner's
 * channel gets the count; client-admin also the target number's row.
 */
export type AccountCount = DeviceRef & {
  value: number;
  income: number;
  /** blast messages the account sent today, against its daily cap (account safety) */
  sent_today?: number;
  receiver?: LiveReceiver;
};

/** A tool's check counted: `value` is the tool's new count. */
export type ToolCount = ToolRef & { value: number; progress: number };

/**
 * Why a blast run ended, in its `finished`/`error_blast` event and its `blast.finished` webhook:
 * through its targets, stopped (API), an error (refused, the session went down), paused by ban
 * signals, suspended (WhatsApp or rule #1), the daily cap reached, or the send window closed.
 */
export const BLAST_END_REASONS = [
  'finished',
  'stopped',
  'error',
  'paused',
  'suspended',
  'daily_cap',
  'send_window',
] as const;
export type BlastEndReason = (typeof BLAST_END_REASONS)[number];

/** A blast that ended by itself: through the targets or its daily cap (`finished`), or refused (`error_blast`). */
export type BlastEnd = DeviceRef & { state: WhatsappState; status: 'idle'; message: string; reason: BlastEndReason };

/** A tool's run that ended; `state` is 'finished' or the error that ended it. */
export type ToolEnd = ToolRef & { state: string; status: 'idle'; progress?: 100 };

/** A state the account's session reported, or the API recorded. */
export type ConnectionUpdate = DeviceRef & {
  state: WhatsappState | null;
  /** why a session ended (auth failure) */
  message?: string;
  /** sent by activate, so the row's 'Suspended (Nx)' stays right */
  suspended_count?: number;
};

/** The account's one-off sends (the blaster form) are through, or were stopped. */
export type SendsIdle = DeviceRef & {
  status: 'idle';
  sendId: string;
  count_success: number;
  count_fail: number;
  message?: string;
};

/**
 * Every live event with its payload, as the API and the workers send it today. An event sent by
 * several senders carries a union of their shapes (a blast's and a tool's `count_success`, say);
 * a tool's shape has `tool` ('generator' or 'validator'), an account's has none, and the browser
 * tells them apart by that field alone (`isToolMessage`). The shapes of one account event differ
 * only in optional extras the readers take as they come (a blast's `receiver` on client-admin, a
 * one-off send's `sendId`).
 */
export interface LiveEventMap {
  count_success: AccountCount | ToolCount;
  count_fail: AccountCount | ToolCount;
  /** receipts changed an account's figures: its counts and income, its delivered and read messages */
  count_synced: DeviceRef & {
    count_success: number;
    count_fail: number;
    income: number;
    delivered: number;
    read: number;
  };
  sending: DeviceRef & { status: 'sending' };
  generating: ToolRef & { status: 'generating' };
  validating: ToolRef & { status: 'validating' };
  /** stop-blasting, or a tool's stop (whose account may be gone: deviceId null) */
  stop: (DeviceRef & { status: 'idle' }) | (ToolId & { deviceId: string | null; status: 'idle' });
  /** PUT status to idle, or the end of an account's one-off sends */
  idle: (DeviceRef & { status: 'idle' }) | SendsIdle;
  finished: BlastEnd | ToolEnd;
  error_blast: BlastEnd;
  error_generate: ToolEnd;
  error_validate: ToolEnd;
  'connection.update': ConnectionUpdate;
  suspended: DeviceRef & { suspended_count: number; state: 'suspended' };
  /** account safety: ban signals paused the account (its blast ended) until `paused_until`, or the pause was lifted (null) */
  paused: DeviceRef & { paused_until: string | null; pause_reason: string | null; status: 'idle' };
  reconnecting: DeviceRef & { state: 'reconnecting...' };
  /** a tool's check failed and is tried again: 'Fail, attempting (code)...' */
  attempting: ToolRef & { code: string; value: string; attempt: number };
  /**
   * The number being sent to or checked (`value`), with `target` and `progress` (§4 Live events):
   * a blast's `target` is the target number's row and `progress` the percent of today's cap sent;
   * a tool's `target` is how many numbers it checks in all and `progress` the percent checked; a
   * one-off send names its send.
   */
  progressing:
    | (DeviceRef & { value: string; target: number; progress: number })
    | (DeviceRef & { value: string; sendId: string })
    | (ToolRef & { value: string; target: number; progress: number });
  /** seconds until the next message or check, after `value` */
  waiting: (DeviceRef | ToolRef) & {
    waitTime: number;
    value: string;
    /** a blast outside its send window or before its scheduled start: it waits until then (ISO) */
    until?: string;
    /** the loop waits for the installation, not for its interval: 'Menunggu database…', 'Menunggu Redis…' */
    reason?: string;
  };
  reset: DeviceRef & { state: WhatsappState | null; count_success: number; count_fail: number; income: number };
  /** a target number's row changed outside a send (a failure receipt, an opt-out): client-admin only */
  update_target: {
    /** `status` is the row's column as read (text; 'optout' after an opt-out) */
    receiver: Partial<LiveReceiver> & { id: number; status?: string };
  };
  qr: DeviceRef & { qr: string };
  code: DeviceRef & { code: string };
  /** the phone scanned: the create page saves the account with this (§4 Account creation flow) */
  authenticated: DeviceRef & { clientInfo: ClientInfo };
  /** a blast claimed a target number (client-admin only) */
  in_use: DeviceRef & { receiver: { id: number; in_use: number } };
  /**
   * a login that could not start, or that no worker would take; or (`kind`, no device) a failure of
   * a whole process, told to admins and devs (§8: shown on the create page with its prefix)
   */
  error: (DeviceRef & { message: string; kind?: undefined }) | ProcessError;
}

/** §8: the process-wide failures the create page shows, each with its prefix ('mongo' is the spec's database error). */
export const PROCESS_ERROR_PREFIXES = {
  unhandledRejection: 'unhandledRejection : ',
  uncaughtException: 'uncaughtException : ',
  mongo: 'mongo erorr : ',
} as const;
export type ProcessErrorKind = keyof typeof PROCESS_ERROR_PREFIXES;

/** A failure of a whole process (the API's or a worker's), not of one device: `kind` says which. */
export type ProcessError = { kind: ProcessErrorKind; message: string; deviceId?: undefined; tool?: undefined };

export type LiveEvent = keyof LiveEventMap;

/** Every live event by name, for code that runs (the map above is for the compiler). */
export const LIVE_EVENTS = everyKey<LiveEvent>()([
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
  'paused',
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
]);

/** Whether a name read off the wire is a live event of this version (the web's socket checks it). */
export function isLiveEvent(name: unknown): name is LiveEvent {
  return typeof name === 'string' && (LIVE_EVENTS as readonly string[]).includes(name);
}

/** One message of event `E`, its payload typed by the map: what a sender builds (publishLive). */
export type LiveMessageOf<E extends LiveEvent> = { event: E; payload: LiveEventMap[E] };

/**
 * A message of event `E` as a reader sees it: a union discriminated by `event`, with one member
 * per payload shape, so that a type guard on the payload (`isToolMessage`) narrows the message.
 * `LiveMessage` (all events) is what the hub delivers; the web parses it once, at the socket.
 */
export type LiveMessage<E extends LiveEvent = LiveEvent> = {
  [K in E]: LiveEventMap[K] extends infer P ? (P extends unknown ? { event: K; payload: P } : never) : never;
}[E];

/** A process-wide failure (`error` with a `kind`, no device). */
export type ProcessErrorMessage = { event: 'error'; payload: ProcessError };

/** Whether the message is a process-wide failure rather than an event of one device. */
export function isProcessError(message: LiveMessage): message is ProcessErrorMessage {
  return message.event === 'error' && message.payload.kind !== undefined;
}

/** A message about a generator or validator: its payload names the tool (`tool`, and its id). */
export type ToolLiveMessage = Extract<LiveMessage, { payload: ToolId }>;

/** A message about an account (or a target number): every message that is not a tool's. */
export type AccountLiveMessage = Exclude<LiveMessage, ToolLiveMessage>;

/** Whether a message is about a generator or validator (its payload's `tool`), not an account. */
export function isToolMessage(message: LiveMessage): message is ToolLiveMessage {
  return 'tool' in message.payload && message.payload.tool !== undefined;
}
