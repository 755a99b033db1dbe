import type { ClientInfo, SimCommand, SimResult, WhatsappState } from '@wa/shared';
import type { ToolKind } from '../db/tool-tables';

/** An op that takes no arguments beyond who asks. */
type NoArgs = Record<never, never>;

/**
 * Every request the API (and the send-message job) makes of a device's holder, with its
 * arguments and its reply (n8n's pubsub command map). The API calls through `callDevice`, the
 * holder answers from a handler table keyed by op (workers/src/engine/device-commands.ts), and
 * both are checked against this map. The wire format is `{ op, replyTo, args }` with the caller
 * (`DeviceCaller`) inside `args`, as it was before the map.
 */
export interface DeviceCommandMap {
  /** a login's QR or pairing code, answered once there is one; an account already logged in has none */
  qr: { args: NoArgs; reply: { deviceId: string; qr: string | null; code: string | null; state?: 'connected' } };
  /** the session's state and account, and which worker holds it (save, client-state, the dev monitor) */
  state: { args: NoArgs; reply: { state: WhatsappState; info: ClientInfo | null; workerId: string } };
  /** one text message from the account */
  send: { args: { to: string; text: string }; reply: { id: string } };
  /** ends the session here (a saved account keeps its stored session for the next holder) */
  remove: { args: NoArgs; reply: { deviceId: string } };
  /** the login was saved as this account: the holder takes its lease */
  adopt: { args: { accountId: number }; reply: { state: WhatsappState; workerId: string } };
  /** the suspension was lifted: the session's own state shows again */
  activate: { args: NoArgs; reply: { state: WhatsappState } };
  /** rebuilds the client in place from the stored session (a conflict) */
  reconnect: { args: NoArgs; reply: { deviceId: string } };
  /** starts or stops the account's blast loop (the row's status is the switch; this wakes the loop) */
  blast: { args: { action: 'start' | 'stop' }; reply: { deviceId: string; status: 'sending' | 'idle' } };
  /**
   * starts or stops a generator's or validator's loop on the account; `kind: 'send'` is the
   * send-message job's nudge that the account's one-off sends go on (no op of its own on the wire)
   */
  tool: {
    args: { kind: 'send' } | { kind: ToolKind; id: number; action: 'start' | 'stop' };
    reply: { deviceId: string } | { id: number; status: 'running' | 'idle' };
  };
  /** the dev's simulator control (WA_DRIVER=sim): something happens on WhatsApp's side of the account */
  sim: { args: { command: SimCommand }; reply: SimResult };
}

export type DeviceOp = keyof DeviceCommandMap;

/** Who asks: a device answers its owner (`userId`), or anyone `privileged` (admin, dev, the system). */
export interface DeviceCaller {
  userId?: number;
  privileged?: boolean;
}

export type DeviceArgs<Op extends DeviceOp> = DeviceCommandMap[Op]['args'] & DeviceCaller;

/** A holder's refusal: the API answers with `status` (400 when absent) and `error` as its message. */
export interface DeviceRefusal {
  ok: false;
  error: string;
  status?: number;
}

export type DeviceReply<Op extends DeviceOp> = { ok: true; data: DeviceCommandMap[Op]['reply'] } | DeviceRefusal;

/** One request on a device's bus channel; the reply goes to the one-off channel `replyTo`. */
export interface DeviceRequest<Op extends DeviceOp> {
  op: Op;
  replyTo: string;
  args: DeviceArgs<Op>;
}
