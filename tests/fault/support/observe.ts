import type { FaultStack } from './stack';

/** How long GET /api/health may take in every case (issue 19: "answers within 2 s"). */
export const HEALTH_DEADLINE_MS = 2000;

/** One GET /api/health: when it started, how long it took, the status (0: no answer) and why. */
export interface HealthSample {
  at: number;
  ms: number;
  status: number;
  reasons: string;
}

/** One health probe; the client waits up to 10 s so that a slow answer is measured, not cut. */
export async function probeHealth(stack: FaultStack): Promise<HealthSample> {
  const at = Date.now();
  const res = await stack.call('GET', '/api/health', null, undefined, 10_000);
  const body = res.body as { status?: string; reasons?: string[] } | string;
  const reasons =
    typeof body === 'object' && body ? `${body.status ?? '?'} ${(body.reasons ?? []).join(',')}`.trim() : String(body);
  return { at, ms: res.ms, status: res.status, reasons };
}

/** Problems with a health answer given while a dependency is down: it must be 503 within the deadline. */
export function healthWhileDown(samples: HealthSample[], what: string): string[] {
  const bad = samples.filter((s) => s.status !== 503 || s.ms > HEALTH_DEADLINE_MS);
  if (!bad.length) return [];
  return [
    `GET /api/health while ${what}: ${bad.length} of ${samples.length} answer(s) not 503 within ${HEALTH_DEADLINE_MS} ms: ${bad
      .slice(0, 6)
      .map((s) => `${s.status || 'no answer'} in ${s.ms} ms (${s.reasons})`)
      .join(' | ')}`,
  ];
}

/** Probes GET /api/health one after another in the background until stopped. */
export class HealthProbe {
  readonly samples: HealthSample[] = [];
  private running: Promise<void> | null = null;
  private on = false;

  constructor(private readonly stack: FaultStack) {}

  start(): void {
    this.on = true;
    this.running = (async () => {
      while (this.on) {
        this.samples.push(await probeHealth(this.stack));
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
  }

  /** Stops and waits for the probe in flight, so every sample was taken inside the window. */
  async stop(): Promise<HealthSample[]> {
    this.on = false;
    await this.running;
    return this.samples;
  }
}

/** The answers of a window, counted: `200 ok ×40, 503 degraded accounts_unheld ×3`. */
export function healthSummary(samples: HealthSample[]): string {
  const counts = new Map<string, number>();
  for (const x of samples) {
    const k = `${x.status || 'no answer'} ${x.reasons}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const slowest = Math.max(0, ...samples.map((x) => x.ms));
  return `${[...counts.entries()].map(([k, n]) => `${k} ×${n}`).join(', ') || 'no probe'} (slowest ${slowest} ms)`;
}

/** Waits until GET /api/health answers 200 (by `deadline`, epoch ms); a problem naming the last answer if not. */
export async function healthyBy(stack: FaultStack, deadline: number): Promise<string[]> {
  let last: HealthSample | null = null;
  for (;;) {
    last = await probeHealth(stack);
    if (last.status === 200) return [];
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return [
    `GET /api/health not 200 within 30 s of the fault ending: last ${last.status || 'no answer'} in ${last.ms} ms (${last.reasons})`,
  ];
}

/** When each account sent again after a fault ended (a send the simulator accepted and the log holds). */
export interface Resumption {
  /** deviceId → ms from the fault's end to its first logged send after it */
  resumed: Map<string, number>;
  /** accounts that sent nothing logged by the deadline */
  missing: string[];
}

/**
 * Waits until every one of `devices` has a send after `since` (the fault's end, epoch ms) that is
 * in message_logs, or `withinMs` after `since` has passed.
 */
export async function awaitResumption(
  stack: FaultStack,
  devices: string[],
  since: number,
  withinMs = 30_000,
): Promise<Resumption> {
  const resumed = new Map<string, number>();
  const deadline = since + withinMs;
  for (;;) {
    stack.sendLog.refresh();
    for (const d of devices) {
      if (resumed.has(d)) continue;
      const candidates = stack.sendLog
        .after(d, since)
        .sort((a, b) => a.at - b.at)
        .slice(0, 20);
      if (!candidates.length) continue;
      const r = await stack.pool
        .query<{ wa_message_id: string }>(
          'select wa_message_id from message_logs where wa_message_id = any($1::text[])',
          [candidates.map((c) => c.id)],
        )
        .catch(() => ({ rows: [] as { wa_message_id: string }[] }));
      const logged = new Set(r.rows.map((x) => x.wa_message_id));
      const first = candidates.find((c) => logged.has(c.id));
      if (first) resumed.set(d, first.at - since);
    }
    if (resumed.size === devices.length || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { resumed, missing: devices.filter((d) => !resumed.has(d)) };
}

/** Fixed waits are only for the length of an outage itself (the scenario's 3, 60 or 90 s). */
export function outage(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
