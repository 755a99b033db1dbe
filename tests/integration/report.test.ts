import { DEFAULT_TIMEZONE } from '@wa/core/config';
import { rebuildDaily } from '@wa/core/ledger/daily';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiCalls, useApi } from '../support/api';
import { createUser, type TestUser } from '../support/factories';

/**
 * Reports (issue 11): GET /api/admin/report (per day and account, with totals), its export, the
 * dashboards' charts, and the message log itself (GET /api/admin/messagelog/list-per-page), over
 * logs written around the engine and recounted into the ledger's day rows.
 */

const h = useApi();
const { get } = apiCalls(h, '/api/admin');
let admin: TestUser;
let staff: TestUser;
let siti: TestUser;
let budi: TestUser;
let sitiAcc: number;
let sitiAcc2: number;
let budiAcc: number;

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);
/** 'YYYY-MM-DD' of `daysAgo` days before today in APP_TIMEZONE. */
let today = '';
const dayOf = (daysAgo: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) - daysAgo * 86_400_000).toISOString().slice(0, 10);

async function account(user: TestUser, phonenumber: string): Promise<number> {
  const [r] = await q<{ id: number }>(
    sql`insert into whatsapp_accounts (clientid, user_id, phonenumber, state)
        values (${`id-${Date.now()}-${phonenumber.slice(-4)}`}, ${user.id}, ${phonenumber}, 'connected') returning id`,
  );
  return r.id;
}

let seq = 0;
async function logs(user: TestUser, acc: number, daysAgo: number, statuses: string[], fee = 100) {
  for (const status of statuses) {
    seq += 1;
    const paid = ['sent', 'delivered', 'read'].includes(status) ? fee : 0;
    await h.database.db.execute(
      sql`insert into message_logs (user_id, whatsapp_id, target, status, fee, created_at, sent_at, delivered_at, read_at)
          values (${user.id}, ${acc}, ${`62857${String(seq).padStart(7, '0')}`}, ${status}, ${paid},
                  (${dayOf(daysAgo)}::date + time '12:00') at time zone ${DEFAULT_TIMEZONE}::text,
                  case when ${paid} > 0 then now() end,
                  case when ${status} in ('delivered', 'read') then now() end,
                  case when ${status} = 'read' then now() end)`,
    );
  }
}

beforeAll(async () => {
  const db = h.database.db;
  [{ d: today }] = await q<{ d: string }>(sql`select (now() at time zone ${DEFAULT_TIMEZONE}::text)::date::text as d`);
  admin = await createUser(db, { role: 'admin' });
  staff = await createUser(db, { role: 'staff' });
  siti = await createUser(db, { role: 'member', firstname: 'Siti', lastname: 'Aminah' });
  budi = await createUser(db, { role: 'member', firstname: 'Budi', lastname: 'Santoso' });
  sitiAcc = await account(siti, '6281100001111');
  sitiAcc2 = await account(siti, '6281100002222');
  budiAcc = await account(budi, '6281100003333');
  await logs(siti, sitiAcc, 0, ['sent', 'delivered', 'read', 'read', 'failed']);
  await logs(siti, sitiAcc2, 0, ['delivered', 'failed', 'unknown']);
  await logs(siti, sitiAcc, 2, ['read', 'sent']);
  await logs(budi, budiAcc, 1, ['delivered', 'delivered', 'failed'], 50);
  // outside the default 7 days
  await logs(budi, budiAcc, 10, ['read'], 50);
  await h.database.db.execute(
    sql`insert into incoming_messages (whatsapp_id, sender, text, optout, created_at)
        values (${budiAcc}, '6289900001111', 'STOP', true, (${dayOf(1)}::date + time '13:00') at time zone ${DEFAULT_TIMEZONE}::text)`,
  );
  await rebuildDaily(db, DEFAULT_TIMEZONE);
});

describe('GET /api/admin/report', () => {
  it('gives admin and staff every account per day for the last 7 days, newest first, with totals', async () => {
    for (const u of [admin, staff]) {
      const res = await get('/report', u);
      expect(res.status).toBe(200);
      expect(res.body.meta).toMatchObject({ page: 1, totalPages: 1, total: 4, from: dayOf(6), to: today });
      expect(res.body.data).toEqual([
        expect.objectContaining({
          date: today,
          whatsapp_id: sitiAcc,
          phonenumber: '6281100001111',
          name: 'Siti Aminah',
          sent: 4,
          delivered: 3,
          read: 2,
          failed: 1,
          optout: 0,
          income: 400,
        }),
        expect.objectContaining({
          date: today,
          whatsapp_id: sitiAcc2,
          sent: 1,
          delivered: 1,
          read: 0,
          failed: 1,
          income: 100,
        }),
        expect.objectContaining({
          date: dayOf(1),
          whatsapp_id: budiAcc,
          user_id: budi.id,
          sent: 2,
          delivered: 2,
          failed: 1,
          optout: 1,
          income: 100,
        }),
        expect.objectContaining({ date: dayOf(2), whatsapp_id: sitiAcc, sent: 2, delivered: 1, read: 1, income: 200 }),
      ]);
      expect(res.body.totals).toEqual({ sent: 9, delivered: 7, read: 3, failed: 3, optout: 1, income: 800 });
    }
  });

  it('filters by dates, member and account', async () => {
    const range = await get(`/report?from=${dayOf(12)}&to=${dayOf(1)}`, admin);
    expect(range.body.data.map((r: { date: string }) => r.date)).toEqual([dayOf(1), dayOf(2), dayOf(10)]);
    const budis = await get(`/report?from=${dayOf(30)}&user_id=${budi.id}`, admin);
    expect(budis.body.meta).toMatchObject({ from: dayOf(30), to: dayOf(24) });
    const all = await get(`/report?from=${dayOf(30)}&to=${today}&user_id=${budi.id}`, admin);
    expect(all.body.totals).toEqual({ sent: 3, delivered: 3, read: 1, failed: 1, optout: 1, income: 150 });
    const one = await get(`/report?whatsapp_id=${sitiAcc2}`, admin);
    expect(one.body.data).toHaveLength(1);
    expect(one.body.totals.sent).toBe(1);
  });

  it('gives a member only their own rows, whatever user_id says, and refuses an account of somebody else', async () => {
    const mine = await get('/report', siti);
    expect(mine.body.data.every((r: { user_id: number }) => r.user_id === siti.id)).toBe(true);
    expect(mine.body.totals.income).toBe(700);
    expect((await get(`/report?user_id=${budi.id}`, siti)).status).toBe(403);
    expect((await get(`/report?whatsapp_id=${budiAcc}`, siti)).status).toBe(403);
    expect((await get('/report?whatsapp_id=999999', siti)).status).toBe(404);
    expect((await get('/report', null)).status).toBe(401);
  });

  it('refuses bad filters with a clear message', async () => {
    const cases: Array<[string, RegExp]> = [
      ['from=2026-13-01', /from is not a calendar date/],
      ['from=yesterday', /from must be a date like/],
      [`from=${today}&to=${dayOf(3)}`, /from must not be after to/],
      ['from=2020-01-01&to=2026-01-01', /at most 366 days/],
      ['user_id=abc', /user_id/],
      ['page=0', /page must be 1 or more/],
    ];
    for (const [query, msg] of cases) {
      const res = await get(`/report?${query}`, admin);
      expect(res.status, query).toBe(400);
      expect(res.body.msg, query).toMatch(msg);
    }
  });
});

describe('GET /api/admin/report/export', () => {
  it('downloads report.csv and report.json with the same filters', async () => {
    const csv = await get(`/report/export?format=csv&user_id=${siti.id}`, admin);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="report.csv"');
    expect(csv.text.trim().split('\n')).toEqual([
      'date,user_id,whatsapp_id,phonenumber,sent,delivered,read,failed,optout,income',
      `${today},${siti.id},${sitiAcc},6281100001111,4,3,2,1,0,400`,
      `${today},${siti.id},${sitiAcc2},6281100002222,1,1,0,1,0,100`,
      `${dayOf(2)},${siti.id},${sitiAcc},6281100001111,2,1,1,0,0,200`,
    ]);
    const json = await get(`/report/export?format=json&whatsapp_id=${budiAcc}`, admin);
    expect(json.headers['content-disposition']).toBe('attachment; filename="report.json"');
    expect(JSON.parse(json.text)).toEqual([
      {
        date: dayOf(1),
        user_id: budi.id,
        whatsapp_id: budiAcc,
        phonenumber: '6281100003333',
        sent: 2,
        delivered: 2,
        read: 0,
        failed: 1,
        optout: 1,
        income: 100,
      },
    ]);
  });

  it('answers 404 for nothing to export and 400 for an unknown format', async () => {
    const none = await get(`/report/export?from=2020-01-01&to=2020-01-31`, admin);
    expect(none.status).toBe(404);
    expect(none.body.msg).toBe('No messages to export.');
    const bad = await get('/report/export?format=xlsx', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("format must be 'csv' or 'json'.");
    // a member's export holds only their rows
    const mine = await get(`/report/export?format=json&from=${dayOf(30)}&to=${today}`, budi);
    expect(JSON.parse(mine.text).map((r: { user_id: number }) => r.user_id)).toEqual([budi.id, budi.id]);
  });
});

describe('GET /api/admin/report/charts', () => {
  it("draws a member's own hours, accounts and income, and everybody's for an admin", async () => {
    const mine = await get('/report/charts', siti);
    expect(mine.status).toBe(200);
    const sum = (k: 'sent' | 'delivered' | 'failed', list: Array<Record<string, number>>) =>
      list.reduce((a, h) => a + h[k], 0);
    expect(sum('sent', mine.body.hourly)).toBe(7);
    expect(sum('failed', mine.body.hourly)).toBe(2);
    expect(mine.body.accounts).toEqual([
      { whatsapp_id: sitiAcc, phonenumber: '6281100001111', sent: 6, delivered: 4, rate: 0.6667 },
      { whatsapp_id: sitiAcc2, phonenumber: '6281100002222', sent: 1, delivered: 1, rate: 1 },
    ]);
    expect(mine.body.income).toEqual([
      { date: dayOf(2), income: 200 },
      { date: today, income: 500 },
    ]);
    const all = await get('/report/charts', admin);
    expect(all.body.accounts.map((a: { whatsapp_id: number }) => a.whatsapp_id)).toContain(budiAcc);
    expect((await get(`/report/charts?user_id=${budi.id}`, siti)).status).toBe(403);
    expect((await get('/report/charts', staff)).status).toBe(403);
  });
});

describe('GET /api/admin/messagelog/list-per-page', () => {
  it('pages the log newest first, without claims in flight, counted from the ledger', async () => {
    const res = await get('/messagelog/list-per-page?page=1', admin);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ page: 1, totalPages: 1, total: 14, pageSize: 20 });
    expect(res.body.data.some((l: { status: string }) => l.status === 'pending')).toBe(false);
    const first = res.body.data[0];
    expect(first).toMatchObject({ user_id: siti.id, name: 'Siti Aminah', status: expect.any(String) });
    expect(Date.parse(first.created_at)).toBeGreaterThanOrEqual(Date.parse(res.body.data[13].created_at));
  });

  it('filters by member, account, status and the start of the target number', async () => {
    const read = await get(`/messagelog/list-per-page?status=read&user_id=${siti.id}`, admin);
    expect(read.body.meta.total).toBe(3);
    expect(read.body.data.map((l: { status: string }) => l.status)).toEqual(['read', 'read', 'read']);
    expect(read.body.data.every((l: { read_at: string | null }) => l.read_at !== null)).toBe(true);
    // nothing writes a pending log any more (migration 0020): the filter answers none, at once
    const pending = await get('/messagelog/list-per-page?status=pending', admin);
    expect(pending.status).toBe(200);
    expect(pending.body.data).toEqual([]);
    expect(pending.body.meta.total).toBe(0);
    const acc = await get(`/messagelog/list-per-page?whatsapp_id=${budiAcc}`, staff);
    expect(acc.body.meta.total).toBe(4);
    const [one] = (await get('/messagelog/list-per-page?status=failed', admin)).body.data;
    const found = await get(`/messagelog/list-per-page?search=${one.target.slice(0, 11)}`, admin);
    expect(found.body.data.map((l: { target: string }) => l.target)).toContain(one.target);
    expect(found.body.data.every((l: { target: string }) => l.target.startsWith(one.target.slice(0, 11)))).toBe(true);
  });

  it("gives a member only their own log and refuses somebody else's or a bad filter", async () => {
    const mine = await get('/messagelog/list-per-page', budi);
    expect(mine.body.meta.total).toBe(4);
    expect(mine.body.data.every((l: { user_id: number }) => l.user_id === budi.id)).toBe(true);
    expect((await get(`/messagelog/list-per-page?user_id=${siti.id}`, budi)).status).toBe(403);
    const bad = await get('/messagelog/list-per-page?status=success', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('status must be one of pending, sent, delivered, read, failed, unknown.');
    const search = await get('/messagelog/list-per-page?search=abc', admin);
    expect(search.status).toBe(400);
    expect(search.body.msg).toBe('search must be (the start of) a phone number.');
  });
});

describe('deep pages of the message log', () => {
  it('seek their day through the day rows and show exactly what an offset into the log shows', async () => {
    const db = h.database.db;
    const heavy = await createUser(db, { role: 'member', firstname: 'Heavy' });
    const acc = await account(heavy, '6281100009999');
    // 1,600 logs over 4 days, 400 a day, of all statuses; some share a created_at
    await db.execute(sql`
      insert into message_logs (user_id, whatsapp_id, target, status, fee, created_at)
      select ${heavy.id}, ${acc}, '62858' || lpad(g::text, 7, '0'),
             (array['sent', 'delivered', 'read', 'failed', 'unknown'])[1 + g % 5],
             case when g % 5 < 3 then 100 else 0 end,
             (((${today}::date - g % 4) + time '08:00') at time zone ${DEFAULT_TIMEZONE}::text) + (g / 3) * interval '1 second'
      from generate_series(1, 1600) g`);
    await rebuildDaily(db, DEFAULT_TIMEZONE);
    const expected = async (offset: number, status?: string) =>
      (
        await q<{ id: number }>(
          sql`select id from message_logs where user_id = ${heavy.id} and status <> 'pending'
              ${status ? sql`and status = ${status}` : sql``}
              order by created_at desc, id desc limit 20 offset ${offset}`,
        )
      ).map((r) => r.id);
    for (const page of [1, 51, 60, 61, 79, 80]) {
      const res = await get(`/messagelog/list-per-page?user_id=${heavy.id}&page=${page}`, admin);
      expect(res.body.meta).toMatchObject({ total: 1600, totalPages: 80 });
      expect(
        res.body.data.map((l: { id: number }) => l.id),
        `page ${page}`,
      ).toEqual(await expected((page - 1) * 20));
    }
    // a status filter seeks by that status's count per day
    const failed = await get(`/messagelog/list-per-page?user_id=${heavy.id}&status=failed&page=16`, admin);
    expect(failed.body.meta).toMatchObject({ total: 320, totalPages: 16 });
    expect(failed.body.data.map((l: { id: number }) => l.id)).toEqual(await expected(300, 'failed'));
    // past the end: an empty page
    expect((await get(`/messagelog/list-per-page?user_id=${heavy.id}&page=81`, admin)).body.data).toEqual([]);
  });
});

describe('report pages', () => {
  it('start at their own day and hold exactly what an offset into the ordered rows holds', async () => {
    const many = await createUser(h.database.db, { role: 'member', firstname: 'Banyak' });
    // 65 accounts with a row on each of three days: 195 rows, four pages of 50
    await h.database.db.execute(sql`
      insert into account_daily (whatsapp_id, day, user_id, sent)
      select 900000 + a, ${today}::date - d, ${many.id}, a + d from generate_series(1, 65) a, generate_series(0, 2) d`);
    const expected = async (offset: number) =>
      (
        await q<{ whatsapp_id: number; day: string }>(
          sql`select whatsapp_id, day::text as day from account_daily where user_id = ${many.id}
              order by day desc, whatsapp_id limit 50 offset ${offset}`,
        )
      ).map((r) => `${r.day}/${r.whatsapp_id}`);
    const base = `/report?user_id=${many.id}&from=${dayOf(2)}&to=${today}`;
    for (const page of [1, 2, 3, 4]) {
      const res = await get(`${base}&page=${page}`, admin);
      expect(res.body.meta).toMatchObject({ total: 195, totalPages: 4 });
      expect(res.body.totals.sent).toBe(65 * 33 * 3 + 65 * 3);
      const got = res.body.data.map((r: { date: string; whatsapp_id: number }) => `${r.date}/${r.whatsapp_id}`);
      expect(got, `page ${page}`).toEqual(await expected((page - 1) * 50));
    }
    expect((await get(`${base}&page=5`, admin)).body.data).toEqual([]);
  });
});
