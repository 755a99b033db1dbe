import { DEFAULT_TIMEZONE } from '@wa/core/config';
import { rebuildDaily } from '@wa/core/ledger/daily';
import { foldLedger, rollupDifferences } from '@wa/core/ledger/rollups';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { recordReceipts } from '../../workers/src/engine/receipts.repo';
import { apiCalls, useApi } from '../support/api';
import { createUser, type TestUser } from '../support/factories';

/**
 * The ledger's rollups (issue 23): the dashboards' figures, charts, report and message log read
 * the same whether everything comes from the day and hour rows (before any fold) or the closed
 * periods come from the folded tables, and both equal a recount of the message log. A change to a
 * closed day (a late receipt) is in everybody's figures after the next fold.
 */

const h = useApi();
const { get } = apiCalls(h, '/api/admin');
let admin: TestUser;
let referrer: TestUser;
let siti: TestUser;
let budi: TestUser;
let sitiAcc: number;
let budiAcc: number;

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);
let today = '';
const dayOf = (daysAgo: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - daysAgo * 86_400_000).toISOString().slice(0, 10);

async function account(user: TestUser, phonenumber: string): Promise<number> {
  const [r] = await q<{ id: number }>(
    sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state)
        values (${`rollup-${phonenumber}`}, ${user.id}, ${phonenumber}, 'connected') returning id`,
  );
  return r.id;
}

let seq = 0;
/** Logs of `daysAgo` at `hour`:00 local time; a paid one pays `fee`, and 10 to the member's referrer if any. */
async function logs(user: TestUser, acc: number, daysAgo: number, hour: number, statuses: string[], fee = 100) {
  for (const status of statuses) {
    seq += 1;
    const paid = ['sent', 'delivered', 'read'].includes(status) ? fee : 0;
    const due = status === 'sent-due' ? fee : 0;
    await h.database.db.execute(
      sql`insert into message_logs (user_id, whatsapp_id, target, status, fee, fee_due, referrer_id, referral_fee,
                                    wa_message_id, created_at, sent_at)
          select ${user.id}, ${acc}, ${`62858${String(seq).padStart(7, '0')}`}, ${status === 'sent-due' ? 'sent' : status},
                 ${paid}, ${due}, u.referrer_id, case when u.referrer_id is null or ${paid} = 0 then 0 else 10 end,
                 ${`rollup-${seq}`},
                 (${dayOf(daysAgo)}::date + make_time(${hour}::int, 0, 0)) at time zone ${DEFAULT_TIMEZONE}::text,
                 case when ${paid + due} > 0 then now() end
          from users u where u.id = ${user.id}`,
    );
  }
}

/** What the dashboards, the report and the log answer for everybody and for the members. */
async function answers() {
  const from = dayOf(89);
  const body = async (path: string) => {
    const r = await get(path, admin);
    expect(r.status, path).toBe(200);
    return r.body;
  };
  const logTotal = async (query: string) => (await body(`/messagelog/list-per-page?page=1${query}`)).meta.total;
  const report = await body(`/report?from=${from}&to=${today}&page=1`);
  const lastPage = await body(`/report?from=${from}&to=${today}&page=${report.meta.totalPages}`);
  return {
    count: await body('/messagelog/count/all'),
    totalCount: await body('/messagelog/total-count/all'),
    todayCount: await body('/messagelog/today-count/all'),
    income: await body('/withdraw/income/all'),
    balance: await body('/withdraw/balance/all'),
    sitiCount: await body(`/messagelog/count/${siti.id}`),
    sitiIncome: await body(`/withdraw/income/${siti.id}`),
    referrerIncome: await body(`/withdraw/income/${referrer.id}`),
    logs: {
      all: await logTotal(''),
      sent: await logTotal('&status=sent'),
      delivered: await logTotal('&status=delivered'),
      read: await logTotal('&status=read'),
      failed: await logTotal('&status=failed'),
      unknown: await logTotal('&status=unknown'),
    },
    report: { totals: report.totals, meta: report.meta, first: report.data, last: lastPage.data },
    charts: await body('/report/charts'),
    sitiCharts: (await get('/report/charts', siti)).body,
  };
}

/** The same figures counted from the message log itself. */
async function fromTheLog() {
  const [r] = await q<Record<string, number>>(
    sql`select count(*) filter (where status in ('sent', 'delivered', 'read'))::int as sent,
               count(*) filter (where status = 'failed')::int as failed,
               count(*) filter (where status <> 'pending')::int as logged,
               (sum(fee) + sum(referral_fee))::int as income
        from message_logs`,
  );
  return r;
}

beforeAll(async () => {
  const db = h.database.db;
  [{ d: today }] = await q<{ d: string }>(sql`select (now() at time zone ${DEFAULT_TIMEZONE}::text)::date::text as d`);
  admin = await createUser(db, { role: 'admin' });
  referrer = await createUser(db, { role: 'member', firstname: 'Rina' });
  siti = await createUser(db, { role: 'member', firstname: 'Siti', referrerId: referrer.id });
  budi = await createUser(db, { role: 'member', firstname: 'Budi' });
  sitiAcc = await account(siti, '6281100007777');
  budiAcc = await account(budi, '6281100008888');
  // today, yesterday (open days), and closed days inside and outside the charts' week and the 30-day income
  await logs(siti, sitiAcc, 0, 1, ['sent', 'delivered', 'read', 'failed', 'pending']);
  await logs(budi, budiAcc, 0, 0, ['read', 'unknown'], 50);
  await logs(siti, sitiAcc, 1, 9, ['delivered', 'failed']);
  await logs(siti, sitiAcc, 3, 10, ['read', 'read', 'sent']);
  await logs(budi, budiAcc, 3, 11, ['delivered', 'failed'], 50);
  await logs(siti, sitiAcc, 5, 14, ['sent-due', 'delivered']);
  await logs(budi, budiAcc, 10, 8, ['read', 'unknown'], 50);
  await logs(siti, sitiAcc, 40, 8, ['delivered', 'read'], 100);
  await db.execute(
    sql`insert into incoming_messages (whatsapp_id, sender, text, optout, created_at)
        values (${budiAcc}, '6289900002222', 'STOP', true, (${dayOf(4)}::date + time '13:00') at time zone ${DEFAULT_TIMEZONE}::text)`,
  );
  await rebuildDaily(db, DEFAULT_TIMEZONE);
});

describe('the rollups', () => {
  it('give the same figures from the rows alone and after a fold, equal to a recount of the log', async () => {
    const unfolded = await answers();
    const log = await fromTheLog();
    expect(unfolded.count).toEqual({ successCount: log.sent, failCount: log.failed });
    expect(unfolded.income.income).toBe(log.income);
    expect(unfolded.logs.all).toBe(log.logged);

    expect(await foldLedger(h.database.db, DEFAULT_TIMEZONE)).toBe(true);
    const [fold] = await q<{ cold: string; days: number; last: string }>(
      sql`select f.cold_through::text as cold, (select count(*)::int from ledger_days) as days,
                 (select max(day)::text from ledger_days) as last
          from ledger_folds f where f.name = 'ledger'`,
    );
    // the closed days are folded (3, 4, 5, 10 and 40 days ago); yesterday and today are not
    expect(fold).toEqual({ cold: dayOf(2), days: 5, last: dayOf(3) });
    expect(await rollupDifferences(h.database.db, DEFAULT_TIMEZONE)).toEqual([]);

    const folded = await answers();
    expect(folded).toEqual(unfolded);
    // a second fold changes nothing
    expect(await foldLedger(h.database.db, DEFAULT_TIMEZONE)).toBe(true);
    expect(await answers()).toEqual(unfolded);
  });

  it("take a late receipt on a closed day into everybody's figures at the next fold", async () => {
    await foldLedger(h.database.db, DEFAULT_TIMEZONE);
    const before = await answers();
    // the message of five days ago whose fee waited for its delivery
    const [held] = await q<{ wa_message_id: string }>(
      sql`select wa_message_id from message_logs where fee_due > 0 and whatsapp_id = ${sitiAcc}`,
    );
    const r = await recordReceipts(
      h.database.db,
      sitiAcc,
      [{ messageId: held.wa_message_id, ack: 'delivered' }],
      DEFAULT_TIMEZONE,
    );
    expect(r.changed.size).toBe(1);
    // the hour and the day rows move at once; the closed hour's and day's folded figures wait for
    // the next fold (docs/PRODUCT.md: at most LEDGER_FOLD_MS)
    const now = await answers();
    const hourOfIt = (c: typeof now.sitiCharts) =>
      c.hourly.find((x: { hour: string }) => x.hour === new Date(`${dayOf(5)}T14:00:00+07:00`).toISOString());
    expect(hourOfIt(now.sitiCharts)?.delivered).toBe(hourOfIt(before.sitiCharts)?.delivered);
    expect(now.sitiIncome.income).toBe(before.sitiIncome.income);
    expect(await rollupDifferences(h.database.db, DEFAULT_TIMEZONE)).not.toEqual([]);

    expect(await foldLedger(h.database.db, DEFAULT_TIMEZONE)).toBe(true);
    expect(await rollupDifferences(h.database.db, DEFAULT_TIMEZONE)).toEqual([]);
    const after = await answers();
    expect(hourOfIt(after.sitiCharts)?.delivered).toBe(hourOfIt(before.sitiCharts)?.delivered + 1);
    expect(hourOfIt(after.charts)?.delivered).toBe(hourOfIt(before.charts)?.delivered + 1);
    expect(after.income.income).toBe(before.income.income + 100);
    expect(after.sitiIncome.income).toBe(before.sitiIncome.income + 100);
    expect(after.logs.delivered).toBe(before.logs.delivered + 1);
    expect(after.logs.sent).toBe(before.logs.sent - 1);
    expect(after.report.totals.delivered).toBe(before.report.totals.delivered + 1);
    // and a recount from the rows alone agrees with the folded answer
    await rebuildDaily(h.database.db, DEFAULT_TIMEZONE);
    expect(await answers()).toEqual(after);
  });

  it('keep the hour rows of the charts’ week and prune older ones at a fold', async () => {
    await h.database.db.execute(
      sql`insert into account_hourly (whatsapp_id, hour, user_id, sent)
          values (${budiAcc}, now() - interval '9 days', ${budi.id}, 1)`,
    );
    await foldLedger(h.database.db, DEFAULT_TIMEZONE);
    const [r] = await q<{ old: number; week: number }>(
      sql`select count(*) filter (where hour < now() - interval '8 days')::int as old,
                 count(*) filter (where hour >= now() - interval '8 days')::int as week from account_hourly`,
    );
    expect(r).toEqual({ old: 0, week: expect.any(Number) });
    expect(r.week).toBeGreaterThan(0);
  });
});
