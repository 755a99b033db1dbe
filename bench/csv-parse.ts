// Benchmark: the importer's hand-written streaming CSV parser (server/src/imports/csv-stream.ts)
// against csv-parse's streaming API on the same 1,000,000-line `number,name,status` file, each run
// in a fresh child process so its peak RSS is its own. Yardstick in the same run: reading the file
// as UTF-8 text and counting its line feeds, the floor under any parser fed by that stream.
// csv-parse is not a dependency of the project (the importer does not use it), so install it
// without saving it first:
//   npm i --no-save csv-parse && npx tsx bench/csv-parse.ts
//   BENCH_ROWS=200000 BENCH_RUNS=5 npx tsx bench/csv-parse.ts
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Transform } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseCsvBatches } from '../core/src/imports/csv-stream';
import { ROOT } from './support';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** The importer's row cap (server/src/imports/records.ts). */
const MAX_ROW_CHARS = 16 * 1024;
const PARSERS = ['yardstick', 'ours', 'csv-parse', 'csv-parse+lines'] as const;
type ParserName = (typeof PARSERS)[number];

/** What one child reports. */
interface RunResult {
  parser: ParserName;
  rows: number;
  fields: number;
  ms: number;
  peakRssMb: number;
  rssGrowthMb: number;
  heapGrowthMb: number;
}

/** The part of csv-parse this script uses; loaded by name so the project compiles without it. */
interface CsvParseModule {
  parse(options: Record<string, unknown>): Transform;
}

/** A deterministic file like a real upload: 5% of the names quoted because they hold a comma. */
async function makeCsv(file: string): Promise<void> {
  if (existsSync(file)) return;
  const out = createWriteStream(file);
  out.write('number,name,status\n');
  let buf = '';
  for (let i = 0; i < ROWS; i++) {
    const name = i % 20 === 0 ? `"Pelanggan ${i}, Jakarta"` : `Pelanggan ${i}`;
    buf += `0812${String(i).padStart(8, '0')},${name},${i % 7 === 0 ? 'nonactive' : 'active'}\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.write(buf);
  await new Promise<void>((r) => out.end(() => r()));
}

async function loadCsvParse(): Promise<CsvParseModule> {
  const name = 'csv-parse';
  try {
    return (await import(name)) as CsvParseModule;
  } catch {
    throw new Error('csv-parse is not installed: run `npm i --no-save csv-parse` first');
  }
}

/** Parses the file once with `parser`, counting rows and fields so no work is skipped. */
async function parseOnce(parser: ParserName, file: string): Promise<{ rows: number; fields: number }> {
  let rows = 0;
  let fields = 0;
  if (parser === 'yardstick') {
    for await (const chunk of createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
      for (let k = chunk.indexOf('\n'); k !== -1; k = chunk.indexOf('\n', k + 1)) rows++;
    }
  } else if (parser === 'ours') {
    const text = createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>;
    for await (const batch of parseCsvBatches(text, { maxRowChars: MAX_ROW_CHARS })) {
      rows += batch.length;
      for (const row of batch) fields += row.fields.length;
    }
  } else {
    const { parse } = await loadCsvParse();
    // the options that make it read what ours reads: short rows allowed, blank lines skipped, the
    // same row cap (which csv-parse enforces by failing the whole file, ours by skipping the row);
    // `info` adds the line numbers the importer's skipped-row messages need
    const lines = parser === 'csv-parse+lines';
    const stream = createReadStream(file).pipe(
      parse({ relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_ROW_CHARS, info: lines }),
    );
    // read() in 'readable', the fastest way csv-parse's documentation shows to consume it
    await new Promise<void>((resolve, reject) => {
      stream.on('readable', () => {
        for (let rec: unknown = stream.read(); rec !== null; rec = stream.read()) {
          rows++;
          fields += (lines ? (rec as { record: string[] }).record : (rec as string[])).length;
        }
      });
      stream.on('end', () => resolve());
      stream.on('error', reject);
    });
  }
  return { rows, fields };
}

/** Child side: one parse, its time and memory as one JSON line on stdout. */
async function child(parser: ParserName, file: string): Promise<void> {
  if (parser.startsWith('csv-parse')) await loadCsvParse(); // module load outside the timing
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 10);
  const t0 = performance.now();
  const counted = await parseOnce(parser, file);
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  const peakRss = process.resourceUsage().maxRSS * 1024;
  const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;
  const result: RunResult = {
    parser,
    ...counted,
    ms: Math.round(ms),
    peakRssMb: mb(peakRss),
    rssGrowthMb: mb(peakRss - base.rss),
    heapGrowthMb: mb(peakHeap - base.heapUsed),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runChild(parser: ParserName, file: string): RunResult {
  const self = fileURLToPath(import.meta.url);
  const r = spawnSync(process.execPath, ['--import', 'tsx', self, parser, file], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${parser} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '') as RunResult;
}

async function main(): Promise<void> {
  await loadCsvParse(); // fail before the first child, not in its stderr
  const file = path.join(tmpdir(), `wa-bench-csv-parse-${ROWS}.csv`);
  await makeCsv(file);
  console.log(`file ${file}: ${ROWS.toLocaleString('en')} rows; ${RUNS} runs each, parsers interleaved`);
  const results: RunResult[] = [];
  for (let run = 1; run <= RUNS; run++) {
    for (const parser of PARSERS) {
      const r = runChild(parser, file);
      results.push(r);
      console.log(
        `run ${run} ${parser.padEnd(16)} ${String(r.ms).padStart(6)} ms  rows ${r.rows}  fields ${r.fields}  ` +
          `peak RSS ${r.peakRssMb} MB (+${r.rssGrowthMb})  heap +${r.heapGrowthMb} MB  load ${loadavg()[0].toFixed(2)}`,
      );
    }
  }
  console.log('\nparser            ms min–max      peak RSS MB    RSS growth MB   heap growth MB');
  const span = (xs: number[]) => `${Math.min(...xs)}–${Math.max(...xs)}`;
  for (const parser of PARSERS) {
    const rs = results.filter((r) => r.parser === parser);
    console.log(
      `${parser.padEnd(16)}  ${span(rs.map((r) => r.ms)).padEnd(14)}  ${span(rs.map((r) => r.peakRssMb)).padEnd(13)}  ` +
        `${span(rs.map((r) => r.rssGrowthMb)).padEnd(14)}  ${span(rs.map((r) => r.heapGrowthMb))}`,
    );
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

const [parserArg, fileArg] = process.argv.slice(2);
if (parserArg && fileArg) await child(parserArg as ParserName, fileArg);
else await main();
