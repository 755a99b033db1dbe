import { SAFETY_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs } from '../support/api';
import { allowBlastingAnyTime } from '../support/db';
import { createUser, type TestUser } from '../support/factories';
import { freshTargets as freshTargetsIn, SETTINGS_BODY } from '../support/safety';
import { setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Account safety's limits (docs/PRODUCT.md "Account safety"): the daily cap with its warm-up, the
 * send window, a scheduled start, spintax, and the number checks' daily budget, cache and backoff.
 * Rule #1, opt-outs and pauses: account-safety.test.ts.
 */

setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0, registeredRate: 0.5 });

const h = useWaHarness({ blastSecondMs: 2 });
const { wa, nextEvent, connect, sim } = waHelpers(h);

type Account = { id: number; clientid: string };
let dev: TestUser;
let member: TestUser;
let acc: Account;

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);
const setSettings = (values: ReturnType<typeof sql>) => h.database.db.execute(sql`update settings set ${values}`);
const start = (body: object = {}) => wa(member).post('/start-blasting', { whatsappClientId: acc.clientid, ...body });
const stop = () => wa(member).post('/stop-blasting', { whatsappClientId: acc.clientid });
const row = async () => (await wa(member).get(`/${acc.id}`)).body.whatsapp;
const idle = () => until(async () => (await row()).status === 'idle', 'the blast to end');

/** `n` fresh targets (older ones count as sent), so a blast reaches only these. */
const freshTargets = (n: number, tag: string) =>
  freshTargetsIn(h.database.db, n, tag, { prefix: '62866', name: 'Sari' });

/** 'HH:MM' in Asia/Jakarta (the engine's zone here), `minutes` from now. */
function jakarta(minutes: number): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Jakarta',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(Date.now() + minutes * 60_000));
}

beforeAll(async () => {
  const db = h.database.db;
  dev = await createUser(db, { role: 'dev' });
  member = await createUser(db, { role: 'member' });
  await db.execute(sql`update settings set interval_min = 0, interval_max = 0`);
  await db.execute(sql`update users set blast_interval_min = 0, blast_interval_max = 0 where id = ${member.id}`);
  await db.execute(sql`insert into message_templates (text, text_wa, status)
    values ('x', '{Halo|Hai|Selamat pagi} {name}, {ada promo|promo baru} {hari ini|minggu ini}', 'active')`);
  acc = (await connect(member)).account;
});
beforeEach(async () => {
  await allowBlastingAnyTime(h.database.db);
});

describe('the daily cap with its warm-up', () => {
  it('ends the blast at the cap with its state, shows sent today / cap, and refuses another start that day', async () => {
    await setSettings(sql`daily_cap_start = 3, daily_cap_growth = 0, daily_cap_max = 3`);
    await h.database.db.execute(
      sql`update whatsapp_accounts set sent_today = 0, sent_day_end = null where id = ${acc.id}`,
    );
    await freshTargets(5, '101');
    const finished = nextEvent(`client-${member.id}`, 'finished');
    expect((await start()).status).toBe(200);
    expect(await finished).toMatchObject({ deviceId: acc.clientid, status: 'idle', message: SAFETY_TEXTS.dailyCap });
    expect(await row()).toMatchObject({ sent_today: 3, daily_cap: 3, status: 'idle' });
    const sent = await q<{ n: number }>(sql`select count(*)::int as n from message_logs where whatsapp_id = ${acc.id}`);
    expect(sent[0].n).toBe(3);
    const refused = await start();
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toBe(SAFETY_TEXTS.dailyCap);
    // a new day (its count ran out) starts from zero
    await h.database.db.execute(
      sql`update whatsapp_accounts set sent_day_end = now() - interval '1 second' where id = ${acc.id}`,
    );
    expect((await row()).sent_today).toBe(0);
  });

  it('grows with the days the account has been connected, up to the maximum', async () => {
    await setSettings(sql`daily_cap_start = 30, daily_cap_growth = 20, daily_cap_max = 500`);
    await h.database.db.execute(sql`update whatsapp_accounts set created_at = now() where id = ${acc.id}`);
    expect((await row()).daily_cap).toBe(30);
    await h.database.db.execute(
      sql`update whatsapp_accounts set created_at = now() - interval '3 days 1 hour' where id = ${acc.id}`,
    );
    expect((await row()).daily_cap).toBe(90);
    await h.database.db.execute(
      sql`update whatsapp_accounts set created_at = now() - interval '100 days' where id = ${acc.id}`,
    );
    expect((await row()).daily_cap).toBe(500);
  });
});

describe('the send window and a scheduled start', () => {
  it('outside the hours a blast waits, saying until when, and sends nothing', async () => {
    await setSettings(sql`send_window_start = ${jakarta(120)}, send_window_end = ${jakarta(180)}`);
    await freshTargets(2, '201');
    const [{ last }] = await q<{ last: number }>(sql`select coalesce(max(id), 0)::int as last from message_logs`);
    const since = () => q(sql`select id from message_logs where whatsapp_id = ${acc.id} and id > ${last}`);
    const waiting = nextEvent(`client-${member.id}`, 'waiting');
    expect((await start()).status).toBe(200);
    const w = await waiting;
    const hours = (Date.parse(String(w.until)) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThanOrEqual(2);
    expect(w.waitTime).toBeGreaterThan(6000);
    // the blast is waiting; a window in which nothing may be sent
    await new Promise((r) => setTimeout(r, 200));
    expect(await since()).toEqual([]);
    expect((await stop()).status).toBe(200);
    await idle();
    // inside the hours it sends
    await setSettings(sql`send_window_start = ${jakarta(-60)}, send_window_end = ${jakarta(60)}`);
    expect((await start()).status).toBe(200);
    await idle();
    expect(await since()).toHaveLength(2);
  });

  it('a member may schedule the start; nothing leaves before it', async () => {
    const numbers = await freshTargets(2, '202');
    const at = new Date(Date.now() + 1500);
    const waiting = nextEvent(`client-${member.id}`, 'waiting');
    const started = await start({ start_at: at.toISOString() });
    expect(started.status).toBe(200);
    expect(started.body.data.scheduled_at).toBe(at.toISOString());
    expect(Date.parse(String((await waiting).until))).toBeGreaterThanOrEqual(at.getTime() - 5);
    await idle();
    const logs = await q<{ created_at: Date; target: string }>(
      sql`select created_at, target from message_logs where target = any(${sql.param(numbers)}::text[])`,
    );
    expect(logs).toHaveLength(2);
    for (const l of logs) expect(new Date(l.created_at).getTime()).toBeGreaterThanOrEqual(at.getTime());
  });

  it('refuses a start time that is not a time or too far ahead', async () => {
    for (const [start_at, msg] of [
      ['tomorrow', 'start_at must be a date and time like 2026-11-25T08:00:00+07:00.'],
      [42, 'start_at must be a date and time.'],
      [new Date(Date.now() + 40 * 86_400_000).toISOString(), 'start_at must be within 30 days.'],
    ] as const) {
      const r = await start({ start_at });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    expect((await row()).status).toBe('idle');
  });

  it('settings refuse a time that is not HH:MM', async () => {
    const admin = await createUser(h.database.db, { role: 'admin' });
    const r = await apiAs(h, admin).put('/admin/setting/update', {
      ...SETTINGS_BODY,
      send_window_start: '25:00',
    });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('Send window start must be a time like 08:00.');
  });
});

describe('spintax varies the text per message', () => {
  it('no two targets need get the same text, and no choice syntax leaves', async () => {
    const numbers = await freshTargets(20, '301');
    const texts: string[] = [];
    const off = sim().onDelivered((d) => texts.push(d.text));
    expect((await start()).status).toBe(200);
    await idle();
    off();
    expect(texts).toHaveLength(numbers.length);
    expect(new Set(texts).size).toBeGreaterThan(4);
    for (const t of texts)
      expect(t).toMatch(/^(Halo|Hai|Selamat pagi) Sari, (ada promo|promo baru) (hari ini|minggu ini)$/);
    // the message log keeps what was sent
    const logged = await q<{ text: string }>(sql`select text from message_logs where target = ${numbers[0]}`);
    expect(texts).toContain(logged[0].text);
    const last = await wa(member).get(`/listen-message-created/${acc.id}`);
    expect(texts).toContain(last.body.message.text);
  });
});

describe('number checks: a daily budget, a cache and a backoff', () => {
  const gen = (u: TestUser) => apiAs(h, u, '/api/admin/generator');
  const runGenerator = async (from: string, to: string) => {
    const made = await gen(dev).post('/create', {
      start_number: from,
      end_number: to,
      whatsapp_id: acc.id,
      b_insert: 0,
      interval_min: 0,
      interval_max: 0,
    });
    expect(made.status).toBe(200);
    const id = made.body.generator.id;
    expect((await gen(dev).post('/start', { id })).status).toBe(200);
    await until(async () => (await gen(dev).get(`/${id}`)).body.generator.status === 'idle', 'the generator to stop');
    return (await gen(dev).get(`/${id}`)).body.generator;
  };
  const checksToday = async () =>
    (await q<{ n: number }>(sql`select checks_today as n from whatsapp_accounts where id = ${acc.id}`))[0].n;

  it('stops a tool when the account has used its checks for the day', async () => {
    await h.database.db.execute(
      sql`update whatsapp_accounts set checks_today = 0, checks_day_end = null where id = ${acc.id}`,
    );
    await setSettings(sql`check_budget_daily = 3, check_cache_days = 0`);
    const g = await runGenerator('6281300000000', '6281300000009');
    expect(g.state).toBe(SAFETY_TEXTS.checkBudget);
    expect(g.count_success + g.count_fail).toBe(3);
    expect(await checksToday()).toBe(3);
  });

  it('answers a number checked lately from the cache, using none of the budget', async () => {
    await h.database.db.execute(
      sql`update whatsapp_accounts set checks_today = 0, checks_day_end = null where id = ${acc.id}`,
    );
    await setSettings(sql`check_budget_daily = 100, check_cache_days = 30`);
    const first = await runGenerator('6281400000000', '6281400000004');
    expect(await checksToday()).toBe(5);
    const second = await runGenerator('6281400000000', '6281400000004');
    expect(await checksToday()).toBe(5);
    expect([second.count_success, second.count_fail]).toEqual([first.count_success, first.count_fail]);
  });

  it('backs off when WhatsApp rate-limits the checks, then goes on', async () => {
    await setSettings(sql`check_budget_daily = 100, check_cache_days = 0`);
    await apiAs(h, dev, '/api/dev/sim').post(`/${acc.clientid}`, { action: 'fail', count: 2, kind: 'rate-limit' });
    const attempting = nextEvent(`client-${dev.id}`, 'attempting');
    const g = await runGenerator('6281500000000', '6281500000002');
    expect(await attempting).toMatchObject({ code: 'rate_limited', attempt: 1 });
    expect(g.state).toBe('finished');
    expect(g.count_success + g.count_fail).toBe(3);
  });
});
