// Benchmark: import a 1,000,000-row CSV with 5% duplicates through POST /api/admin/phonenumber/import,
// on embedded PGlite (default) or PostgreSQL (BENCH_DATABASE_URL), measuring wall time and how far the
// server's memory grows over its idle level. Usage:
//   npx tsx bench/phone-import.ts                  # PGlite in a fresh DATA_DIR
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/phone-import.ts
import { createReadStream, createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
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
  const server = await startServer(env);
  const pid = server.child.pid!;
  await new Promise((r) => setTimeout(r, 1500));
  const idle = rssMb(pid);
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
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
  const result = JSON.parse(body) as { created: unknown[]; skipped: unknown[]; msg?: string };
  if (!result.created) throw new Error(`import failed: ${body.slice(0, 300)}`);
  console.log(
    JSON.stringify({
      database: base ? 'postgres' : 'pglite',
      rows: ROWS,
      created: result.created.length,
      skipped: result.skipped.length,
      seconds: Number(secs.toFixed(2)),
      idleRssMb: Math.round(idle),
      peakRssMb: Math.round(peak),
      growthMb: Math.round(peak - idle),
    }),
  );
  await server.stop();
  rmSync(work, { recursive: true, force: true });
  if (base && dbName) {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database ${dbName} with (force)`);
    await c.end();
  }
}

await main();
