import type { LiveMessage } from '@wa/shared';

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

type Payload = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const obj = (v: unknown): Payload => (v && typeof v === 'object' ? (v as Payload) : {});

/** The device a live message is about: `payload.deviceId`, else its sender's or own client id. */
export function deviceOf(message: LiveMessage): string | null {
  const p = obj(message.payload);
  return str(p.deviceId) ?? str(obj(p.sender).clientid) ?? str(p.clientid);
}

/**
 * The line a live message makes for the device being watched, or null when it is about another
 * device. The realtime monitor message of §3 carries date, state, status, reconnectTime, waitTime,
 * number and a sender; the engine's own events carry some of these, and the rest is read from
 * what they do carry (the account of `clientInfo`, the target of `waiting`).
 */
export function lineOf(message: LiveMessage, deviceId: string, receivedAt = new Date()): MonitorLine | null {
  if (deviceOf(message) !== deviceId) return null;
  const p = obj(message.payload);
  const sender = obj(p.sender);
  const client = obj(p.clientInfo);
  const stamp = str(p.date) ?? (typeof p.date === 'number' ? p.date : null);
  const date = stamp !== null && !Number.isNaN(new Date(stamp).getTime()) ? new Date(stamp) : receivedAt;
  const value = str(p.value);
  return {
    date,
    event: message.event,
    state: str(p.state) ?? str(sender.state),
    status: str(p.status) ?? str(sender.status),
    reconnect: num(p.reconnectTime) ?? num(p.reconnect),
    waitTime: num(p.waitTime),
    number:
      str(p.number) ??
      str(p.phonenumber) ??
      str(p.phoneNumber) ??
      str(client.phonenumber) ??
      (value && /^\+?\d{6,}$/.test(value) ? value : null),
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
