// `npm test`: every tier this machine can run — check (lint + typecheck), unit, integration on PGlite,
// integration on PostgreSQL, Redis, fault, browser (e2e) — then a summary naming each skipped tier and
// why. PostgreSQL and Redis are the variables' (TEST_DATABASE_URL, TEST_REDIS_URL), else those answering
// at their default local ports. With REQUIRE_ALL_TIERS=1 (CI) a skipped tier fails the run.
//
// The tiers run in two streams at once (STREAMS below): the fault tier waits out outages for minutes
// and computes little, so it runs beside the others, which run in turn (PostgreSQL's and Redis's
// beside each other). Each tier's output is printed whole when it ends. TEST_SERIAL=1 runs them one after another instead, with
// the output as it comes.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const env = process.env;
/** Where PostgreSQL and Redis are looked for when no variable names them: their default local ports. */
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS = 'redis://127.0.0.1:6379';
const chrome = env.CHROME_PATH || '/usr/bin/chromium';
const only = env.TEST_TIERS ? env.TEST_TIERS.split(',') : null;
const tmp = mkdtempSync(path.join(tmpdir(), 'wa-test-'));

/** Resolves true when a TCP connection to the URL's host and port opens within 3 s. */
function reachable(url, defaultPort) {
  return new Promise((resolve) => {
    let u;
    try {
      u = new URL(url);
    } catch {
      resolve(false);
      return;
    }
    const socket = net.connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || defaultPort) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether PostgreSQL at `url` lets us in and answers a query within 3 s. */
async function answersPostgres(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether Redis at `url` answers PING within 3 s. */
function answersRedis(url) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const socket = net.connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379) });
    let got = '';
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      got += d.toString();
      if (got.includes('\r\n')) done(got.startsWith('+PONG'));
    });
  });
}

/**
 * The server a tier uses: the variable's, else the default local one when it answers (said once,
 * so a run on a developer's machine uses what is there), else '' and the tier says why it skipped.
 */
async function serverUrl(name, given, fallback, answers) {
  if (given) return given;
  if (await answers(fallback)) {
    console.log(`${name}: using ${fallback} (it answers at its default port; set the variable to choose another)`);
    return fallback;
  }
  return '';
}
const pgUrl = await serverUrl('PostgreSQL', env.TEST_DATABASE_URL || env.DATABASE_URL, DEFAULT_PG, answersPostgres);
const redisUrl = await serverUrl('Redis', env.TEST_REDIS_URL || env.REDIS_URL, DEFAULT_REDIS, answersRedis);

/** Whether `cmd` is an executable on PATH. */
function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** PostgreSQL's initdb: Debian keeps it under /usr/lib/postgresql/<version>/bin, off PATH. */
function findInitdb() {
  const base = '/usr/lib/postgresql';
  const found = existsSync(base) && readdirSync(base).some((v) => existsSync(path.join(base, v, 'bin', 'initdb')));
  return found || onPath('initdb');
}

const tiers = [
  { name: 'check', why: async () => null, run: () => run('npm', ['run', '-s', 'check'], {}, 'check') },
  { name: 'unit', why: async () => null, run: () => vitest('unit', {}, 'unit') },
  {
    name: 'integration (PGlite)',
    why: async () => null,
    run: () => vitest('integration', { TEST_DB: 'pglite' }, 'integration (PGlite)'),
  },
  {
    name: 'integration (PostgreSQL)',
    why: async () =>
      !pgUrl
        ? `DATABASE_URL (or TEST_DATABASE_URL) is not set and no PostgreSQL lets us in at ${DEFAULT_PG}`
        : (await reachable(pgUrl, 5432))
          ? null
          : `PostgreSQL at ${new URL(pgUrl).host} does not answer`,
    run: () => vitest('integration', { TEST_DB: 'postgres', TEST_DATABASE_URL: pgUrl }, 'integration (PostgreSQL)'),
  },
  {
    name: 'redis',
    // workers on several processes share one PostgreSQL, so this tier needs both servers
    why: async () =>
      !redisUrl
        ? `REDIS_URL (or TEST_REDIS_URL) is not set and no Redis answers at ${DEFAULT_REDIS}`
        : !(await reachable(redisUrl, 6379))
          ? `Redis at ${new URL(redisUrl).host} does not answer`
          : !pgUrl
            ? 'no PostgreSQL (see the PostgreSQL tier); the failover test needs it'
            : (await reachable(pgUrl, 5432))
              ? null
              : `PostgreSQL at ${new URL(pgUrl).host} does not answer`,
    run: () => vitest('redis', { TEST_REDIS_URL: redisUrl, TEST_DATABASE_URL: pgUrl }, 'redis'),
  },
  {
    name: 'fault',
    // starts its own PostgreSQL (initdb) and Redis on free ports, so it needs their binaries, not running servers
    why: async () =>
      !findInitdb()
        ? 'no initdb (PostgreSQL server binaries under /usr/lib/postgresql/*/bin or on PATH): apt-get install -y postgresql'
        : !onPath('redis-server')
          ? 'no redis-server on PATH: apt-get install -y redis-server'
          : null,
    run: () => vitest('fault', {}, 'fault'),
  },
  {
    name: 'browser (e2e)',
    why: async () =>
      existsSync(chrome) ? null : `no Chromium at ${chrome} (apt-get install -y chromium, or set CHROME_PATH)`,
    run: () => {
      // the screens are driven in the headless shell when it is installed (tests/e2e/support/browser.ts)
      if (!env.E2E_BROWSER_PATH && !existsSync('/usr/bin/chromium-headless-shell')) {
        console.log(
          'browser (e2e): driving the screens in the full Chromium; apt-get install -y chromium-headless-shell takes a quarter less CPU',
        );
      }
      return vitest('e2e', { CHROME_PATH: chrome }, 'browser (e2e)');
    },
  },
];

let passedTests = 0;
let failedTests = 0;
let skippedTests = 0;
/** test files that failed (a test in them, or the file itself) */
const failedFiles = [];
const serial = env.TEST_SERIAL === '1';

/** Runs a command: its output streamed (serial) or kept in a file and printed whole when it ends. */
function run(cmd, args, extraEnv = {}, name = cmd) {
  return new Promise((resolve) => {
    const log = path.join(tmp, `${name.replace(/\W+/g, '-')}.log`);
    const out = serial ? 'inherit' : ['ignore', 'pipe', 'pipe'];
    // the tiers share the machine: a wait for a condition may take three times as long as alone
    const scale = env.TEST_TIME_SCALE ?? (serial ? '1' : '3');
    const child = spawn(cmd, args, {
      cwd: root,
      stdio: out,
      env: { ...env, TEST_TIME_SCALE: scale, ...extraEnv, FORCE_COLOR: '1' },
    });
    if (!serial) {
      const file = createWriteStream(log);
      child.stdout.pipe(file);
      child.stderr.pipe(file);
      child.on('close', (code) => {
        file.end(() => {
          console.log(`\n=== ${name}: output\n`);
          process.stdout.write(readFileSync(log));
          resolve(code === 0);
        });
      });
    } else {
      child.on('close', (code) => resolve(code === 0));
    }
  });
}

async function vitest(project, extraEnv, name) {
  const report = path.join(tmp, `${project}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const ok = await run(
    process.execPath,
    [
      path.join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    extraEnv,
    name,
  );
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    count(r);
    if (!r.numTotalTests) {
      console.error(`tier ${project} ran no test`);
      return false;
    }
  }
  return ok;
}

/**
 * Adds a vitest JSON report to the totals. A test that never ran because its file failed (a
 * beforeAll that timed out, an import that threw) counts as failed, not skipped; a file that
 * failed with no test to show counts as one failure.
 */
function count(report) {
  for (const file of report.testResults ?? []) {
    const broken = file.status === 'failed';
    const tests = file.assertionResults ?? [];
    let failedHere = 0;
    for (const t of tests) {
      if (t.status === 'passed') passedTests += 1;
      else if (t.status === 'failed' || broken) failedHere += 1;
      else skippedTests += 1;
    }
    if (broken) {
      failedFiles.push(path.relative(root, file.name));
      failedHere = Math.max(failedHere, 1);
    }
    failedTests += failedHere;
  }
}

/**
 * Which tiers run one after another in each stream; the two streams run at once, and a step that
 * names several tiers runs them at once. The fault tier is almost all waiting (outages of its own
 * servers, 4–5 minutes: 46 CPU-seconds), so it runs beside the others. Check, unit, integration on
 * PGlite and the browser tier each keep both cores busy by themselves, and more at once starved
 * them (a check that takes 35 s took 297 s beside the browser tier, and timing-sensitive unit and
 * screen tests failed); integration on PostgreSQL (1.4 cores: the server does part of the work)
 * and redis (0.8: worker processes and pub/sub, mostly waiting) fit beside each other.
 */
const STREAMS = [
  ['fault'],
  ['check', 'unit', 'integration (PGlite)', ['integration (PostgreSQL)', 'redis'], 'browser (e2e)'],
];

const results = new Map();
async function runTier(tier) {
  const reason = await tier.why();
  if (reason) {
    results.set(tier.name, { name: tier.name, status: 'skipped', reason });
    console.log(`\n=== ${tier.name}: SKIPPED — ${reason}\n`);
    return;
  }
  console.log(`\n=== ${tier.name}${serial ? '' : ': started'}\n`);
  const started = Date.now();
  const ok = await tier.run();
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  results.set(tier.name, { name: tier.name, status: ok ? 'passed' : 'failed', secs });
  if (!serial) console.log(`\n=== ${tier.name}: ${ok ? 'passed' : 'FAILED'} (${secs} s)\n`);
}

const chosen = tiers.filter((t) => !only || only.some((o) => t.name.startsWith(o)));
const runStarted = Date.now();
if (serial) {
  for (const tier of chosen) await runTier(tier);
} else {
  await Promise.all(
    STREAMS.map(async (steps) => {
      for (const step of steps) {
        const names = Array.isArray(step) ? step : [step];
        await Promise.all(chosen.filter((t) => names.includes(t.name)).map(runTier));
      }
    }),
  );
}
rmSync(tmp, { recursive: true, force: true });
const ordered = chosen.map((t) => results.get(t.name)).filter(Boolean);

console.log(`\n=== Summary (${((Date.now() - runStarted) / 1000).toFixed(0)} s)`);
for (const r of ordered) {
  const detail = r.status === 'skipped' ? `skipped: ${r.reason}` : `${r.status} (${r.secs} s)`;
  console.log(`  ${r.name.padEnd(26)} ${detail}`);
}
const failed = ordered.filter((r) => r.status === 'failed');
const skipped = ordered.filter((r) => r.status === 'skipped');
if (skipped.length && env.REQUIRE_ALL_TIERS === '1') {
  console.log(`\n${skipped.length} tier(s) skipped and REQUIRE_ALL_TIERS=1: failing the run.`);
}
if (failedFiles.length) console.log(`\nfailed files:\n${failedFiles.map((f) => `  ${f}`).join('\n')}`);
console.log(
  `\ntests: ${passedTests} passed, ${failedTests} failed (or never ran in a failed file), ${skippedTests} skipped`,
);
process.exit(failed.length || (skipped.length && env.REQUIRE_ALL_TIERS === '1') ? 1 : 0);
