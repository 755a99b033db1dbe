import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { waitFor } from './services';

const root = path.resolve(import.meta.dirname, '../../..');
/** output kept per process: enough for the tail a failure prints, bounded for a long run */
const KEEP_CHARS = 400_000;

/**
 * A product process the tier runs (`node --import tsx <entry>`, one process, so a signal reaches
 * the product itself and not a wrapper such as npm), with its output kept for failure messages.
 */
export class ProductProcess {
  /** every process the tier started, dead ones too: the log checks read them all */
  static readonly all: ProductProcess[] = [];
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  private out = '';
  readonly startedAt = Date.now();
  /** a line not yet ended */
  private partial = '';
  /** lines that were not one JSON object (the first 20) and how many in all */
  readonly notJson: string[] = [];
  notJsonCount = 0;
  /** how many lines each log message had, by its `msg` */
  readonly messages = new Map<string, number>();

  constructor(
    readonly name: string,
    entry: string,
    env: Record<string, string>,
    readonly dataDir: string,
  ) {
    this.child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (d: Buffer) => {
      const text = d.toString();
      this.out += text;
      if (this.out.length > KEEP_CHARS * 1.5) this.out = this.out.slice(-KEEP_CHARS);
      this.readLines(text);
    };
    ProductProcess.all.push(this);
    this.child.stdout?.on('data', collect);
    this.child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /**
   * Issue 19's log rule: every line is one JSON object; counts each message. The first start's
   * banner (issue 20: a box for the operator on stderr, the password in it only) is the one block
   * that is not a log line.
   */
  private readLines(text: string): void {
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim() || /^[┌│└]/.test(line)) continue;
      let msg: unknown;
      try {
        msg = (JSON.parse(line) as { msg?: unknown }).msg;
      } catch {
        this.notJsonCount += 1;
        if (this.notJson.length < 20) this.notJson.push(line.slice(0, 300));
        continue;
      }
      const key = typeof msg === 'string' ? msg : '(no msg)';
      this.messages.set(key, (this.messages.get(key) ?? 0) + 1);
    }
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  output(): string {
    return this.out;
  }

  /** The last `chars` characters of the output, headed with the process's name and pid. */
  tail(chars = 3000): string {
    const state = this.alive ? 'running' : `exited ${this.child.exitCode ?? this.child.signalCode}`;
    return `--- ${this.name} (pid ${this.pid}, ${state}) output (tail)\n${this.out.slice(-chars)}`;
  }

  signal(sig: NodeJS.Signals): void {
    if (this.alive) this.child.kill(sig);
  }

  /** SIGKILL and wait for the exit (SIGCONT first: a stopped process dies only once it runs). */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGKILL');
    this.child.kill('SIGCONT');
    await this.exited;
  }

  /** Kills the process and removes its data dir. */
  async destroy(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** What every product process of the stack shares. */
export interface StackEnv {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  jwtSecret: string;
}

/** The API process, as `npm start` runs it minus the dashboard build (WEB_DIST points nowhere: /api works without it). */
export async function startApi(
  env: StackEnv & { port: number; dataDir: string; adminEmail: string; adminPassword: string },
): Promise<ProductProcess> {
  const api = new ProductProcess(
    'api',
    'app/src/main.ts',
    {
      DATABASE_URL: env.databaseUrl,
      REDIS_URL: env.redisUrl,
      REDIS_PREFIX: env.redisPrefix,
      PORT: String(env.port),
      DATA_DIR: env.dataDir,
      WEB_DIST: path.join(env.dataDir, 'no-dashboard'),
      WA_DRIVER: 'sim',
      ADMIN_EMAIL: env.adminEmail,
      ADMIN_PASSWORD: env.adminPassword,
      JWT_SECRET: env.jwtSecret,
      LOG_LEVEL: 'info',
    },
    env.dataDir,
  );
  await waitFor(
    async () => {
      if (!api.alive) throw new Error(`the API exited during start\n${api.tail()}`);
      const res = await fetch(`http://127.0.0.1:${env.port}/api/health`, { signal: AbortSignal.timeout(3000) }).catch(
        () => null,
      );
      // any answer means it listens; whether it is healthy is each scenario's question
      return res !== null;
    },
    90_000,
    () => `the API listening on ${env.port}\n${api.tail()}`,
    250,
  ).catch(async (err) => {
    // a process that did not start is not left behind (its data dir is the caller's)
    await api.kill();
    throw err;
  });
  return api;
}

/** The simulator and engine tuning of the tier: a few messages a second per account, quick takeovers. */
export const WORKER_TUNING: Record<string, string> = {
  WA_DRIVER: 'sim',
  SIM_PAIR_DELAY_MS: '300',
  SIM_RESTORE_DELAY_MS: '100',
  SIM_SEND_LATENCY_MS: '20-60',
  // a few failures keep 'failed' in the books without tripping the fail-streak pause
  SIM_SEND_FAIL_RATE: '0.02',
  SIM_ACK_DELAY_MS: '500',
  // the 60 s outages outlast a lease many times over, as the 30 s default would in production
  WA_LEASE_MS: '8000',
  WA_SWEEP_MS: '2000',
  // an interval "second" of 400 ms: at 1 s intervals each account sends about twice a second
  WA_BLAST_SECOND_MS: '400',
  LOG_LEVEL: 'info',
};

/** One `npm run worker` process with its own empty DATA_DIR (another host) and its own send log. */
export async function startWorker(env: StackEnv & { name: string; sendLog: string }): Promise<ProductProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-fault-worker-'));
  const worker = new ProductProcess(
    env.name,
    'workers/src/main.ts',
    {
      ...WORKER_TUNING,
      DATABASE_URL: env.databaseUrl,
      REDIS_URL: env.redisUrl,
      REDIS_PREFIX: env.redisPrefix,
      DATA_DIR: dataDir,
      SIM_SEND_LOG: env.sendLog,
    },
    dataDir,
  );
  await waitFor(
    () => {
      if (!worker.alive) throw new Error(`${env.name} exited during start\n${worker.tail()}`);
      return worker.output().includes('worker ready');
    },
    90_000,
    () => `${env.name} ready\n${worker.tail()}`,
    250,
  ).catch(async (err) => {
    await worker.destroy();
    throw err;
  });
  return worker;
}
