import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openDatabase, rows } from '../core/src/db/client';
import { ROOT } from './support';

/**
 * What the in-process blast benchmarks (blast.ts, campaigns.ts) run on: the simulator made
 * instant (no latency, no failures, quick pairing), no logs, and BENCH_DATABASE_URL as the
 * harness's PostgreSQL when given (else embedded PGlite). Call before the harness starts.
 */
export function instantSimulator(): void {
  process.env.SIM_PAIR_DELAY_MS = '50';
  process.env.SIM_RESTORE_DELAY_MS = '10';
  process.env.SIM_SEND_LATENCY_MS = '0';
  process.env.SIM_SEND_FAIL_RATE = '0';
  process.env.LOG_LEVEL = 'silent';
  if (process.env.BENCH_DATABASE_URL) {
    process.env.TEST_DB = 'postgres';
    process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  }
}

/** Empty transactions a second from `clients` concurrent callers for `ms`: the database's own pace (the yardstick). */
export async function yardstick(db: Db, clients: number, ms: number): Promise<number> {
  let done = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        await db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
        });
        done++;
      }
    }),
  );
  return Math.round(done / (ms / 1000));
}

/** tx/s of simple and prepared pgbench runs of one yardstick script. */
export interface PgbenchRate {
  simple: number;
  prepared: number;
}

/**
 * pgbench's tx/s running `script` (a file in bench/) on `url` from `clients` connections for `secs`,
 * over the simple or the prepared protocol, with `vars` set (-D). Throws when pgbench fails or a
 * client aborts (the run's figure would be short).
 */
export function pgbench(
  url: string,
  script: string,
  mode: 'simple' | 'prepared',
  clients: number,
  secs: number,
  vars: Record<string, number> = {},
): number {
  const defines = Object.entries(vars).flatMap(([k, v]) => ['-D', `${k}=${v}`]);
  const args = ['-n', '-c', String(clients), '-j', '2', '-T', String(secs), '-M', mode, ...defines];
  const out = execFileSync('pgbench', [...args, '-f', path.join(ROOT, 'bench', script), url], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const m = /tps = ([\d.]+)/.exec(out);
  return m ? Math.round(Number(m[1])) : 0;
}

/**
 * Issue 11's yardstick (bench/yardstick-blast.sql) on the database at `url`: the minimal
 * one-transaction design on tables of its own (2-column, no foreign keys, every client counting on
 * a random one of `clients` account rows), unprepared and prepared.
 */
export async function minimalYardstick(url: string, clients: number, secs: number): Promise<PgbenchRate> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`
      create table yard_targets (id serial primary key, sent boolean not null default false);
      create index yard_targets_unsent on yard_targets (id) where not sent;
      create table yard_logs (id serial primary key, account int not null, target int not null, status text not null,
        created_at timestamptz not null default now());
      create table yard_accounts (id int primary key, sent int not null default 0);
      insert into yard_targets (sent) select false from generate_series(1, 500000);
      insert into yard_accounts (id) select g from generate_series(1, ${clients}) g;
      analyze yard_targets;`);
  } finally {
    await c.end();
  }
  return {
    simple: pgbench(url, 'yardstick-blast.sql', 'simple', clients, secs),
    prepared: pgbench(url, 'yardstick-blast.sql', 'prepared', clients, secs),
  };
}

/**
 * Targets seeded for a second of one pgbench run of the schema yardstick: above any rate this
 * design reaches on one PostgreSQL (each transaction takes one, and an empty pool aborts the run).
 */
const SCHEMA_TARGETS_PER_SECOND = 20_000;

/**
 * The minimal design on the product's schema (bench/yardstick-blast-schema.sql), unprepared and
 * prepared, in `db` (at `url`), migrated: one member holding `clients` accounts (one per pgbench
 * client; one member holds every account, as in the engine benches), a template and a pool of
 * targets for both runs.
 */
async function schemaYardstick(db: Db, url: string, clients: number, secs: number): Promise<PgbenchRate> {
  const [member] = await rows<{ id: number }>(
    db,
    sql`insert into users (firstname, lastname, email, password_hash, referral_code, blast_fee)
        values ('Yard', 'Stick', 'yardstick@bench.test', '-', 'YARDSTICK', 100) returning id`,
  );
  const [template] = await rows<{ id: number }>(
    db,
    sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active') returning id`,
  );
  // pgbench's client n writes account first + n: the ids must run without a gap
  const [accounts] = await rows<{ first: number; last: number }>(
    db,
    sql`with a as (
          insert into whatsapp_accounts (clientid, user_id, state, status)
          select 'yardstick-' || g, ${member.id}::int, 'connected', 'blasting' from generate_series(1, ${clients}::int) g
          returning id
        ) select min(id)::int as first, max(id)::int as last from a`,
  );
  if (accounts.last - accounts.first + 1 !== clients) throw new Error('yardstick accounts are not consecutive');
  await db.execute(sql`insert into phone_numbers (number, name)
    select '62877' || lpad(g::text, 9, '0'), 'T' || g from generate_series(1, ${2 * secs * SCHEMA_TARGETS_PER_SECOND}::int) g`);
  await db.execute(sql`analyze`);
  const vars = { first_account: accounts.first, uid: member.id, tpl: template.id, fee: 100 };
  return {
    simple: pgbench(url, 'yardstick-blast-schema.sql', 'simple', clients, secs, vars),
    prepared: pgbench(url, 'yardstick-blast-schema.sql', 'prepared', clients, secs, vars),
  };
}

/**
 * The blast benches' two pgbench yardsticks, each from `clients` connections for `secs` a run,
 * unprepared and prepared: the minimal one-transaction design on tables of its own (issue 11's,
 * `minimalYardstick`) in the database at `minimalUrl`, and the same design on the product's schema
 * (issue 23's). Both run in a database made for them on BENCH_DATABASE_URL's server and migrated by
 * openDatabase (the minimal one in `minimalUrl` instead when given), dropped afterwards.
 */
export async function blastYardsticks(
  clients: number,
  secs: number,
  minimalUrl?: string,
): Promise<{ minimal: PgbenchRate; schema: PgbenchRate }> {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) throw new Error('the yardsticks run pgbench: BENCH_DATABASE_URL is required');
  const name = `wa_yard_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = new URL(base);
  url.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(statement);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  try {
    const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: '' });
    try {
      const minimal = await minimalYardstick(minimalUrl ?? url.toString(), clients, secs);
      const schema = await schemaYardstick(database.db, url.toString(), clients, secs);
      return { minimal, schema };
    } finally {
      await database.close();
    }
  } finally {
    await admin(`drop database if exists ${name} with (force)`);
  }
}

/**
 * Prints the pgbench yardsticks (`blastYardsticks`), one JSON line each, and the engine's
 * messages a second over each of their four figures.
 */
export function printYardsticks(messagesPerSecond: number, y: { minimal: PgbenchRate; schema: PgbenchRate }): void {
  const over = (tps: number) => Number((messagesPerSecond / Math.max(1, tps)).toFixed(2));
  console.log(JSON.stringify({ yardstick: 'pgbench, minimal one-transaction design, tx/s', ...y.minimal }));
  console.log(
    JSON.stringify({
      yardstick: 'pgbench, minimal design on the product schema, a client per account, tx/s',
      ...y.schema,
    }),
  );
  console.log(
    JSON.stringify({
      messagesPerSecond,
      engineOverYardstick: {
        minimalSimple: over(y.minimal.simple),
        minimalPrepared: over(y.minimal.prepared),
        schemaSimple: over(y.schema.simple),
        schemaPrepared: over(y.schema.prepared),
      },
    }),
  );
}
