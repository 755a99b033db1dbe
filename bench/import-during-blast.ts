// Benchmark (issue 19): blast throughput while a 1,000,000-row phone-number import runs, against the
// same blast without one, on PostgreSQL. The blast runs in this process (engine + simulator with no
// latency, as bench/blast.ts); the import goes through a separate API process (this script started
// as a child with BENCH_CHILD=api: createApp on the same database, no engine), as in scale-out.
// The bar: messages a second during the import ≥ 50% of the rate before and after it.
//   BENCH_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres npx tsx bench/import-during-blast.ts
// BENCH_ACCOUNTS (10), BENCH_TARGETS (300000), BENCH_SECONDS (15: each window without an import),
// BENCH_ROWS (1000000: the import file, /tmp/wa-bench-numbers-N.csv as bench/phone-import.ts makes it)
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { openDatabase, rows } from '../core/src/db/client';
import { createLogger } from '../core/src/logger';
import { createApp } from '../server/src/app';
import { bearer } from '../tests/support/api';
import { createUser, TEST_JWT_SECRET } from '../tests/support/factories';
import { connectAccount, startWaHarness } from '../tests/support/wa-engine';

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 10);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 300_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);

/** The child: the API alone on the database the parent blasts on; prints its port. */
async function child() {
  const database = await openDatabase({ databaseUrl: process.env.BENCH_CHILD_DB ?? '', pgliteDir: '' });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-bench-api-'));
  const app = createApp({ db: database.db, jwtSecret: TEST_JWT_SECRET, logger: createLogger('silent'), dataDir });
  const server = app.listen(0, '127.0.0.1', () => {
    console.log(`port ${(server.address() as AddressInfo).port}`);
  });
  process.on('SIGTERM', () => {
    server.close();
    rmSync(dataDir, { recursive: true, force: true });
    void database.close().then(() => process.exit(0));
  });
}

/** The same file as bench/phone-import.ts: ROWS lines, 5% repeating an earlier number. */
async function makeCsv(file: string) {
  if (existsSync(file)) return;
  const out = createWriteStream(file);
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  out.write('number,name,status\n');
  let buf = '';
  for (let i = 0; i < ROWS; i++) {
    const n = i > 100 && rnd() < 0.05 ? Math.floor(rnd() * i) : i;
    buf += `0812${String(n).padStart(8, '0')},Pelanggan ${n},active\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.write(buf);
  await new Promise<void>((r) => out.end(() => r()));
}

/** Uploads the CSV to the child API; resolves with the answer's counts. */
function upload(url: string, token: string, csv: string): Promise<{ total: number; skipped_total: number }> {
  const boundary = `----wa${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="numbers.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/api/admin/phonenumber/import`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': Buffer.byteLength(head) + statSync(csv).size + Buffer.byteLength(tail),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          // the created list is ~100 MB: only the tail with the counts is read
          const m = /"total":(\d+),"totalSkipped":\d+,"skipped_total":(\d+)/.exec(body.slice(-400));
          if (!m) reject(new Error(`import failed: ${body.slice(0, 300)}`));
          else resolve({ total: Number(m[1]), skipped_total: Number(m[2]) });
        });
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(csv);
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
  });
}

async function main() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) throw new Error('BENCH_DATABASE_URL (PostgreSQL) is required');
  process.env.TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = base;
  process.env.SIM_PAIR_DELAY_MS = '50';
  process.env.SIM_RESTORE_DELAY_MS = '10';
  process.env.SIM_SEND_LATENCY_MS = '0';
  process.env.SIM_SEND_FAIL_RATE = '0';
  process.env.LOG_LEVEL = 'silent';
  const csv = path.join(tmpdir(), `wa-bench-numbers-${ROWS}.csv`);
  await makeCsv(csv);

  const h = await startWaHarness({ blastSecondMs: 1 });
  const db = h.database.db;
  const member = await createUser(db, { role: 'member' });
  const admin = await createUser(db, { role: 'admin' });
  const accounts: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) accounts.push((await connectAccount(h, member)).account.clientid);
  await db.execute(sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`);
  await db.execute(sql`insert into phone_numbers (number, name)
    select '62877' || lpad(g::text, 9, '0'), 'T' || g from generate_series(1, ${TARGETS}) g`);
  await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
  await db.execute(sql`analyze phone_numbers`);

  const [{ name } = { name: '' }] = await rows<{ name: string }>(db, sql`select current_database() as name`);
  const dbUrl = new URL(base);
  dbUrl.pathname = `/${name}`;
  const api = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], {
    env: { ...process.env, BENCH_CHILD: 'api', BENCH_CHILD_DB: dbUrl.toString() },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => {
    api.stdout?.on('data', (d: Buffer) => {
      const m = /port (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
    });
  });

  const settled = async () =>
    (
      await rows<{ n: number }>(
        db,
        sql`select count(*)::int as n from message_logs where status in ('sent', 'delivered', 'read')`,
      )
    )[0]?.n ?? 0;
  const windowRate = async (ms: number) => {
    const n0 = await settled();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, ms));
    return ((await settled()) - n0) / ((performance.now() - t0) / 1000);
  };
  for (const clientid of accounts) {
    const res = await request(h.app)
      .post('/api/admin/whatsapp/start-blasting')
      .set(bearer(member.token))
      .send({ whatsappClientId: clientid });
    if (res.status !== 200) throw new Error(`start refused: ${JSON.stringify(res.body)}`);
  }
  await new Promise((r) => setTimeout(r, 2000)); // warm-up
  const before = await windowRate(SECONDS * 1000);

  // during the import: the rate over the whole upload, and the slowest second
  const n0 = await settled();
  const t0 = performance.now();
  let slowest = Number.POSITIVE_INFINITY;
  let last = n0;
  let importing = true;
  const sampler = (async () => {
    while (importing) {
      await new Promise((r) => setTimeout(r, 1000));
      const n = await settled();
      if (importing) slowest = Math.min(slowest, n - last);
      last = n;
    }
  })();
  const result = await upload(`http://127.0.0.1:${port}`, admin.token, csv);
  importing = false;
  const importSecs = (performance.now() - t0) / 1000;
  const during = ((await settled()) - n0) / importSecs;
  await sampler;
  const after = await windowRate(SECONDS * 1000);

  for (const clientid of accounts) {
    await request(h.app)
      .post('/api/admin/whatsapp/stop-blasting')
      .set(bearer(member.token))
      .send({ whatsappClientId: clientid });
  }
  await new Promise((r) => setTimeout(r, 500));
  const [check] = await rows<{ twice: number }>(
    db,
    sql`select count(*)::int as twice from (select phone_number_id from message_logs group by 1 having count(*) > 1) d`,
  );
  const without = (before + after) / 2;
  console.log(
    JSON.stringify({
      database: 'postgres',
      accounts: ACCOUNTS,
      targets: TARGETS,
      importRows: ROWS,
      importCreated: result.total,
      importSkipped: result.skipped_total,
      importSeconds: Number(importSecs.toFixed(1)),
      perSecondBefore: Math.round(before),
      perSecondDuring: Math.round(during),
      perSecondAfter: Math.round(after),
      slowestSecondDuring: Number.isFinite(slowest) ? slowest : null,
      duringVsWithout: Number((during / without).toFixed(2)),
      sentTwice: check?.twice,
    }),
  );
  api.kill('SIGTERM');
  await new Promise<void>((r) => api.once('exit', () => r()));
  await h.close();
}

if (process.env.BENCH_CHILD === 'api') await child();
else await main();
