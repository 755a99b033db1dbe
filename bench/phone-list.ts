// Benchmark: GET /api/admin/phonenumber/list-per-page on 1,000,000 phone numbers, random pages
// with and without search, on PostgreSQL. Reports p50/p95/p99 client-side latency over loopback.
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/phone-list.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { percentile, startServer } from './support';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);

async function main() {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) throw new Error('set BENCH_DATABASE_URL (a PostgreSQL server; a database is created and dropped)');
  const dbName = `wa_bench_list_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${dbName}`;
  const work = mkdtempSync(path.join(tmpdir(), 'wa-bench-list-'));
  const server = await startServer({ DATA_DIR: work, DATABASE_URL: u.toString() });
  const db = new pg.Client({ connectionString: u.toString() });
  await db.connect();
  // seeded in one statement (the import path is measured by phone-import.ts)
  await db.query(
    `insert into phone_numbers (number, name)
     select '62812' || lpad(((g::bigint * 7919) % 100000000)::text, 8, '0'), 'Pelanggan ' || g
     from generate_series(1, $1::int) g`,
    [ROWS],
  );
  await db.query('vacuum analyze phone_numbers');
  const numbers = (await db.query('select number from phone_numbers order by random() limit 200')).rows.map(
    (r: { number: string }) => r.number,
  );
  await db.end();

  const headers = { authorization: `Bearer ${server.token}` };
  const totalPages = Math.ceil(ROWS / 10);
  const run = async (label: string, url: () => string) => {
    // warm-up, then measured requests one at a time
    for (let i = 0; i < 20; i++) await (await fetch(url(), { headers })).arrayBuffer();
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      const res = await fetch(url(), { headers });
      const body = (await res.json()) as { data: unknown[] };
      times.push(performance.now() - t);
      if (!res.ok || !Array.isArray(body.data)) throw new Error(`${label}: ${res.status}`);
    }
    times.sort((a, b) => a - b);
    return {
      label,
      requests: REQUESTS,
      p50: Number(percentile(times, 50).toFixed(2)),
      p95: Number(percentile(times, 95).toFixed(2)),
      p99: Number(percentile(times, 99).toFixed(2)),
    };
  };
  const results = [];
  const show = (r: Awaited<ReturnType<typeof run>>) => {
    console.log(JSON.stringify(r));
    results.push(r);
  };
  show(
    await run('any page, no search', () => {
      const page = 1 + Math.floor(Math.random() * totalPages);
      return `${server.url}/api/admin/phonenumber/list-per-page?page=${page}`;
    }),
  );
  show(
    await run('search: number prefix (7-10 digits as typed with 0)', () => {
      const n = numbers[Math.floor(Math.random() * numbers.length)];
      const len = 7 + Math.floor(Math.random() * 4);
      return `${server.url}/api/admin/phonenumber/list-per-page?page=1&search=0${n.slice(2, len)}`;
    }),
  );
  show(
    await run('search: name', () => {
      const g = 1 + Math.floor(Math.random() * ROWS);
      return `${server.url}/api/admin/phonenumber/list-per-page?page=1&search=Pelanggan%20${g}`;
    }),
  );
  await server.stop();
  rmSync(work, { recursive: true, force: true });
  const drop = new pg.Client({ connectionString: base });
  await drop.connect();
  await drop.query(`drop database ${dbName} with (force)`);
  await drop.end();
}

await main();
