import { checkBooks } from './books';
import { awaitResumption, healthyBy, probeHealth } from './observe';
import { waitFor } from './services';
import type { AccountRow, FaultStack } from './stack';

/** Unsent targets kept in the pool before each scenario, so no blast runs out during one. */
const TARGETS_AHEAD = 3000;
/** A fault's blasts must send again within this long of its end (issue 19). */
export const RESUME_WITHIN_MS = 30_000;

/** What a fault did: when it ended, what went wrong while it lasted, notes for the printout. */
export interface FaultOutcome {
  /** epoch ms when the fault ended (the server answers again, the process died, the socket was cut) */
  endedAt: number;
  problems: string[];
  notes: string[];
}

export interface FaultContext {
  stack: FaultStack;
  run: FaultRun;
  /** the accounts blasting (and sending) when the fault began */
  sending: AccountRow[];
}

export interface Scenario {
  name: string;
  fault(ctx: FaultContext): Promise<FaultOutcome>;
  /** after the blasts resumed, before the books are checked (e.g. which unknowns the fault may leave) */
  beforeBooks?(ctx: FaultContext, outcome: FaultOutcome): Promise<string[]>;
  /** always runs last, even when the scenario failed: puts the stack back for the next one */
  restore?(ctx: FaultContext): Promise<void>;
}

/** The state the scenarios of one stack share, and the summary printed at the end. */
export class FaultRun {
  /** 'unknown' logs the worker SIGKILL left (one per account it held, at most) */
  readonly allowedUnknown = new Set<number>();
  readonly summary: string[] = [];

  constructor(readonly stack: FaultStack) {}

  /** Puts back whatever an earlier failure left broken, tops up the targets, and returns the accounts that send. */
  async prepare(name: string): Promise<{ sending: AccountRow[]; notes: string[] }> {
    const { stack } = this;
    const notes: string[] = [];
    if (!stack.pgServer.isRunning) await stack.pgServer.start();
    if (!stack.redis.isRunning) await stack.redis.start();
    for (const w of stack.workers) w.signal('SIGCONT');
    if (!stack.api.alive) await stack.restartApi();
    while (stack.workers.filter((w) => w.alive).length < 2) stack.workers.push(await stack.startWorkerProcess());
    await stack.ensureTargets(TARGETS_AHEAD);

    // each account must be sending: an account an earlier fault left stopped or stuck is started
    // again the way an operator would (stop, start), so this scenario measures its own fault only
    const progressing = async (since: number) => {
      stack.sendLog.refresh();
      const rows = await stack.accounts();
      return rows.filter((a) => a.status === 'sending' && stack.sendLog.after(a.clientid, since).length > 0);
    };
    const since = Date.now();
    let rows = await stack.accounts();
    for (const a of rows.filter((x) => x.status !== 'sending')) {
      const res = await stack.startBlast(a.clientid, false);
      notes.push(`${a.clientid} was ${a.status}/${a.state}: restarted its blast (${res.status})`);
    }
    const all = () => stack.devices.length;
    await waitFor(
      async () => (await progressing(since)).length === all(),
      15_000,
      () => 'every blast sending',
    ).catch(() => {});
    let ok = await progressing(since);
    if (ok.length < all()) {
      const again = Date.now();
      rows = await stack.accounts();
      for (const a of rows.filter((x) => !ok.some((o) => o.id === x.id))) {
        const res = await stack.startBlast(a.clientid, false);
        notes.push(`${a.clientid} was not sending (${a.status}/${a.state}): stop + start answered ${res.status}`);
      }
      await waitFor(
        async () => (await progressing(again)).length === all(),
        20_000,
        () => 'every blast sending',
      ).catch(() => {});
      ok = await progressing(again);
      rows = await stack.accounts();
      for (const a of rows.filter((x) => !ok.some((o) => o.id === x.id))) {
        notes.push(`${a.clientid} (${a.status}/${a.state}, ${a.worker_id}) could not be revived: left out of ${name}`);
      }
    }
    if (!ok.length) {
      throw new Error(`${name}: no blast is sending before the fault\n${notes.join('\n')}\n${stack.tails()}`);
    }
    const health = await probeHealth(stack);
    if (health.status !== 200) notes.push(`health before the fault: ${health.status} (${health.reasons})`);
    return { sending: ok, notes };
  }

  /**
   * One scenario: prepare, inject the fault, then check that every account that was sending sent
   * again (and was logged) within 30 s of the fault's end, that health is 200 again by then, and
   * the books. Every problem is collected, printed, and thrown together with the processes' logs.
   */
  async scenario(s: Scenario): Promise<void> {
    const { stack } = this;
    const { sending, notes } = await this.prepare(s.name);
    const ctx: FaultContext = { stack, run: this, sending };
    const problems: string[] = [];
    try {
      const started = Date.now();
      const outcome = await s.fault(ctx);
      problems.push(...outcome.problems);
      notes.push(...outcome.notes);

      const devices = sending.map((a) => a.clientid);
      const r = await awaitResumption(stack, devices, outcome.endedAt, RESUME_WITHIN_MS);
      const worst = Math.max(0, ...r.resumed.values());
      const per = devices.map((d) => `${d}: ${r.resumed.has(d) ? `${r.resumed.get(d)} ms` : 'did not resume'}`);
      if (r.missing.length) {
        const rows = await stack.accounts().catch(() => []);
        problems.push(
          `${r.missing.length} of ${devices.length} blast(s) did not send again within ${RESUME_WITHIN_MS / 1000} s of the fault's end: ${r.missing
            .map((d) => {
              const a = rows.find((x) => x.clientid === d);
              const last = stack.sendLog.last(d);
              return `${d} (status ${a?.status}, state ${a?.state}, held by ${a?.worker_id ?? 'nobody'}, last send ${last ? new Date(last.at).toISOString() : 'never'})`;
            })
            .join(' | ')}`,
        );
      }
      const line = `${s.name}: ${r.missing.length ? `${r.missing.length} blast(s) did not resume within ${RESUME_WITHIN_MS / 1000} s` : `every blast resumed within ${(worst / 1000).toFixed(1)} s`} of the fault's end (fault took ${((outcome.endedAt - started) / 1000).toFixed(1)} s)`;
      this.summary.push(line);
      console.log(
        `[fault] ${line}\n[fault]   per account: ${per.join(', ')}${notes.map((n) => `\n[fault]   ${n}`).join('')}`,
      );

      problems.push(...(await healthyBy(stack, outcome.endedAt + RESUME_WITHIN_MS)));
      if (s.beforeBooks) problems.push(...(await s.beforeBooks(ctx, outcome)));
      problems.push(...(await checkBooks(stack, { allowedUnknown: this.allowedUnknown })));
      console.log(`[fault]   books checked against ${stack.sendLog.lines.length} accepted sends so far`);
    } catch (err) {
      // a step that threw (a server that did not come back, a check that timed out) is one more problem, with the logs
      problems.push(`the scenario could not go on: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    } finally {
      await s.restore?.(ctx).catch((err) => problems.push(`restoring the stack failed: ${err}`));
    }
    if (problems.length) {
      this.summary.push(`${s.name}: FAILED (${problems.length} problem(s))`);
      throw new Error(`${s.name}:\n- ${problems.join('\n- ')}\n\n${stack.tails()}`);
    }
  }
}
