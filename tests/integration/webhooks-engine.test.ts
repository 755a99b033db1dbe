import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs } from '../support/api';
import { createUser, type TestUser } from '../support/factories';
import { freshTargets as freshTargetsIn, fullSpeedBlasts } from '../support/safety';
import { setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';
import { type Received, verifySignature, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 13: what the engine tells webhooks while it works an account — a blast's start, each
 * message's outcome and receipts, its end for each reason, opt-outs, pauses and suspensions, and the
 * account's state — each delivered signed to a local HTTP server.
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
process.env.SIM_DELIVER_RATE = '1';
process.env.SIM_READ_RATE = '1';
process.env.SIM_ACK_DELAY_MS = '20';

const h = useWaHarness({ blastSecondMs: 2, webhooks: { timeoutMs: 2000, retryBaseMs: 40, retryForMs: 60_000 } });
const { wa, connect } = waHelpers(h);
const receiver = new WebhookReceiver();
type Account = { id: number; clientid: string; phonenumber: string };
let admin: TestUser;
let dev: TestUser;
let member: TestUser;
let secret: string;
let acc: Account;

const simCall = (deviceId: string, body: unknown) => apiAs(h, dev, '/api/dev/sim').post(`/${deviceId}`, body);
const freshTargets = (n: number, tag: string) =>
  freshTargetsIn(h.database.db, n, tag, { prefix: '62878', name: 'Target' });
const status = async () =>
  (await rows<{ status: string }>(h.database.db, sql`select status from whatsapp_accounts where id = ${acc.id}`))[0]
    .status;

/** The events received so far of one kind, for this test's account. */
const of = (event: string): Received[] =>
  receiver.of(event).filter((r) => r.json.data.account_id === undefined || r.json.data.account_id === acc.id);

async function waitFor(event: string, n = 1, ms = 5000): Promise<Received[]> {
  await until(() => of(event).length >= n, `${n} × ${event}`, ms);
  return of(event);
}

beforeAll(async () => {
  await receiver.start();
  const db = h.database.db;
  admin = await createUser(db, { role: 'admin' });
  dev = await createUser(db, { role: 'dev' });
  member = await createUser(db, { role: 'member' });
  await fullSpeedBlasts(db);
  const made = await apiAs(h, admin, '/api/admin/webhooks').post('', {
    url: receiver.url(),
    events: [
      'account.state',
      'account.suspended',
      'blast.started',
      'blast.finished',
      'message.sent',
      'message.delivered',
      'message.read',
      'message.failed',
      'optout',
    ],
  });
  expect(made.status).toBe(201);
  secret = made.body.secret;
  acc = (await connect(member)).account;
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(() => {
  receiver.received.length = 0;
});

describe('a blast told to webhooks', () => {
  it('starts, sends, is delivered and read, and finishes, every delivery signed', async () => {
    const numbers = await freshTargets(3, '1');
    const started = await wa(member).post('/start-blasting', { whatsappClientId: acc.clientid });
    expect(started.status).toBe(200);
    const [start] = await waitFor('blast.started');
    expect(start.json.data).toEqual({
      user_id: member.id,
      account_id: acc.id,
      device_id: acc.clientid,
      phone: acc.phonenumber,
      start_at: null,
    });
    const sent = await waitFor('message.sent', 3);
    expect(sent.map((r) => r.json.data.target).sort()).toEqual(numbers);
    const logs = await rows<{ wa_message_id: string; target: string }>(
      h.database.db,
      sql`select wa_message_id, target from message_logs where whatsapp_id = ${acc.id} order by id`,
    );
    for (const r of sent) {
      expect(r.json.data).toMatchObject({ user_id: member.id, account_id: acc.id, fee: 100 });
      expect(logs.find((l) => l.target === r.json.data.target)?.wa_message_id).toBe(r.json.data.message_id);
    }
    const delivered = await waitFor('message.delivered', 3);
    const read = await waitFor('message.read', 3);
    expect(delivered.map((r) => r.json.data.message_id).sort()).toEqual(logs.map((l) => l.wa_message_id).sort());
    expect(read.map((r) => r.json.data.target).sort()).toEqual(numbers);
    const [end] = await waitFor('blast.finished');
    expect(end.json.data).toMatchObject({ account_id: acc.id, reason: 'finished' });
    expect(end.json.data.message).toBeTruthy();
    expect(receiver.received.every((r) => verifySignature(r, secret))).toBe(true);
    expect(receiver.received.every((r) => r.headers['x-wa-event'] === r.json.event)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(receiver.received.length);
  });

  it('a stop through the API finishes it as stopped', async () => {
    await freshTargets(30, '2');
    await h.database.db.execute(
      sql`update users set blast_interval_min = 100, blast_interval_max = 100 where id = ${member.id}`,
    );
    expect((await wa(member).post('/start-blasting', { whatsappClientId: acc.clientid })).status).toBe(200);
    await waitFor('message.sent');
    expect((await wa(member).post('/stop-blasting', { whatsappClientId: acc.clientid })).status).toBe(200);
    const [end] = await waitFor('blast.finished');
    expect(end.json.data).toMatchObject({ reason: 'stopped', account_id: acc.id });
    await h.database.db.execute(sql`update users set blast_interval_min = 0, blast_interval_max = 0`);
    await h.database.db.execute(sql`update phone_numbers set last_sent = now() where last_sent is null`);
  });

  it('failed sends, then the pause they cause, end it as paused', async () => {
    await freshTargets(10, '3');
    await h.database.db.execute(sql`update settings set fail_streak_pause = 3`);
    await simCall(acc.clientid, { action: 'fail', count: 3, kind: 'generic' });
    expect((await wa(member).post('/start-blasting', { whatsappClientId: acc.clientid })).status).toBe(200);
    const failed = await waitFor('message.failed', 3);
    expect(failed[0].json.data.error).toMatch(/failed/);
    expect(failed[0].json.data.target).toMatch(/^628783/);
    const [paused] = await waitFor('account.suspended');
    expect(paused.json.data).toMatchObject({ kind: 'paused', account_id: acc.id });
    expect(paused.json.data.paused_until).toBeTruthy();
    const [end] = await waitFor('blast.finished');
    expect(end.json.data.reason).toBe('paused');
    expect(await status()).toBe('idle');
    expect((await wa(admin).post('/lift-pause', { id: acc.id })).status).toBe(200);
  });
});

describe('the account told to webhooks', () => {
  it('an opt-out names the number that asked to stop', async () => {
    const [target] = await freshTargets(1, '4');
    await simCall(acc.clientid, { action: 'reply', from: target, text: 'STOP' });
    const [optout] = await waitFor('optout');
    expect(optout.json.data).toMatchObject({ account_id: acc.id, user_id: member.id, target });
    expect(optout.json.data.target_id).toEqual(expect.any(Number));
  });

  it('a dropped connection is a state change; a deleted blast message suspends it', async () => {
    expect((await simCall(acc.clientid, { action: 'disconnect' })).status).toBe(200);
    const [state] = await waitFor('account.state');
    expect(state.json.data).toMatchObject({ account_id: acc.id, state: 'disconnected' });

    expect((await simCall(acc.clientid, { action: 'reconnect' })).status).toBe(200);
    await until(async () => of('account.state').some((r) => r.json.data.state === 'connected'), 'back', 10_000);
    const [log] = await rows<{ wa_message_id: string }>(
      h.database.db,
      sql`select wa_message_id from message_logs where whatsapp_id = ${acc.id} and wa_message_id is not null limit 1`,
    );
    receiver.received.length = 0;
    expect((await simCall(acc.clientid, { action: 'revoke', messageId: log.wa_message_id })).status).toBe(200);
    const [suspended] = await waitFor('account.suspended');
    expect(suspended.json.data).toMatchObject({ kind: 'suspended', suspended_count: 1, account_id: acc.id });
    expect((await waitFor('account.state')).at(-1)?.json.data.state).toBe('suspended');
  });
});
