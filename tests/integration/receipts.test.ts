import { DEFAULT_TIMEZONE } from '@wa/core/config';
import { recountDaily, storedDaily } from '@wa/core/ledger/daily';
import { foldLedger, rollupDifferences } from '@wa/core/ledger/rollups';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { recordReceipt, settleUndelivered } from '../../workers/src/engine/receipts.repo';
import { apiAs } from '../support/api';
import { createUser, type TestUser } from '../support/factories';
import { freshTargets } from '../support/safety';
import { nextEvent, setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Delivery receipts and honest payouts (issue 11): the drivers' receipts settle on the message log
 * by the message's WhatsApp id; settings' payout_on decides whether a member is paid when WhatsApp
 * accepts a message or when it is delivered; the ledger's day rows move with every change and
 * always equal a full recount of the log. Receipts here come from the simulator: on their own
 * (SIM_ACK_DELAY_MS) or on demand through POST /api/dev/sim {action: 'ack'}, as WhatsApp sends
 * the receipts it still owes to whichever worker holds the session.
 */

setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 0, sendFailRate: 0 });
process.env.SIM_DELIVER_RATE = '1';
process.env.SIM_READ_RATE = '1';
// receipts come on their own 40 ms after a send, unless a test turns them off (rate 0, below)
process.env.SIM_ACK_DELAY_MS = '40';

const FEE = 100;
const h = useWaHarness({ blastSecondMs: 1 });
const { wa, connect } = waHelpers(h);
let member: TestUser;
let referrer: TestUser;
let dev: TestUser;
let admin: TestUser;
let acc: { id: number; clientid: string };

interface Log {
  id: number;
  wa_message_id: string;
  status: string;
  fee: number;
  referral_fee: number;
  fee_due: number;
  sent_at: Date | null;
  delivered_at: Date | null;
  read_at: Date | null;
}

const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);
const logs = () =>
  q<Log>(
    sql`select id, wa_message_id, status, fee, referral_fee, fee_due, sent_at, delivered_at, read_at
        from message_logs where whatsapp_id = ${acc.id} order by id`,
  );
const api = (u: TestUser) => apiAs(h, u, '/api/admin');
const balance = async (u: TestUser) => (await api(u).get(`/withdraw/balance/${u.id}`)).body.balance as number;
const ack = (messageId: string, kind: 'delivered' | 'read' | 'failed') =>
  apiAs(h, dev, '/api/dev/sim').post(`/${acc.clientid}`, { action: 'ack', messageId, ack: kind });
const ledgerIsExact = async () => {
  expect(await storedDaily(h.database.db)).toEqual(await recountDaily(h.database.db, DEFAULT_TIMEZONE));
  // the hour rows too, and a fold of them (issue 23)
  expect(await rollupDifferences(h.database.db, DEFAULT_TIMEZONE)).toEqual([]);
  await foldLedger(h.database.db, DEFAULT_TIMEZONE);
  expect(await rollupDifferences(h.database.db, DEFAULT_TIMEZONE)).toEqual([]);
};

/** Blasts `n` fresh targets and waits until every one is settled (sent or failed). */
async function blast(n: number, tag: string): Promise<Log[]> {
  const before = (await logs()).length;
  await freshTargets(h.database.db, n, tag, { prefix: '62833', name: 'R' });
  expect((await wa(member).post('/start-blasting', { whatsappClientId: acc.clientid })).status).toBe(200);
  await until(async () => {
    const l = await logs();
    return l.length === before + n && l.every((r) => r.status !== 'pending');
  }, `${n} messages settled`);
  await until(async () => {
    const [w] = await q<{ status: string }>(sql`select status from whatsapp_accounts where id = ${acc.id}`);
    return w.status === 'idle';
  }, 'the blast ended');
  return (await logs()).slice(before);
}

async function setPayout(payout_on: 'accepted' | 'delivered', extra: Record<string, unknown> = {}) {
  await h.database.db.execute(sql`update settings set payout_on = ${payout_on}`);
  for (const [k, v] of Object.entries(extra)) {
    await h.database.db.execute(sql`update settings set ${sql.identifier(k)} = ${v}`);
  }
}

/** Receipts on their own (rate 1) or only on demand (rate 0), for this account's next session start. */
async function receiptsOnTheirOwn(on: boolean) {
  process.env.SIM_DELIVER_RATE = on ? '1' : '0';
  await h.engine.close();
  await h.restartEngine();
  await until(async () => {
    const [w] = await q<{ state: string }>(sql`select state from whatsapp_accounts where id = ${acc.id}`);
    return w.state === 'connected';
  }, 'the account is back');
}

beforeAll(async () => {
  const db = h.database.db;
  referrer = await createUser(db, { role: 'member' });
  member = await createUser(db, { role: 'member', referrerId: referrer.id });
  dev = await createUser(db, { role: 'dev' });
  admin = await createUser(db, { role: 'admin' });
  await db.execute(sql`update users set blast_interval_min = 0, blast_interval_max = 0, blast_fee = ${FEE}
                       where id = ${member.id}`);
  await db.execute(sql`update settings set interval_min = 0, interval_max = 0, referral_percent = 10`);
  await db.execute(sql`insert into message_templates (text, text_wa, status) values ('x', 'Halo', 'active')`);
  acc = (await connect(member)).account;
});

beforeEach(async () => {
  await setPayout('accepted');
});

describe('receipts', () => {
  it('give a blast message its sent, delivered and read times and status; the member hears count_synced', async () => {
    const synced = nextEvent(h, `client-${member.id}`, 'count_synced', 5000, (p) => Number(p.read) >= 3);
    const sent = await blast(3, '501');
    await until(async () => (await logs()).every((r) => r.status === 'read'), 'every message read');
    for (const r of await logs()) {
      expect(r.sent_at).not.toBeNull();
      expect(new Date(r.delivered_at as Date).getTime()).toBeGreaterThanOrEqual(new Date(r.sent_at as Date).getTime());
      expect(new Date(r.read_at as Date).getTime()).toBeGreaterThanOrEqual(new Date(r.delivered_at as Date).getTime());
    }
    expect(sent).toHaveLength(3);
    expect(await synced).toMatchObject({ deviceId: acc.clientid, count_success: 3, delivered: 3, read: 3 });
    await ledgerIsExact();
  });

  it('count once however often they come; unknown ids and other accounts change nothing', async () => {
    const [first] = await logs();
    const before = first.read_at;
    const tz = DEFAULT_TIMEZONE;
    expect(await recordReceipt(h.database.db, acc.id, first.wa_message_id, 'read', tz)).toEqual({
      changed: false,
      receiver: null,
    });
    expect(await recordReceipt(h.database.db, acc.id, first.wa_message_id, 'delivered', tz)).toMatchObject({
      changed: false,
    });
    // a message that was delivered cannot fail afterwards
    expect(await recordReceipt(h.database.db, acc.id, first.wa_message_id, 'failed', tz)).toMatchObject({
      changed: false,
    });
    expect((await logs())[0]).toMatchObject({ status: 'read', read_at: before });
    expect(await recordReceipt(h.database.db, acc.id, 'true_62800@c.us_UNKNOWN', 'delivered', tz)).toMatchObject({
      changed: false,
    });
    expect(await recordReceipt(h.database.db, acc.id + 999, first.wa_message_id, 'delivered', tz)).toMatchObject({
      changed: false,
    });
    await ledgerIsExact();
  });
});

describe('payout_on', () => {
  it("'accepted' (the default) pays the fee and the referral share when WhatsApp accepts the message", async () => {
    const [m0, r0] = [await balance(member), await balance(referrer)];
    await receiptsOnTheirOwn(false);
    const sent = await blast(2, '502');
    expect(sent.map((l) => [l.status, l.fee, l.referral_fee, l.fee_due])).toEqual([
      ['sent', FEE, 10, 0],
      ['sent', FEE, 10, 0],
    ]);
    expect(await balance(member)).toBe(m0 + 2 * FEE);
    expect(await balance(referrer)).toBe(r0 + 2 * 10);
    // a failure reported after acceptance: counted failed, the fee paid on acceptance stays
    const target = nextEvent(h, 'client-admin', 'update_target');
    expect((await ack(sent[0].wa_message_id, 'failed')).status).toBe(200);
    expect(await target).toMatchObject({ receiver: { count_success: 0, count_fail: 1 } });
    await until(async () => (await logs()).some((l) => l.id === sent[0].id && l.status === 'failed'), 'failed');
    expect(await balance(member)).toBe(m0 + 2 * FEE);
    await ledgerIsExact();
  });

  it("'delivered' holds the fee until the delivery receipt and pays it exactly once, wherever the receipt arrives", async () => {
    await setPayout('delivered');
    const [m0, r0] = [await balance(member), await balance(referrer)];
    const income0 = (await api(member).get(`/withdraw/income/${member.id}`)).body.income as number;
    const sent = await blast(4, '503');
    expect(sent.map((l) => [l.status, l.fee, l.fee_due])).toEqual(Array(4).fill(['sent', 0, FEE]));
    expect(await balance(member)).toBe(m0);
    expect(await balance(referrer)).toBe(r0);

    // delivered, then read, then delivered again: paid once
    expect((await ack(sent[0].wa_message_id, 'delivered')).status).toBe(200);
    expect((await ack(sent[0].wa_message_id, 'read')).status).toBe(200);
    expect((await ack(sent[0].wa_message_id, 'delivered')).status).toBe(200);
    // read without a delivered receipt first: delivered too, paid
    expect((await ack(sent[1].wa_message_id, 'read')).status).toBe(200);
    // failed: never paid
    expect((await ack(sent[2].wa_message_id, 'failed')).status).toBe(200);
    await until(async () => {
      const l = await logs();
      const by = (id: number) => l.find((x) => x.id === id)?.status;
      return by(sent[0].id) === 'read' && by(sent[1].id) === 'read' && by(sent[2].id) === 'failed';
    }, 'the receipts settled');
    expect(await balance(member)).toBe(m0 + 2 * FEE);
    expect(await balance(referrer)).toBe(r0 + 2 * 10);
    expect((await api(member).get(`/withdraw/income/${member.id}`)).body.income).toBe(income0 + 2 * FEE);

    // a worker restart: the receipt the new holder gets settles the same row, once
    await receiptsOnTheirOwn(false);
    expect((await ack(sent[3].wa_message_id, 'delivered')).status).toBe(200);
    await until(async () => (await logs()).find((l) => l.id === sent[3].id)?.status === 'delivered', 'delivered');
    expect((await ack(sent[3].wa_message_id, 'delivered')).status).toBe(200);
    expect(await balance(member)).toBe(m0 + 3 * FEE);
    expect(await balance(referrer)).toBe(r0 + 3 * 10);
    await ledgerIsExact();
  });

  it("'delivered': a message still undelivered after the window is settled unpaid, and a late receipt pays nothing", async () => {
    await setPayout('delivered', { undelivered_window_hours: 24 });
    const m0 = await balance(member);
    const sent = await blast(2, '504');
    // one of them was sent 25 hours ago
    await h.database.db.execute(
      sql`update message_logs set created_at = now() - interval '25 hours' where id = ${sent[0].id}`,
    );
    expect(await settleUndelivered(h.database.db)).toBe(1);
    expect(await settleUndelivered(h.database.db)).toBe(0);
    const [late] = await q<Log>(sql`select fee, fee_due, status from message_logs where id = ${sent[0].id}`);
    expect(late).toMatchObject({ fee: 0, fee_due: 0, status: 'sent' });
    // the receipt comes after the window: delivered, unpaid
    expect((await ack(sent[0].wa_message_id, 'delivered')).status).toBe(200);
    expect((await ack(sent[1].wa_message_id, 'delivered')).status).toBe(200);
    await until(async () => {
      const l = await logs();
      return [sent[0].id, sent[1].id].every((id) => l.find((x) => x.id === id)?.status === 'delivered');
    }, 'both delivered');
    expect(await balance(member)).toBe(m0 + FEE);
    await rebuildForTheMovedDay();
  });

  it('settings take payout_on and undelivered_window_hours, and refuse anything else', async () => {
    const path = '/setting/update';
    const base = (await api(admin).get('/setting/get')).body;
    const body = {
      interval_min: 0,
      interval_max: 0,
      price: base.price ?? 500,
      bank_names: 'BCA',
      colors: '#3C50E0',
      referral_percent: 10,
      info: 'x',
    };
    const ok = await api(admin).put(path, { ...body, payout_on: 'delivered', undelivered_window_hours: 48 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [s] = await q<{ payout_on: string; undelivered_window_hours: number }>(
      sql`select payout_on, undelivered_window_hours from settings`,
    );
    expect(s).toEqual({ payout_on: 'delivered', undelivered_window_hours: 48 });
    // left out: kept
    expect((await api(admin).put(path, body)).status).toBe(200);
    expect((await q<{ payout_on: string }>(sql`select payout_on from settings`))[0].payout_on).toBe('delivered');
    const bad = await api(admin).put(path, { ...body, payout_on: 'read' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe("Payout on must be 'accepted' or 'delivered'.");
    const zero = await api(admin).put(path, { ...body, undelivered_window_hours: 0 });
    expect(zero.status).toBe(400);
    expect(zero.body.msg).toMatch(/Undelivered window hours/);
    expect((await api(member).put(path, { ...body, payout_on: 'accepted' })).status).toBe(403);
  });
});

/** A test moved a log to another day by hand: the day rows follow it (the engine never moves a log). */
async function rebuildForTheMovedDay() {
  const { rebuildDaily } = await import('@wa/core/ledger/daily');
  await rebuildDaily(h.database.db, DEFAULT_TIMEZONE);
  await ledgerIsExact();
}
