// Benchmark (issue 22): a blast's messages a second with 50 active campaigns against the same blast
// without campaigns, in one run. Same setup as bench/blast.ts (N simulated accounts in this process,
// instant WhatsApp, zero interval, the simulator's default receipts: 95% delivered and 60% read a
// second later; counted over BENCH_SECONDS after 2 s of warm-up), in phases that alternate (pool,
// campaigns, pool, campaigns) so drift shows:
//  - pool: no active campaign; BENCH_TARGETS numbers in the default pool, one pool template.
//  - campaigns: BENCH_CAMPAIGNS active campaigns of equal priority (the fair-share path), each with
//    BENCH_TARGETS / BENCH_CAMPAIGNS targets of its own, two approved variants weighted 3:1, a
//    message budget of all its targets (more than is sent) and a price per delivered message; no
//    pool target left.
//  - mixed (only when named in BENCH_PHASES): the same with the campaigns at 5 priorities.
// Each phase gets fresh data (its own numbers, and for campaigns its own campaigns), then VACUUM
// ANALYZE; after it the blasts are stopped, it waits until they are idle, and the phase's unsent
// targets are deleted and its campaigns finished. After each phase it checks: no (campaign, number)
// got two logs, nothing pending or still claimed, every campaign message's log names its campaign
// and one of its approved variants, no campaign over its budget, the campaigns' counters and
// reserved budget match their logs, income = logs × fee; and it reports deadlocks (pg_stat_database).
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/campaigns.ts
// BENCH_ACCOUNTS (20), BENCH_TARGETS (200000), BENCH_SECONDS (15), BENCH_CAMPAIGNS (50),
// BENCH_OPTOUT (0.1, as bench/blast.ts), BENCH_PHASES (pool,campaigns,pool,campaigns),
// BENCH_WARMUP_SECONDS (5: an unmeasured pool blast before the phases),
// BENCH_PROFILE (0; 1: sample pg_stat_activity every 100 ms during each phase: what the database's
// busy connections run and wait on; and time the active-campaigns read each blast makes every second)
// Yardstick, measured in the same run (before the first phase and after the last): how many empty
// transactions a second the same database takes from as many concurrent callers as there are
// accounts (its round-trip limit here).
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import request from 'supertest';
import { rows } from '../core/src/db/client';
import { bearer } from '../tests/support/api';
import { createUser } from '../tests/support/factories';
import { connectAccount, startWaHarness, type WaHarness } from '../tests/support/wa-engine';
import { activeCampaigns } from '../workers/src/engine/campaign-claims.repo';
import { instantSimulator, yardstick } from './blast-support';

instantSimulator();

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);
const TARGETS = Number(process.env.BENCH_TARGETS ?? 200_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 50);
const OPTOUT = Number(process.env.BENCH_OPTOUT ?? 0.1);
const PHASES = (process.env.BENCH_PHASES ?? 'pool,campaigns,pool,campaigns').split(',') as Phase[];
if (PHASES.some((p) => !['pool', 'campaigns', 'mixed'].includes(p)))
  throw new Error('BENCH_PHASES: pool, campaigns, mixed');
const PROFILE = process.env.BENCH_PROFILE === '1';
const FEE = 100;
const PRICE = 150;
const WARM_UP_MS = 2000;
const WARM_UP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);

type Phase = 'pool' | 'campaigns' | 'mixed';
type Db = WaHarness['database']['db'];

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function one<T>(db: Db, query: ReturnType<typeof sql>): Promise<T> {
  const [r] = await rows<T & Record<string, unknown>>(db, query);
  if (!r) throw new Error('no row');
  return r;
}

/** The phase's data: fresh targets (numbers of phase `k`), and for campaigns, fresh campaigns. */
async function setUp(db: Db, phase: Phase, k: number, clientId: number): Promise<void> {
  const { id: before } = await one<{ id: number }>(db, sql`select coalesce(max(id), 0)::int as id from phone_numbers`);
  if (phase === 'pool') {
    await db.execute(sql`insert into phone_numbers (number, name)
      select '628' || ${k}::int || '0' || lpad(g::text, 8, '0'), 'T' || g from generate_series(1, ${TARGETS}::int) g`);
  } else {
    const per = Math.floor(TARGETS / CAMPAIGNS);
    await db.execute(sql`insert into campaigns (name, client_id, status, priority, budget_messages, budget_amount,
                                                price_per_delivered)
      select 'bench ' || ${k}::int || ' #' || i, ${clientId}::int, 'active',
             ${phase === 'mixed' ? sql`i % 5` : sql`0`}, ${per}::int, ${per * PRICE}::bigint, ${PRICE}::int
      from generate_series(1, ${CAMPAIGNS}::int) i`);
    const phaseCampaigns = sql`(select id, row_number() over (order by id) as i from campaigns
                                where status = 'active' and name like ${`bench ${k} #%`}) c`;
    await db.execute(sql`insert into message_templates (campaign_id, text, text_wa, status, weight, approved_at)
      select c.id, v.text, v.text, 'active', v.weight, now()
      from ${phaseCampaigns}, (values ('Promo A {name}', 3), ('Promo B {name}', 1)) v(text, weight)
      order by c.id, v.weight desc`);
    // each campaign's numbers in one run of ids, as one upload each
    await db.execute(sql`insert into phone_numbers (campaign_id, number, name)
      select c.id, '628' || ${k}::int || '1' || lpad(c.i::text, 3, '0') || lpad(g::text, 6, '0'), 'C' || g
      from ${phaseCampaigns}, generate_series(1, ${per}::int) g
      order by c.id, g`);
  }
  if (OPTOUT > 0) {
    // account safety: opted-out numbers stay in the table and every claim must skip them
    const every = Math.max(1, Math.round(1 / OPTOUT));
    await db.execute(sql`update phone_numbers set status = 'optout' where id > ${before}::int and id % ${every} = 0`);
  }
  // every phase starts from tidy tables: the last phase's dead rows (targets deleted, the accounts'
  // and their day rows' thousands of updates) would otherwise slow the next one
  await db.execute(sql`vacuum analyze`);
}

/** After a phase (blasts idle): its unsent targets go and its campaigns finish, so nothing of it is left to claim. */
async function tearDown(db: Db): Promise<void> {
  await db.execute(sql`update campaigns set status = 'finished', stop_reason = 'manual', updated_at = now()
                       where status <> 'finished'`);
  await db.execute(sql`delete from phone_numbers where last_sent is null and in_use = 0`);
}

/** The backends of the bench's database, sampled every 100 ms: what they run and what they wait on. */
function profiler(url: string) {
  const counts = new Map<string, number>();
  let samples = 0;
  let stop = false;
  const kind = (q: string) =>
    q.includes('with pick as')
      ? 'claim (campaigns)'
      : q.includes('campaign_id is null and status')
        ? 'claim (pool)'
        : q.includes('ack text')
          ? 'receipts'
          : q.includes('jsonb_to_recordset')
            ? 'outcomes'
            : q.includes('json_agg')
              ? 'activeCampaigns'
              : q.includes('from whatsapp_accounts w')
                ? 'blastPlan'
                : q.includes('template_uses u on')
                  ? 'activeTemplates'
                  : 'other';
  const done = (async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      while (!stop) {
        const r = await client.query<{ q: string; w: string | null }>(
          `select query as q, wait_event_type || ':' || wait_event as w from pg_stat_activity
           where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
        );
        samples++;
        for (const row of r.rows) {
          const key = `${kind(row.q)} | ${row.w ?? 'cpu'}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        await sleep(100);
      }
    } finally {
      await client.end();
    }
  })();
  return async () => {
    stop = true;
    await done;
    return Object.fromEntries(
      [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, Number((n / samples).toFixed(2))]),
    );
  };
}

interface Result {
  phase: Phase;
  messagesPerSecond: number;
  load: string;
}

async function main() {
  const h = await startWaHarness({ blastSecondMs: 1 });
  const db = h.database.db;
  const member = await createUser(db, { role: 'member' });
  const client = await createUser(db, { role: 'client' });
  const accounts: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) accounts.push((await connectAccount(h, member)).account.clientid);
  await db.execute(sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`);
  await db.execute(sql`update users set blast_fee = ${FEE}, blast_interval_min = 0, blast_interval_max = 0`);
  const { name: dbName } = await one<{ name: string }>(db, sql`select current_database() as name`);
  const dbUrl = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://unused');
  dbUrl.pathname = `/${dbName}`;

  const dbTxPerSecondBefore = await yardstick(db, ACCOUNTS, 5000);
  console.log(
    JSON.stringify({ yardstick: 'empty transactions/s, before the phases', dbTxPerSecond: dbTxPerSecondBefore }),
  );

  const blasting = async (action: 'start' | 'stop') => {
    for (const clientid of accounts) {
      const res = await request(h.app)
        .post(`/api/admin/whatsapp/${action}-blasting`)
        .set(bearer(member.token))
        .send({ whatsappClientId: clientid });
      if (res.status !== 200) throw new Error(`${action} refused: ${JSON.stringify(res.body)}`);
    }
  };
  const accountsSending = async () =>
    (await one<{ n: number }>(db, sql`select count(*)::int as n from whatsapp_accounts where status = 'sending'`)).n;
  /**
   * Waits until no account sends and no target is claimed. A claim still held 20 s after the stop
   * (its outcome unwritten when the loop ended) is reported by the check, and the run goes on: the
   * account's next start settles it.
   */
  const idle = async () => {
    const end = Date.now() + 20_000;
    for (;;) {
      const r = await one<{ sending: number; claimed: number }>(
        db,
        sql`select (select count(*)::int from whatsapp_accounts where status = 'sending') as sending,
                   (select count(*)::int from phone_numbers where in_use = 1) as claimed`,
      );
      if (r.sending === 0 && r.claimed === 0) return;
      if (Date.now() > end) {
        if (r.sending > 0) throw new Error(`not idle after 20 s: ${JSON.stringify(r)}`);
        return;
      }
      await sleep(100);
    }
  };
  const claimHistogram = async () => {
    const m = await h.engine.metrics.claim.get();
    const pick = (name: string) =>
      m.values.find((v) => v.metricName === `wa_claim_duration_seconds_${name}` && v.labels.batch === 'ahead')?.value ??
      0;
    return { sum: pick('sum'), count: pick('count') };
  };

  const dbStats = () =>
    one<{ deadlocks: number; rollbacks: number }>(
      db,
      sql`select deadlocks::int, xact_rollback::int as rollbacks from pg_stat_database
          where datname = current_database()`,
    );

  // an unmeasured blast first (pool, WARM_UP_S): connections, prepared statements, JIT, caches
  if (WARM_UP_S > 0) {
    await setUp(db, 'pool', 0, client.id);
    await blasting('start');
    await sleep(WARM_UP_S * 1000);
    await blasting('stop');
    await idle();
    await tearDown(db);
  }

  const results: Result[] = [];
  if (PHASES.length > 9) throw new Error('at most 9 phases (a digit of the numbers)');
  for (const [k, phase] of PHASES.entries()) {
    await setUp(db, phase, k + 1, client.id);
    const { id: firstLog } = await one<{ id: number }>(
      db,
      sql`select coalesce(max(id), 0)::int as id from message_logs`,
    );
    const settled = async () =>
      (
        await one<{ n: number }>(
          db,
          sql`select count(*)::int as n from message_logs
              where id > ${firstLog}::int and status in ('sent', 'delivered', 'read')`,
        )
      ).n;
    // BENCH_PROFILE: what the read every blast loop makes every second (PLAN_TTL_MS) costs here
    let activeCampaignsMs: number | undefined;
    if (PROFILE && phase !== 'pool') {
      await activeCampaigns(db);
      const t = performance.now();
      for (let i = 0; i < 50; i++) await activeCampaigns(db);
      activeCampaignsMs = Number(((performance.now() - t) / 50).toFixed(2));
    }
    const loadBefore = loadavg();
    await blasting('start');
    await sleep(WARM_UP_MS);
    const profile = PROFILE ? profiler(dbUrl.toString()) : null;
    const n0 = await settled();
    const c0 = await claimHistogram();
    const s0 = await dbStats();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await sleep(SECONDS * 1000);
    const n1 = await settled();
    const secs = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const c1 = await claimHistogram();
    const s1 = await dbStats();
    const waits = profile ? await profile() : undefined;
    const sendingAtEnd = await accountsSending();
    const loadAfter = loadavg();
    await blasting('stop');
    await idle();
    // the campaigns' figures are counted from the log by the supervisor: one look now
    await h.engine.campaigns.tick();

    const check = await one<{
      logs: number;
      twice: number;
      pending: number;
      claimed: number;
      pool_logs: number;
      campaign_logs: number;
      mislabelled: number;
      over_budget: number;
      counters_off: number;
      reserved_off: number;
      heavy_variant: number;
      campaigns_served: number;
      min_per_campaign: number | null;
      max_per_campaign: number | null;
      paid: number;
      all_logs: number;
    }>(
      db,
      sql`with l as (select * from message_logs where id > ${firstLog}::int),
               per as (select campaign_id, count(*)::int as n from l where campaign_id is not null group by 1)
          select (select count(*)::int from l) as logs,
                 (select count(*)::int from (select campaign_id, target from message_logs group by 1, 2
                                             having count(*) > 1) d) as twice,
                 (select count(*)::int from message_logs where status = 'pending') as pending,
                 (select count(*)::int from phone_numbers where in_use = 1) as claimed,
                 (select count(*)::int from l where campaign_id is null) as pool_logs,
                 (select count(*)::int from l where campaign_id is not null) as campaign_logs,
                 (select count(*)::int from l join phone_numbers p on p.id = l.phone_number_id
                   where l.campaign_id is distinct from p.campaign_id
                      or (l.campaign_id is null and l.variant_id is not null)
                      or (l.campaign_id is not null and not exists (
                            select 1 from message_templates t where t.id = l.variant_id
                              and t.campaign_id = l.campaign_id and t.approved_at is not null))) as mislabelled,
                 (select count(*)::int from campaigns c
                   where c.sent > c.budget_messages or c.sent * c.price_per_delivered > c.budget_amount
                      or (select count(*) from message_logs m where m.campaign_id = c.id) > c.budget_messages) as over_budget,
                 (select count(*)::int from campaigns c
                   where c.sent + c.failed + c.unknown <> (select count(*) from message_logs m
                                                           where m.campaign_id = c.id)) as counters_off,
                 -- every claim not given back is a log once the blasts stopped (a failed send keeps its share)
                 (select count(*)::int from campaigns c
                   where c.reserved <> (select count(*) from message_logs m where m.campaign_id = c.id)) as reserved_off,
                 (select count(*)::int from l join message_templates t on t.id = l.variant_id
                   where t.weight = 3) as heavy_variant,
                 (select count(*)::int from per) as campaigns_served,
                 (select min(n) from per) as min_per_campaign,
                 (select max(n) from per) as max_per_campaign,
                 (select coalesce(sum(income), 0)::bigint from whatsapp_accounts) as paid,
                 (select count(*)::int from message_logs where status in ('sent', 'delivered', 'read')) as all_logs`,
    );
    await tearDown(db);
    const messagesPerSecond = Math.round((n1 - n0) / secs);
    const claims = c1.count - c0.count;
    const load = `${loadBefore} → ${loadAfter}`;
    results.push({ phase, messagesPerSecond, load });
    console.log(
      JSON.stringify({
        phase,
        campaigns: phase === 'pool' ? 0 : CAMPAIGNS,
        accounts: ACCOUNTS,
        targets: TARGETS,
        optedOut: OPTOUT,
        seconds: Number(secs.toFixed(1)),
        messagesPerSecond,
        claims,
        claimMeanMs: claims ? Number((((c1.sum - c0.sum) / claims) * 1000).toFixed(2)) : null,
        deadlocks: s1.deadlocks - s0.deadlocks,
        rollbacks: s1.rollbacks - s0.rollbacks,
        accountsSendingAtEnd: sendingAtEnd,
        processCpuPercent: Math.round(((cpu.user + cpu.system) / 1000 / (secs * 1000)) * 100),
        load,
        logged: check.logs,
        poolLogs: check.pool_logs,
        campaignLogs: check.campaign_logs,
        campaignsServed: check.campaigns_served,
        perCampaign: check.min_per_campaign === null ? null : `${check.min_per_campaign}–${check.max_per_campaign}`,
        heavyVariantShare: check.campaign_logs ? Number((check.heavy_variant / check.campaign_logs).toFixed(3)) : null,
        sentTwice: check.twice,
        pendingAfterStop: check.pending,
        claimedAfterStop: check.claimed,
        mislabelled: check.mislabelled,
        overBudget: check.over_budget,
        campaignCountersOff: check.counters_off,
        reservedOff: check.reserved_off,
        paidMatchesLog: Number(check.paid) === check.all_logs * FEE,
        activeCampaignsMs,
        waits,
      }),
    );
  }

  const dbTxPerSecond = await yardstick(db, ACCOUNTS, 5000);
  console.log(JSON.stringify({ yardstick: 'empty transactions/s, after the phases', dbTxPerSecond }));

  const mean = (p: (r: Result) => boolean) => {
    const xs = results.filter(p).map((r) => r.messagesPerSecond);
    return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;
  };
  const pool = mean((r) => r.phase === 'pool');
  console.log('\nphase      | messages/s | ÷ pool (mean) | ÷ pool before | load average');
  for (const [i, r] of results.entries()) {
    const prev = results
      .slice(0, i)
      .reverse()
      .find((p) => p.phase === 'pool');
    const before = r.phase !== 'pool' && prev ? (r.messagesPerSecond / prev.messagesPerSecond).toFixed(3) : '';
    console.log(
      `${r.phase.padEnd(10)} | ${String(r.messagesPerSecond).padStart(10)} | ${(r.messagesPerSecond / pool).toFixed(3).padStart(13)} | ${before.padStart(13)} | ${r.load}`,
    );
  }
  for (const phase of ['campaigns', 'mixed'] as const) {
    const m = mean((r) => r.phase === phase);
    if (!Number.isNaN(m)) console.log(`ratio ${phase}/pool (means): ${(m / pool).toFixed(3)}`);
  }
  console.log(`yardstick: ${dbTxPerSecondBefore} → ${dbTxPerSecond} empty transactions/s`);
  await h.close();
}

await main();
