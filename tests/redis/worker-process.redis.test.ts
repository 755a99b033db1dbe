import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');
const root = path.resolve(import.meta.dirname, '../..');

function runWorker(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-worker-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env },
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited, cleanup: () => rmSync(dataDir, { recursive: true, force: true }) };
}

const running: { child: ChildProcess; cleanup(): void }[] = [];
afterEach(() => {
  for (const r of running.splice(0)) {
    r.child.kill('SIGKILL');
    r.cleanup();
  }
});

async function waitFor(check: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

describe('npm run worker', () => {
  it('starts against Redis, reports ready, serves its metrics behind the token, and stops cleanly on SIGTERM', async () => {
    const token = 'worker-metrics-token-0123';
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const w = runWorker({ REDIS_URL: url, METRICS_TOKEN: token, WORKER_METRICS_PORT: String(port) });
    running.push(w);
    const ready = await waitFor(() => w.output().includes('worker ready'), 45_000);
    expect(ready, w.output()).toBe(true);
    const metrics = `http://127.0.0.1:${port}/metrics`;
    expect((await fetch(metrics)).status).toBe(401);
    const scraped = await fetch(metrics, { headers: { Authorization: `Bearer ${token}` } });
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toContain('# TYPE wa_claim_duration_seconds histogram');
    expect(text).toMatch(/^wa_engine_sessions_held 0$/m);
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
  });

  it('refuses to start without REDIS_URL, saying why', async () => {
    const w = runWorker({});
    running.push(w);
    expect(await w.exited).toBe(1);
    expect(w.output()).toMatch(/REDIS_URL is not set/);
  });

  it('refuses a bad configuration, listing every problem', async () => {
    const w = runWorker({ REDIS_URL: 'http://nope', PORT: 'abc' });
    running.push(w);
    expect(await w.exited).toBe(1);
    expect(w.output()).toMatch(/PORT must be a whole number/);
    expect(w.output()).toMatch(/REDIS_URL must start with redis:\/\//);
  });
});
