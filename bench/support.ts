import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) / 1024 : 0;
}

export interface BenchServer {
  url: string;
  child: ChildProcess;
  token: string;
  stop(): Promise<void>;
}

/** The real API process (npm start's server) on a free port, signed in as the admin. */
export async function startServer(env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', 'app/src/main.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        ADMIN_EMAIL: 'bench@example.test',
        ADMIN_PASSWORD: 'bench-password',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > end) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.test', password: 'bench-password' }),
  });
  const { token } = (await login.json()) as { token: string };
  return {
    url,
    child,
    token,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A process's own CPU budget (see capCpu). */
export interface CpuCap {
  /** periods in which the process used its whole budget and was held back */
  throttled(): number;
  /** removes the cgroup (once its process has exited) */
  remove(): void;
}

/**
 * Gives a process a CPU budget of its own, `cores` of one core (0.5: half a core), through a cgroup
 * (v1's cpu controller, or v2's cpu.max): a worker process alone on a small host, emulated on one
 * machine. Needs root and a writable cgroup tree; throws saying so otherwise.
 */
export function capCpu(pid: number, cores: number, name: string): CpuCap {
  const period = 100_000;
  const quota = Math.max(1000, Math.round(cores * period));
  const v1 = '/sys/fs/cgroup/cpu';
  const v2 = '/sys/fs/cgroup';
  let dir: string;
  if (existsSync(path.join(v1, 'cpu.cfs_quota_us'))) {
    dir = path.join(v1, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(period));
    writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
  } else if (
    existsSync(path.join(v2, 'cgroup.controllers')) &&
    readFileSync(path.join(v2, 'cgroup.controllers'), 'utf8').includes('cpu')
  ) {
    dir = path.join(v2, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${period}`);
  } else {
    throw new Error('BENCH_WORKER_CPU needs a cgroup cpu controller (root on Linux)');
  }
  writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
  return {
    throttled() {
      try {
        const m = /nr_throttled (\d+)/.exec(readFileSync(path.join(dir, 'cpu.stat'), 'utf8'));
        return m ? Number(m[1]) : 0;
      } catch {
        return 0;
      }
    },
    remove() {
      try {
        rmdirSync(dir);
      } catch {
        // still holds a process that is exiting; the kernel keeps an empty group, harmless
      }
    },
  };
}

/** Every process's CPU time so far (clock ticks, by pid) and the machine's idle and total ticks. */
export interface CpuSnapshot {
  procs: Map<number, { comm: string; ticks: number }>;
  idle: number;
  total: number;
}

export function cpuSnapshot(): CpuSnapshot {
  const procs = new Map<number, { comm: string; ticks: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(d), { comm, ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // gone meanwhile
    }
  }
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return { procs, idle: (cpu[3] ?? 0) + (cpu[4] ?? 0), total: cpu.reduce((a, b) => a + b, 0) };
}

/**
 * CPU used between two snapshots, in % of one core, grouped by `group(pid, comm)` (null: "other"),
 * plus the machine's idle share in % of one core (200 on an idle two-core machine). A process that
 * exited in between is not counted; one started in between counts from its start.
 */
export function cpuBetween(
  a: CpuSnapshot,
  b: CpuSnapshot,
  seconds: number,
  group: (pid: number, comm: string) => string | null,
): Record<string, number> {
  const out: Record<string, number> = {};
  const hz = 100;
  for (const [pid, p] of b.procs) {
    const used = p.ticks - (a.procs.get(pid)?.comm === p.comm ? (a.procs.get(pid)?.ticks ?? 0) : 0);
    if (!used) continue;
    const key = group(pid, p.comm) ?? 'other';
    out[key] = (out[key] ?? 0) + used;
  }
  for (const k of Object.keys(out)) out[k] = Math.round(((out[k] ?? 0) / hz / seconds) * 100);
  const cores = availableParallelism();
  out.idle = Math.round(((b.idle - a.idle) / Math.max(1, b.total - a.total)) * cores * 100);
  return out;
}
