import { SAFETY_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs } from '../support/api';
import { useUsers } from '../support/factories';
import { freshTargets as freshTargetsIn, fullSpeedBlasts } from '../support/safety';
import { nextEvent as nextEventOf, type SavedAccount, setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';
import { type Received, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The integrator's contract (issue 20): what the live events and the webhooks say about an
 * account and its blast. Every account event carries the realtime monitor message of §3 (date,
 * state, status, number, the account as sender, reconnectTime on the connection's events);
 * `progressing` carries value, target and progress; a saved login is told as account.state
 * connected; a blast that the daily cap ends says so; and a run ends with exactly one
 * blast.finished however many parts of the engine saw it end.
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
process.env.SIM_DELIVER_RATE = '0';
process.env.SIM_READ_RATE = '0';

const h = useWaHarness({ blastSecondMs: 2, webhooks: { timeoutMs: 2000, retryBaseMs: 40, retryForMs: 60_000 } });
const { wa, connect, sim } = waHelpers(h);
const { admin, member } = useUsers(() => h.database.db, { admin: 'admin', member: 'member' });
const receiver = new WebhookReceiver();
const nextEvent = (channel: string, event: string, ms = 5000, match?: (p: Record<string, unknown>) => boolean) =>
  nextEventOf(h, channel, event, ms, match);

const db = () => h.database.db;
const freshTargets = (n: number, tag: string) => freshTargetsIn(db(), n, tag, { prefix: '62878', name: 'Target' });
const start = (acc: SavedAccount) => wa(member).post('/start-blasting', { whatsappClientId: acc.clientid });

/** `n` fresh targets `62879{tag}0000…` in one statement; every older number counts as sent first. */
async function manyTargets(n: number, tag: string): Promise<void> {
  await db().execute(sql`update phone_numbers set last_sent = coalesce(last_sent, now()), in_use = 0`);
  await db().execute(sql`insert into phone_numbers (number, name)
    select ${`62879${tag}`} || lpad(i::text, 4, '0'), 'Target' from generate_series(0, ${n - 1}) i`);
}

/** Waits for a delivery of `event` whose data matches `match`. */
async function delivered(event: string, match: (data: Record<string, unknown>) => boolean): Promise<Received> {
  await until(() => receiver.of(event).some((r) => match(r.json.data)), event, 8000);
  return receiver.of(event).find((x) => match(x.json.data)) as Received;
}

/**
 * The blast.finished webhooks recorded for an account once its run is over: the blast loop has
 * ended on its holder and the engine's waiting webhook events are written, so a second one told by
 * any part of the engine would be among them.
 */
async function blastEndsOf(acc: SavedAccount): Promise<Array<{ reason: string; message: string }>> {
  const ends = async () => {
    await h.engine.webhooks.flush();
    const found = await rows<{ body: string }>(
      db(),
      sql`select body from webhook_deliveries where event = 'blast.finished' order by id`,
    );
    return found
      .map((r) => JSON.parse(r.body).data as { account_id: number; reason: string; message: string })
      .filter((d) => d.account_id === acc.id)
      .map(({ reason, message }) => ({ reason, message }));
  };
  await until(() => !h.engine.host.blasting(acc.clientid), 'the blast loop to end');
  // the end is told once the loop has let go of the account: wait for it, then read what came
  await until(async () => (await ends()).length > 0, "the blast's end told");
  return ends();
}

beforeAll(async () => {
  await receiver.start();
  await fullSpeedBlasts(db());
  const made = await apiAs(h, admin, '/api/admin/webhooks').post('', {
    url: receiver.url(),
    events: ['account.state', 'blast.finished'],
  });
  expect(made.status).toBe(201);
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  receiver.received.length = 0;
  await db().execute(sql`update settings set daily_cap_start = 100000, daily_cap_max = 100000`);
});

describe('the realtime monitor message (§3)', () => {
  it('a reconnect is told with the date, the account as sender and how many times it was reconnected', async () => {
    const { account } = await connect(member);
    const owner = `client-${member.id}`;
    for (const times of [1, 2]) {
      // the holder's own events (the API's `reconnecting` says the same without the count)
      const counted = (p: Record<string, unknown>) => p.reconnectTime !== undefined;
      const reconnecting = nextEvent(owner, 'reconnecting', 5000, counted);
      const back = nextEvent(owner, 'connection.update', 5000, (p) => counted(p) && p.state === 'connected');
      expect((await wa(member).post('/reconnect', { id: account.id })).status).toBe(200);
      const p = await reconnecting;
      expect(p).toMatchObject({
        deviceId: account.clientid,
        state: 'reconnecting...',
        number: account.phonenumber,
        reconnectTime: times,
        sender: { id: account.id, user_id: member.id, clientid: account.clientid, state: 'reconnecting...' },
      });
      expect(Date.parse(String(p.date))).toBeGreaterThan(Date.now() - 60_000);
      expect(['idle', 'sending']).toContain(p.status);
      const up = await back;
      expect(up).toMatchObject({ deviceId: account.clientid, state: 'connected', reconnectTime: times });
      expect(up.sender).toMatchObject({ id: account.id, user_id: member.id, state: 'connected', status: 'idle' });
    }
  });

  it("a blast's events carry the monitor's fields, and progressing its value, target and progress", async () => {
    const { account } = await connect(member);
    const [number] = await freshTargets(1, '1');
    const [row] = await rows<{ id: number }>(db(), sql`select id from phone_numbers where number = ${number}`);
    const progressing = nextEvent(`client-${member.id}`, 'progressing');
    const counted = nextEvent(`client-${member.id}`, 'count_success');
    expect((await start(account)).status).toBe(200);
    const p = await progressing;
    expect(p).toMatchObject({ deviceId: account.clientid, value: number, target: row.id, status: 'sending' });
    // the percent of today's cap sent before this message
    expect(p.progress).toBe(0);
    expect(p.sender).toMatchObject({
      id: account.id,
      clientid: account.clientid,
      state: 'connected',
      status: 'sending',
    });
    expect(typeof p.date).toBe('string');
    expect(await counted).toMatchObject({ deviceId: account.clientid, value: 1, number: account.phonenumber });
  });
});

describe('account.state', () => {
  it('a new account saved after its login is told as connected', async () => {
    const { account } = await connect(member);
    const r = await delivered('account.state', (d) => d.account_id === account.id);
    expect(r.json.data).toEqual({
      user_id: member.id,
      account_id: account.id,
      device_id: account.clientid,
      phone: account.phonenumber,
      state: 'connected',
    });
  });

  it('a restore by the sweep is told as reconnecting..., then connected', async () => {
    const { account } = await connect(member);
    await delivered('account.state', (d) => d.account_id === account.id && d.state === 'connected');
    receiver.received.length = 0;
    // the engine stops (its leases end with it) and another one starts: it restores the account
    await h.engine.close();
    await h.restartEngine();
    const restoring = await delivered(
      'account.state',
      (d) => d.account_id === account.id && d.state === 'reconnecting...',
    );
    expect(restoring.json.data).toMatchObject({ user_id: member.id, phone: account.phonenumber });
    await delivered('account.state', (d) => d.account_id === account.id && d.state === 'connected');
  });
});

describe('blast.finished', () => {
  it('a blast that reaches the daily cap says daily_cap, in the webhook and the live event', async () => {
    await db().execute(sql`update settings set daily_cap_start = 2, daily_cap_max = 2`);
    const { account } = await connect(member);
    await freshTargets(5, '2');
    const finished = nextEvent(`client-${member.id}`, 'finished', 8000);
    expect((await start(account)).status).toBe(200);
    expect(await finished).toMatchObject({ deviceId: account.clientid, reason: 'daily_cap', status: 'idle' });
    expect(await blastEndsOf(account)).toEqual([{ reason: 'daily_cap', message: SAFETY_TEXTS.dailyCap }]);
  });

  it('a blast through its targets says finished', async () => {
    const { account } = await connect(member);
    await freshTargets(2, '3');
    const finished = nextEvent(`client-${member.id}`, 'finished', 8000);
    expect((await start(account)).status).toBe(200);
    expect(await finished).toMatchObject({ deviceId: account.clientid, reason: 'finished' });
    expect(await blastEndsOf(account)).toEqual([{ reason: 'finished', message: expect.any(String) }]);
  });

  /** An account whose blast is sending to a pool of targets it will not get through soon. */
  async function blasting(tag: string): Promise<SavedAccount> {
    const { account } = await connect(member);
    await manyTargets(3000, tag);
    const started = await start(account);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await until(async () => {
      const [r] = await rows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from phone_numbers where last_sent is not null and number like ${`62879${tag}%`}`,
      );
      return r.n >= 10;
    }, 'the blast to send');
    return account;
  }

  it('a session that drops in the middle of a blast ends its run once', async () => {
    const account = await blasting('4');
    // WhatsApp reports the connection down twice in a row (disconnected, then a conflict) while
    // messages are in flight: each state event, and the blast's failed send, sees the run end
    const phone = sim().control(account.clientid);
    phone.disconnect();
    phone.conflict();
    expect(await blastEndsOf(account)).toEqual([
      { reason: 'error', message: expect.stringMatching(/is (disconnected|conflict)$|not connected/) },
    ]);
  });

  it('an account paused while its blast runs ends its run once, as paused', async () => {
    const account = await blasting('5');
    // two ban signals at once (WhatsApp restricts the account twice): each pauses the account and
    // ends its blast
    const phone = sim().control(account.clientid);
    phone.ban('spam reports');
    phone.ban('terms of service');
    const ends = await blastEndsOf(account);
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({
      reason: 'paused',
      message: expect.stringMatching(/spam reports|terms of service/),
    });
  });
});
