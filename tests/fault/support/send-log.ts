import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';

/** One message the simulator accepted (a line of SIM_SEND_LOG). */
export interface SendLine {
  deviceId: string;
  to: string;
  id: string;
  /** epoch ms in the worker when the simulated WhatsApp accepted it */
  at: number;
  /** the worker process whose file the line is in */
  worker: string;
}

/**
 * What really left the workers: each worker's SIM_SEND_LOG file in one folder, read incrementally
 * (the files only grow). The truth the books are checked against: a target in it twice was
 * messaged twice, and a line without its message_logs row is a message the books lost.
 */
export class SendLog {
  private readonly offsets = new Map<string, number>();
  private readonly partial = new Map<string, string>();
  readonly lines: SendLine[] = [];
  /** lines that did not parse (a torn write would show here) */
  readonly bad: string[] = [];

  constructor(readonly dir: string) {}

  fileFor(worker: string): string {
    return path.join(this.dir, `${worker}.jsonl`);
  }

  /** Reads what the files gained since the last call; returns the new lines. */
  refresh(): SendLine[] {
    if (!existsSync(this.dir)) return [];
    const fresh: SendLine[] = [];
    for (const name of readdirSync(this.dir).sort()) {
      if (!name.endsWith('.jsonl')) continue;
      const file = path.join(this.dir, name);
      const worker = name.slice(0, -'.jsonl'.length);
      const fd = openSync(file, 'r');
      try {
        const size = fstatSync(fd).size;
        const from = this.offsets.get(file) ?? 0;
        if (size <= from) continue;
        const buf = Buffer.alloc(size - from);
        readSync(fd, buf, 0, buf.length, from);
        this.offsets.set(file, size);
        const text = (this.partial.get(file) ?? '') + buf.toString('utf8');
        const parts = text.split('\n');
        // a line still being written stays for the next read
        this.partial.set(file, parts.pop() ?? '');
        for (const raw of parts) {
          if (!raw.trim()) continue;
          try {
            const v = JSON.parse(raw) as Omit<SendLine, 'worker'>;
            const line = { deviceId: v.deviceId, to: v.to, id: v.id, at: v.at, worker };
            fresh.push(line);
            this.lines.push(line);
          } catch {
            this.bad.push(`${worker}: ${raw.slice(0, 200)}`);
          }
        }
      } finally {
        closeSync(fd);
      }
    }
    return fresh;
  }

  /** Lines of one account accepted after `since` (epoch ms). */
  after(deviceId: string, since: number): SendLine[] {
    return this.lines.filter((l) => l.deviceId === deviceId && l.at > since);
  }

  /** The latest send of an account (by time: after a takeover its lines are in two files) up to `until`, or null. */
  last(deviceId: string, until = Number.POSITIVE_INFINITY): SendLine | null {
    let best: SendLine | null = null;
    for (const l of this.lines) if (l.deviceId === deviceId && l.at <= until && (!best || l.at > best.at)) best = l;
    return best;
  }
}

/** A number as digits only: how the log's target and the simulator's `to` compare. */
export function digits(n: string): string {
  return n.replace(/\D/g, '');
}
