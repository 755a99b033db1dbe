// Benchmark: how much memory one worker process needs to hold N simulated WhatsApp sessions (the
// engine's orchestration overhead per account: lease, bus subscription, driver session, state).
// Seeds N saved accounts with stored simulator sessions in a fresh PostgreSQL database, starts one
// `npm run worker` process (WA_DRIVER=sim, Redis for jobs and events), waits until its sweep has
// restored every account to 'connected', and samples the worker's RSS before and after. Usage:
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_REDIS_URL=redis://127.0.0.1:6379 \
//     BENCH_SESSIONS=5000 npx tsx bench/sim-sessions.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ROOT, rssMb } from './support';

const N = Number(process.env.BENCH_SESSIONS ?? 5000);
const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function main() {
  const dbName = `wa_bench_sessions_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  const dbUrl = u.toString();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-bench-sessions-'));

  const worker = spawn(process.execPath, ['--import', 'tsx', 'workers/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `bench-${Date.now()}`,
      WA_DRIVER: 'sim',
      SIM_RESTORE_DELAY_MS: '50',
      WA_SWEEP_MS: '2000',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const db = new pg.Client({ connectionString: dbUrl });
  try {
    // the worker migrates the database; wait for its tables
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      try {
        await db.connect().catch(() => {});
        await db.query('select 1 from whatsapp_accounts limit 1');
        break;
      } catch {}
    }
    await new Promise((r) => setTimeout(r, 4000));
    const idle = rssMb(worker.pid as number);

    await db.query(`insert into users (firstname, lastname, email, password_hash, role, referral_code)
      values ('Bench', 'Member', 'bench-member@example.test', 'x', 'member', 'BENCH1')`);
    const t0 = Date.now();
    await db.query(
      `insert into whatsapp_accounts (clientid, user_id, phonenumber, pushname, state)
       select 'id-1760000000000-' || g, (select id from users limit 1), '62811' || lpad(g::text, 8, '0'), 'Sim ' || g, 'disconnected'
       from generate_series(1, $1::int) g`,
      [N],
    );
    await db.query(
      `insert into whatsapp_sessions (session_id, data)
       select 'id-1760000000000-' || g,
              convert_to(json_build_object('phonenumber', '62811' || lpad(g::text, 8, '0'), 'pushname', 'Sim ' || g)::text, 'UTF8')
       from generate_series(1, $1::int) g`,
      [N],
    );
    let connected = 0;
    while (connected < N) {
      await new Promise((r) => setTimeout(r, 1000));
      const r = await db.query(`select count(*)::int as n from whatsapp_accounts where state = 'connected'`);
      connected = r.rows[0].n;
      if (Date.now() - t0 > 600_000) throw new Error(`only ${connected} of ${N} connected after 10 minutes`);
    }
    const restoreSeconds = (Date.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 5000));
    // settle the heap before sampling, as a long-running worker would be
    const full = rssMb(worker.pid as number);
    console.log(
      JSON.stringify({
        sessions: N,
        idleRssMb: Math.round(idle),
        rssMb: Math.round(full),
        perSessionKb: Math.round(((full - idle) * 1024) / N),
        restoreSeconds,
      }),
    );
  } finally {
    worker.kill('SIGKILL');
    await db.end().catch(() => {});
    const drop = new pg.Client({ connectionString: base });
    await drop.connect();
    await drop.query(`drop database if exists ${dbName} with (force)`);
    await drop.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
