import { SAFETY_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs } from '../support/api';
import { createUser, type TestUser } from '../support/factories';
import { freshTargets as freshTargetsIn, SETTINGS_BODY } from '../support/safety';
import { setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

// the simulated phone pairs quickly and every send succeeds unless told; one interval "second" is 2 ms
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });

const h = useWaHarness({ blastSecondMs: 2 });
const { wa, nextEvent, connect, sim } = waHelpers(h);

type Account = { id: number; clientid: string; phonenumber: string };
let admin: TestUser;
let dev: TestUser;
let staff: TestUser;
let member: TestUser;

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);
const simCall = (u: TestUser | null, deviceId: string, body: unknown) =>
  apiAs(h, u, '/api/dev/sim').post(`/${deviceId}`, body);
const start = (acc: Account) => wa(member).post('/start-blasting', { whatsappClientId: acc.clientid });
const account = (id: number) =>
  q<{
    state: string;
    status: string;
    suspended: boolean;
    suspended_count: number;
    paused_until: Date | null;
    pause_reason: string | null;
  }>(
    sql`select state, status, suspended, suspended_count, paused_until, pause_reason from whatsapp_accounts where id = ${id}`,
  ).then((r) => r[0]);
const sentLogs = (id: number) =>
  q<{ wa_message_id: string; text: string; target: string }>(
    sql`select wa_message_id, text, target from message_logs where whatsapp_id = ${id} and status in ('sent', 'delivered', 'read') order by id`,
  );

/** `n` fresh targets (older ones count as sent), so a blast reaches only these. */
const freshTargets = (n: number, tag: string) =>
  freshTargetsIn(h.database.db, n, tag, { prefix: '62877', name: 'Target' });

/** Blasts `acc` through `n` fresh targets and waits until it is idle again. */
async function blastThrough(acc: Account, n: number, tag: string): Promise<string[]> {
  const numbers = await freshTargets(n, tag);
  const started = await start(acc);
  expect(started.status).toBe(200);
  await until(async () => (await account(acc.id)).status === 'idle', 'the blast to end');
  return numbers;
}

beforeAll(async () => {
  const db = h.database.db;
  admin = await createUser(db, { role: 'admin' });
  dev = await createUser(db, { role: 'dev' });
  staff = await createUser(db, { role: 'staff' });
  member = await createUser(db, { role: 'member' });
  await db.execute(sql`insert into settings (id, interval_min, interval_max, price, bank_names, colors)
    values (1, 0, 0, 100, 'BCA', '#000000') on conflict (id) do update set interval_min = 0, interval_max = 0`);
  await db.execute(sql`update users set blast_interval_min = 0, blast_interval_max = 0 where id = ${member.id}`);
  await db.execute(sql`insert into message_templates (text, text_wa, status, button)
    values ('<p>Halo {name}</p>', 'Halo {name}', 'active',
            '[{"id":"stop-1","title":"Berhenti","url":"","type":"stop_button"}]'::jsonb)`);
});

describe('the simulator control (POST /api/dev/sim/{deviceId})', () => {
  let acc: Account;
  beforeAll(async () => {
    acc = (await connect(member)).account;
  });

  it('is for devs only', async () => {
    for (const u of [admin, staff, member]) {
      const r = await simCall(u, acc.clientid, { action: 'disconnect' });
      expect(r.status).toBe(403);
      expect(r.body.msg).toBeTruthy();
    }
    expect((await simCall(null, acc.clientid, { action: 'disconnect' })).status).toBe(401);
    expect((await account(acc.id)).state).toBe('connected');
  });

  it('refuses bad bodies and devices with a message', async () => {
    const bad = await simCall(dev, acc.clientid, { action: 'explode' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/action must be one of revoke, reply/);
    expect((await simCall(dev, acc.clientid, {})).status).toBe(400);
    const count = await simCall(dev, acc.clientid, { action: 'fail', count: 'lots' });
    expect(count.status).toBe(400);
    expect(count.body.msg).toBe('count must be a number.');
    const reply = await simCall(dev, acc.clientid, { action: 'reply', from: '6281234567890' });
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toBe('A reply needs text or buttonId.');
    const nul = await simCall(dev, acc.clientid, { action: 'reply', from: '6281234567890', text: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect((await simCall(dev, 'not-a-device', { action: 'disconnect' })).status).toBe(400);
    const nobody = await simCall(dev, 'id-1700000000000-42', { action: 'disconnect' });
    expect(nobody.status).toBe(404);
    expect(nobody.body.msg).toMatch(/not connected/);
  });

  it('answers 409 when the session cannot do it (nothing sent yet to revoke)', async () => {
    const r = await simCall(dev, acc.clientid, { action: 'revoke' });
    expect(r.status).toBe(409);
    expect(r.body.msg).toMatch(/no message to revoke/);
  });
});

describe('rule #1: a blast message deleted for everyone suspends the account', () => {
  let acc: Account;
  beforeAll(async () => {
    acc = (await connect(member)).account;
  });

  it('keeps what was sent and its WhatsApp id, and suspends on its revoke (not on another)', async () => {
    const numbers = await blastThrough(acc, 3, '101');
    const logs = await sentLogs(acc.id);
    expect(logs.map((l) => l.target)).toEqual(numbers);
    expect(logs.every((l) => l.text === 'Halo Target' && /^true_/.test(l.wa_message_id))).toBe(true);

    // a message the blast did not send: nothing happens
    const other = await simCall(dev, acc.clientid, { action: 'revoke', messageId: 'true_628000@c.us_3EB0NOTOURS' });
    expect(other.status).toBe(200);
    // a window in which the account must not be suspended (there is no event to wait for)
    await new Promise((r) => setTimeout(r, 100));
    expect(await account(acc.id)).toMatchObject({ state: 'connected', suspended: false, suspended_count: 0 });

    const suspended = nextEvent(`client-${member.id}`, 'suspended');
    const revoked = await simCall(dev, acc.clientid, { action: 'revoke', messageId: logs[1].wa_message_id });
    expect(revoked.body.data).toEqual({ deviceId: acc.clientid, action: 'revoke', messageId: logs[1].wa_message_id });
    expect(await suspended).toMatchObject({ deviceId: acc.clientid, suspended_count: 1, state: 'suspended' });
    expect(await account(acc.id)).toMatchObject({
      state: 'suspended',
      status: 'idle',
      suspended: true,
      suspended_count: 1,
    });
    // the same revoke heard twice counts once
    await simCall(dev, acc.clientid, { action: 'revoke', messageId: logs[1].wa_message_id });
    // a window in which a second suspension must not be counted
    await new Promise((r) => setTimeout(r, 100));
    expect((await account(acc.id)).suspended_count).toBe(1);

    const refused = await start(acc);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toMatch(/is suspended/);
  });

  it('ends a running blast, and at the third suspension activation is refused for good', async () => {
    for (const round of [2, 3]) {
      const activated = await wa(admin).post('/activate', { id: acc.id });
      expect(activated.status).toBe(200);
      await until(async () => (await account(acc.id)).state === 'connected', 'the account to be connected again');
      // a long blast: the revoke ends it midway
      await wa(member).put('/interval', { id: acc.id, interval: 10 });
      await freshTargets(50, `2${round}0`);
      expect((await start(acc)).status).toBe(200);
      await until(async () => (await sentLogs(acc.id)).length >= 3 * round - 2, 'a message of this blast');
      const suspended = nextEvent(`client-${member.id}`, 'suspended');
      await simCall(dev, acc.clientid, { action: 'revoke' });
      expect((await suspended).suspended_count).toBe(round);
      await until(async () => (await account(acc.id)).status === 'idle', 'the blast to end');
      const left = await q<{ n: number }>(
        sql`select count(*)::int as n from phone_numbers where last_sent is null and number like ${`62877${2}${round}0%`}`,
      );
      expect(left[0].n).toBeGreaterThan(0);
      await wa(member).put('/interval', { id: acc.id, interval: 0 });
    }
    const refused = await wa(admin).post('/activate', { id: acc.id });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/suspended 3 times/);
  });
});

describe('opt-out: a target who asks to stop is never messaged again', () => {
  let acc: Account;
  beforeAll(async () => {
    acc = (await connect(member)).account;
  });

  it('a STOP reply (any case, whole message) or the stop button opts out; other replies are only logged', async () => {
    const [a, b, c, d] = await freshTargets(4, '301');
    await simCall(dev, acc.clientid, { action: 'reply', from: a, text: '  stop ' });
    await simCall(dev, acc.clientid, { action: 'reply', from: b, buttonId: 'stop-1' });
    await simCall(dev, acc.clientid, { action: 'reply', from: c, text: 'STOP dulu ya' });
    await simCall(dev, acc.clientid, { action: 'reply', from: '0812 0000 9999', text: 'Berhenti' });
    await until(
      async () => (await q(sql`select id from incoming_messages where whatsapp_id = ${acc.id}`)).length === 4,
    );
    const statuses = await q<{ number: string; status: string }>(
      sql`select number, status from phone_numbers where number = any(${sql.param([a, b, c, d])}::text[]) order by number`,
    );
    expect(statuses).toEqual([
      { number: a, status: 'optout' },
      { number: b, status: 'optout' },
      { number: c, status: 'active' },
      { number: d, status: 'active' },
    ]);
    const logged = await q<{ sender: string; optout: boolean; button_id: string | null }>(
      sql`select sender, optout, button_id from incoming_messages where whatsapp_id = ${acc.id} order by sender`,
    );
    expect(logged).toEqual(
      [
        { sender: a, optout: true, button_id: null },
        { sender: b, optout: true, button_id: 'stop-1' },
        { sender: c, optout: false, button_id: null },
        // not in the target list: logged with its normalised number
        { sender: '6281200009999', optout: true, button_id: null },
      ].sort((x, y) => x.sender.localeCompare(y.sender)),
    );

    // the blast skips the opted-out numbers
    const delivered: string[] = [];
    const off = sim().onDelivered((x) => delivered.push(x.to));
    expect((await start(acc)).status).toBe(200);
    await until(async () => (await account(acc.id)).status === 'idle', 'the blast to end');
    off();
    expect(delivered.sort()).toEqual([c, d]);
  });

  it('follows the keywords in settings', async () => {
    const [a] = await freshTargets(1, '302');
    const r = await apiAs(h, admin).put('/admin/setting/update', {
      ...SETTINGS_BODY,
      optout_keywords: 'jangan kirim, STOP',
    });
    expect(r.status).toBe(200);
    expect(r.body.setting.optout_keywords).toBe('jangan kirim, STOP');
    await simCall(dev, acc.clientid, { action: 'reply', from: a, text: 'Jangan Kirim' });
    await until(
      async () =>
        (await q<{ status: string }>(sql`select status from phone_numbers where number = ${a}`))[0].status === 'optout',
      'the opt-out',
    );
  });
});

describe('ban signals pause the account', () => {
  let acc: Account;
  beforeAll(async () => {
    acc = (await connect(member)).account;
  });
  beforeEach(async () => {
    await h.database.db.execute(sql`update whatsapp_accounts set paused_until = null, pause_reason = null,
      fail_streak = 0, drops = 0, drops_since = null where id = ${acc.id}`);
    await h.database.db.execute(sql`update settings set fail_streak_pause = 3, pause_hours = 6`);
  });

  it('a streak of failed sends pauses it with its reason; a start is refused until admin lifts it', async () => {
    await freshTargets(10, '401');
    await simCall(dev, acc.clientid, { action: 'fail', count: 3, kind: 'generic' });
    const paused = nextEvent(`client-${member.id}`, 'paused');
    expect((await start(acc)).status).toBe(200);
    const event = await paused;
    expect(event).toMatchObject({ deviceId: acc.clientid, pause_reason: SAFETY_TEXTS.failStreak(3), status: 'idle' });
    const hours = (Date.parse(String(event.paused_until)) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(5.9);
    expect(hours).toBeLessThanOrEqual(6);
    const row = await account(acc.id);
    expect(row).toMatchObject({ status: 'idle', pause_reason: SAFETY_TEXTS.failStreak(3) });
    const failed = await q<{ n: number }>(
      sql`select count(*)::int as n from message_logs where whatsapp_id = ${acc.id} and status = 'failed'`,
    );
    expect(failed[0].n).toBe(3);

    // the row says why; a start is refused
    const listed = await wa(member).get(`/${acc.id}`);
    expect(listed.body.whatsapp).toMatchObject({ pause_reason: SAFETY_TEXTS.failStreak(3) });
    const refused = await start(acc);
    expect(refused.status).toBe(409);
    expect(refused.body.msg).toContain(SAFETY_TEXTS.failStreak(3));

    // only admin and dev lift it
    expect((await wa(member).post('/lift-pause', { id: acc.id })).status).toBe(403);
    expect((await wa(staff).post('/lift-pause', { id: acc.id })).status).toBe(403);
    const lifted = await wa(admin).post('/lift-pause', { id: acc.id });
    expect(lifted.status).toBe(200);
    expect(lifted.body.data).toMatchObject({ paused_until: null, pause_reason: null });
    const again = await wa(admin).post('/lift-pause', { id: acc.id });
    expect(again.status).toBe(400);
    expect((await start(acc)).status).toBe(200);
    await until(async () => (await account(acc.id)).status === 'idle', 'the blast to end');
  });

  it('a rate-limit or restriction error pauses at once and gives the number back', async () => {
    const [first] = await freshTargets(3, '402');
    await simCall(dev, acc.clientid, { action: 'fail', count: 1, kind: 'rate-limit' });
    const paused = nextEvent(`client-${member.id}`, 'paused');
    expect((await start(acc)).status).toBe(200);
    expect((await paused).pause_reason).toBe(SAFETY_TEXTS.rateLimited);
    const target = await q<{ last_sent: Date | null; in_use: number }>(
      sql`select last_sent, in_use from phone_numbers where number = ${first}`,
    );
    expect(target[0]).toEqual({ last_sent: null, in_use: 0 });
  });

  it('WhatsApp restricting the account (a temporary ban) pauses it', async () => {
    const paused = nextEvent(`client-${member.id}`, 'paused');
    expect((await simCall(dev, acc.clientid, { action: 'ban', reason: 'spam reports' })).status).toBe(200);
    expect((await paused).pause_reason).toBe(SAFETY_TEXTS.restricted('spam reports'));
  });

  it('a session that drops 3 times in 30 minutes is paused', async () => {
    const drops = async () =>
      (await q<{ drops: number }>(sql`select drops from whatsapp_accounts where id = ${acc.id}`))[0].drops;
    for (let i = 1; i <= 2; i++) {
      await simCall(dev, acc.clientid, { action: 'disconnect' });
      await until(async () => (await drops()) === i, `drop ${i} to be counted`);
      expect((await account(acc.id)).pause_reason).toBeNull();
      await simCall(dev, acc.clientid, { action: 'reconnect' });
      await until(async () => (await account(acc.id)).state === 'connected', 'the reconnect');
    }
    await simCall(dev, acc.clientid, { action: 'disconnect' });
    await until(async () => (await account(acc.id)).pause_reason !== null, 'the pause');
    expect((await account(acc.id)).pause_reason).toBe(SAFETY_TEXTS.drops(3, 30));
  });
});

describe('settings of account safety', () => {
  const base = SETTINGS_BODY;

  it('an update without them keeps them; bad values are refused with a message', async () => {
    const set = await apiAs(h, admin).put('/admin/setting/update', { ...base, fail_streak_pause: 7, pause_hours: 12 });
    expect(set.body.setting).toMatchObject({ fail_streak_pause: 7, pause_hours: 12 });
    const kept = await apiAs(h, admin).put('/admin/setting/update', base);
    expect(kept.body.setting).toMatchObject({ fail_streak_pause: 7, pause_hours: 12 });
    for (const [field, value, msg] of [
      ['fail_streak_pause', 0, 'Fail streak pause must be at least 1.'],
      ['pause_hours', 'long', 'Pause hours must be a number.'],
      ['pause_hours', 1000, 'Pause hours is too large.'],
      ['optout_keywords', ' , ', 'Opt-out keywords is required.'],
      ['optout_keywords', `STOP, ${'x'.repeat(51)}`, `Opt-out keyword "${'x'.repeat(51)}" is too long.`],
      ['optout_keywords', 42, 'Opt-out keywords must be text.'],
      ['check_cache_days', -1, 'Check cache days must be at least 0.'],
    ] as const) {
      const r = await apiAs(h, admin).put('/admin/setting/update', { ...base, [field]: value });
      expect(r.status, field).toBe(400);
      expect(r.body.msg).toBe(msg);
    }
    const cap = await apiAs(h, admin).put('/admin/setting/update', {
      ...base,
      daily_cap_start: 600,
      daily_cap_max: 500,
    });
    expect(cap.status).toBe(400);
    expect(cap.body.msg).toBe('Daily cap max must be at least the daily cap start.');
    // nothing of the refused updates was kept
    expect((await apiAs(h, admin).get('/admin/setting/get')).body.setting).toMatchObject({
      fail_streak_pause: 7,
      pause_hours: 12,
      optout_keywords: 'jangan kirim, STOP',
    });
  });
});
