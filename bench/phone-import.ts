// Benchmark: import a 1,000,000-row CSV with 5% duplicates through POST /api/admin/phonenumber/import,
// on embedded PGlite (default) or PostgreSQL (BENCH_DATABASE_URL), measuring wall time and how far the
// server's memory grows over its idle level. Usage:
//   npx tsx bench/phone-import.ts                  # PGlite in a fresh DATA_DIR
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/phone-import.ts
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { rssMb, startServer } from './support';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DUP_RATE = 0.05;

/** A deterministic CSV: ROWS lines, 5% of them repeating an earlier number. */
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
    const n = i > 100 && rnd() < DUP_RATE ? Math.floor(rnd() * i) : i;
    buf += `0812${String(n).padStart(8, '0')},Pelanggan ${n},active\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.write(buf);
  await new Promise<void>((r) => out.end(() => r()));
}

const REFERENCE_TABLE = `create table pn (id serial primary key, number text not null, name text,
  status text default 'active', last_sent timestamptz, created_at timestamptz default now());
create unique index on pn (number text_pattern_ops);
create index on pn (status, id);
create index on pn (lower(name) text_pattern_ops);
create temp table st (number text, name text, status text);`;
const REFERENCE_INSERT =
  'insert into pn (number, name, status) select number, name, status from st on conflict do nothing';

/**
 * The yardstick on this machine, in seconds: the database's own COPY of the file into a
 * staging table plus one INSERT … ON CONFLICT into an indexed table (no normalising, no created or
 * skipped lists). Printed beside the import so a figure can be read against the machine's speed.
 */
async function reference(csv: string, base: string | undefined, work: string): Promise<number> {
  if (base) {
    const name = `wa_bench_ref_${Date.now()}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const u = new URL(base);
    u.pathname = `/${name}`;
    const c = new pg.Client({ connectionString: u.toString() });
    await c.connect();
    try {
      await c.query('begin');
      await c.query(REFERENCE_TABLE);
      const t0 = performance.now();
      await new Promise<void>((resolve, reject) => {
        const stream = c.query(copyFrom('copy st from stdin with (format csv, header true)'));
        const file = createReadStream(csv);
        file.on('error', reject);
        stream.on('error', reject);
        stream.on('finish', () => resolve());
        file.pipe(stream);
      });
      await c.query(REFERENCE_INSERT);
      await c.query('commit');
      return (performance.now() - t0) / 1000;
    } finally {
      await c.end();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    }
  }
  const db = new PGlite(path.join(work, 'reference'));
  try {
    await db.exec(REFERENCE_TABLE);
    const blob = new Blob([readFileSync(csv)]);
    const t0 = performance.now();
    await db.query(`copy st from '/dev/blob' with (format csv, header true)`, [], { blob });
    await db.query(REFERENCE_INSERT);
    return (performance.now() - t0) / 1000;
  } finally {
    await db.close();
  }
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'wa-bench-import-'));
  const csv = path.join(tmpdir(), `wa-bench-numbers-${ROWS}.csv`);
  await makeCsv(csv);
  let dbName: string | null = null;
  const env: Record<string, string> = { DATA_DIR: work };
  const base = process.env.BENCH_DATABASE_URL;
  if (base) {
    dbName = `wa_bench_${Date.now()}`;
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`create database ${dbName}`);
    await c.end();
    const u = new URL(base);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  }
  if (!base) {
    // PGlite's first start runs initdb, whose memory high-water mark (~750 MB) stays in the idle
    // level and would hide the import's growth: create the database first, measure a restart
    await (await startServer(env)).stop();
  }
  const server = await startServer(env);
  const pid = server.child.pid!;
  await new Promise((r) => setTimeout(r, 1500));
  const idle = rssMb(pid);
  if (process.env.BENCH_SMAPS) writeFileSync(`${process.env.BENCH_SMAPS}.before`, readFileSync(`/proc/${pid}/smaps`));
  let peak = idle;
  const sampler = setInterval(() => {
    const now = rssMb(pid);
    if (process.env.BENCH_TRACE)
      console.error(`rss ${Math.round(now)} MB at ${Math.round(performance.now() - started)} ms`);
    peak = Math.max(peak, now);
  }, 50);

  const boundary = `----wa${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="numbers.csv"\r\nContent-Type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const size = statSync(csv).size;
  const started = performance.now();
  const body = await new Promise<string>((resolve, reject) => {
    const req = request(
      `${server.url}/api/admin/phonenumber/import`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${server.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': Buffer.byteLength(head) + size + Buffer.byteLength(tail),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      },
    );
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(csv);
    file.pipe(req, { end: false });
    file.on('end', () => req.end(tail));
  });
  const secs = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (process.env.BENCH_SMAPS) writeFileSync(`${process.env.BENCH_SMAPS}.after`, readFileSync(`/proc/${pid}/smaps`));
  const result = JSON.parse(body) as { created: unknown[]; skipped_total: number; msg?: string };
  if (!result.created) throw new Error(`import failed: ${body.slice(0, 300)}`);
  console.log(
    JSON.stringify({
      database: base ? 'postgres' : 'pglite',
      rows: ROWS,
      created: result.created.length,
      skipped: result.skipped_total,
      seconds: Number(secs.toFixed(2)),
      idleRssMb: Math.round(idle),
      peakRssMb: Math.round(peak),
      growthMb: Math.round(peak - idle),
    }),
  );
  await server.stop();
  // after the server has gone, so the two never compete for the machine
  const ref = process.env.BENCH_REFERENCE === '0' ? null : await reference(csv, base, work);
  if (ref !== null)
    console.log(
      JSON.stringify({ reference: 'COPY into staging + INSERT … ON CONFLICT', seconds: Number(ref.toFixed(2)) }),
    );
  rmSync(work, { recursive: true, force: true });
  if (base && dbName) {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database ${dbName} with (force)`);
    await c.end();
  }
}

await main();
