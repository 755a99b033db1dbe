import type { ClientInfo, LiveMessage, LiveSender } from '@wa/shared';

/** One line of the realtime monitor (§2 Monitor, §3 Realtime monitor message). */
export interface MonitorLine {
  date: Date;
  event: string;
  state: string | null;
  status: string | null;
  /** reconnect count, shown in 'times' */
  reconnect: number | null;
  /** seconds until the next send, shown in 'seconds' */
  waitTime: number | null;
  number: string | null;
  /** connection.update lines are yellow, authenticated lines green */
  tone: 'yellow' | 'green' | null;
}

/**
 * What the monitor reads of any live payload: the realtime monitor's fields (§3, `MonitorFields`)
 * and the few of an event's own that say the same (the account's number in `clientInfo`, the
 * number being sent to or checked in `value`), each as wide as its widest sender. Every payload of
 * `LiveEventMap` is one (`viewOf` compiles only while that holds), so a field that changes its
 * type in the map fails here instead of showing something else.
 */
type MonitorView = {
  deviceId?: string | null;
  date?: string;
  state?: string | null;
  status?: string;
  number?: string | null;
  sender?: LiveSender;
  reconnectTime?: number;
  waitTime?: number;
  /** a count (count_success), or the number being sent to or checked (progressing, waiting…) */
  value?: string | number;
  clientInfo?: ClientInfo;
  /** a target number's row change (update_target), which names no device */
  receiver?: unknown;
};

const viewOf = (message: LiveMessage): MonitorView => message.payload;

/** The device a live message is about: `payload.deviceId` (a target number's row change has none). */
export function deviceOf(message: LiveMessage): string | null {
  return viewOf(message).deviceId ?? null;
}

/**
 * The line a live message makes for the device being watched, or null when it is about another
 * device. The realtime monitor message of §3 carries date, state, status, reconnectTime, waitTime,
 * number and a sender; the engine's own events carry some of these, and the rest is read from
 * what they do carry (the account of `clientInfo`, the target of `waiting`).
 */
export function lineOf(message: LiveMessage, deviceId: string, receivedAt = new Date()): MonitorLine | null {
  if (deviceOf(message) !== deviceId) return null;
  const p = viewOf(message);
  const date = p.date && !Number.isNaN(new Date(p.date).getTime()) ? new Date(p.date) : receivedAt;
  const target = typeof p.value === 'string' && /^\+?\d{6,}$/.test(p.value) ? p.value : null;
  return {
    date,
    event: message.event,
    state: p.state || p.sender?.state || null,
    status: p.status || p.sender?.status || null,
    reconnect: p.reconnectTime ?? null,
    waitTime: p.waitTime ?? null,
    number: p.number || p.clientInfo?.phonenumber || target,
    tone: message.event === 'connection.update' ? 'yellow' : message.event === 'authenticated' ? 'green' : null,
  };
}

/**
 * What a line says after its date and event (§2 Monitor): the state, the status when there is one,
 * the reconnect count in 'times', the wait in 'seconds' and the phone number, each when known.
 */
export function lineParts(line: MonitorLine): string[] {
  const parts: string[] = [];
  if (line.state !== null) parts.push(`state: ${line.state}`);
  if (line.status !== null) parts.push(`status: ${line.status}`);
  if (line.reconnect !== null) parts.push(`reconnect ${line.reconnect} times`);
  if (line.waitTime !== null) parts.push(`wait ${line.waitTime} seconds`);
  if (line.number !== null) parts.push(`number: ${line.number}`);
  return parts;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` in the browser's time zone. */
export function formatLineDate(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
