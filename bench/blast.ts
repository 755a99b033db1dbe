// Benchmark: how many messages a second one process's blast loops get through when WhatsApp is
// instant (the simulator with no latency), i.e. the engine's own cost per message: claim the
// target (SKIP LOCKED + pending log), record outcome, fee and counters in one transaction, publish.
// N accounts blast concurrently from a table of TARGETS numbers; nothing may be sent twice.
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/blast.ts
//   npx tsx bench/blast.ts                        # embedded PGlite
// BENCH_ACCOUNTS (20), BENCH_TARGETS (1000000), BENCH_SECONDS (15), BENCH_OPTOUT (0.1: the share of
// targets opted out, spread through the table, which every claim must pass over)
// Yardstick, measured in the same run: how many empty transactions a second the same database
// takes from as many concurrent callers as there are accounts (its round-trip limit here). On
// PostgreSQL also the two pgbench yardsticks of the blast benches, from as many clients as accounts,
// unprepared and prepared, in a database made for them: the minimal one-transaction design on
// tables of its own (bench/yardstick-blast.sql) and on the product's schema, migrated, with an
// account per client (bench/yardstick-blast-schema.sql); BENCH_YARDSTICK_SECONDS (10) a run,
// BENCH_PGBENCH=0 skips them.
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { rows } from '../core/src/db/client';
import { bearer } from '../tests/support/api';
import { createUser } from '../tests/support/factories';
import { connectAccount, startWaHarness } from '../tests/support/wa-engine';
import { blastYardsticks, instantSimulator, printYardsticks, yardstick } from './blast-support';

instantSimulator();

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const OPTOUT = Number(process.env.BENCH_OPTOUT ?? 0.1);
const YARDSTICK_SECONDS = Number(process.env.BENCH_YARDSTICK_SECONDS ?? 10);
const PGBENCH = Boolean(process.env.BENCH_DATABASE_URL) && process.env.BENCH_PGBENCH !== '0';

async function main() {
  const h = await startWaHarness({ blastSecondMs: 1 });
  const db = h.database.db;
  const member = await createUser(db, { role: 'member' });
  const accounts: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) accounts.push((await connectAccount(h, member)).account.clientid);
  await db.execute(sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`);
  await db.execute(sql`insert into phone_numbers (number, name)
    select '62877' || lpad(g::text, 9, '0'), 'T' || g from generate_series(1, ${TARGETS}) g`);
  if (OPTOUT > 0) {
    // account safety: opted-out numbers stay in the table and every claim must skip them
    const every = Math.max(1, Math.round(1 / OPTOUT));
    await db.execute(sql`update phone_numbers set status = 'optout' where id % ${every} = 0`);
  }
  await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
  await db.execute(sql`analyze phone_numbers`);

  const settled = async () =>
    (
      await rows<{ n: number }>(
        db,
        sql`select count(*)::int as n from message_logs where status in ('sent', 'delivered', 'read')`,
      )
    )[0]?.n ?? 0;
  for (const clientid of accounts) {
    const res = await request(h.app)
      .post('/api/admin/whatsapp/start-blasting')
      .set(bearer(member.token))
      .send({ whatsappClientId: clientid });
    if (res.status !== 200) throw new Error(`start refused: ${JSON.stringify(res.body)}`);
  }
  await new Promise((r) => setTimeout(r, 2000)); // warm-up
  const n0 = await settled();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const n1 = await settled();
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const clientid of accounts) {
    await request(h.app)
      .post('/api/admin/whatsapp/stop-blasting')
      .set(bearer(member.token))
      .send({ whatsappClientId: clientid });
  }
  await new Promise((r) => setTimeout(r, 500));
  const messagesPerSecond = Math.round((n1 - n0) / secs);
  const [check] = await rows<{ twice: number; pending: number; paid: number; logs: number; optout: number }>(
    db,
    sql`select (select count(*)::int from (select phone_number_id from message_logs group by 1 having count(*) > 1) d) as twice,
               (select count(*)::int from message_logs where status = 'pending') as pending,
               (select coalesce(sum(income), 0)::bigint from whatsapp_accounts) as paid,
               (select count(*)::int from message_logs where status in ('sent', 'delivered', 'read')) as logs,
               (select count(*)::int from message_logs l join phone_numbers p on p.id = l.phone_number_id
                 where p.status = 'optout') as optout`,
  );
  console.log(
    JSON.stringify({
      database: process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite',
      accounts: ACCOUNTS,
      targets: TARGETS,
      optedOut: OPTOUT,
      seconds: Number(secs.toFixed(1)),
      messagesPerSecond,
      processCpuPercent: Math.round(((cpu.user + cpu.system) / 1000 / (secs * 1000)) * 100),
      sentTwice: check?.twice,
      pendingAfterStop: check?.pending,
      optedOutSentTo: check?.optout,
      paidMatchesLog: Number(check?.paid) === (check?.logs ?? -1) * 100,
    }),
  );
  const dbTxPerSecond = await yardstick(db, ACCOUNTS, 5000);
  console.log(JSON.stringify({ yardstick: 'empty transactions/s, same database and concurrency', dbTxPerSecond }));
  await h.close();
  if (PGBENCH) {
    printYardsticks(messagesPerSecond, await blastYardsticks(ACCOUNTS, YARDSTICK_SECONDS));
  }
}

await main();
