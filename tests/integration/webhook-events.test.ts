import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs } from '../support/api';
import { useUsers } from '../support/factories';
import { freshTargets as freshTargetsIn, fullSpeedBlasts } from '../support/safety';
import { type SavedAccount, setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';
import { type Received, verifySignature, WebhookReceiver } from '../support/webhook-receiver';

/**
 * The webhook events of the account's own state changes, of a blast's every end and of receipts
 * and withdrawals, each delivered signed to a local HTTP server: a restore that fails, a rebuild,
 * an admin's activation, a logout, WhatsApp's suspension and a dropped connection during a blast,
 * the admin's status switch, a scheduled start, an undeliverable receipt, and a withdrawal decided.
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
// no receipts on their own: a test sends the one it needs
process.env.SIM_DELIVER_RATE = '0';
process.env.SIM_READ_RATE = '0';

const h = useWaHarness({ blastSecondMs: 2, webhooks: { timeoutMs: 2000, retryBaseMs: 40, retryForMs: 60_000 } });
const { wa, connect, sim } = waHelpers(h);
const { admin, dev, member } = useUsers(() => h.database.db, { admin: 'admin', dev: 'dev', member: 'member' });
const receiver = new WebhookReceiver();
let secret: string;

const db = () => h.database.db;
const simCall = (deviceId: string, body: unknown) => apiAs(h, dev, '/api/dev/sim').post(`/${deviceId}`, body);
const freshTargets = (n: number, tag: string) => freshTargetsIn(db(), n, tag, { prefix: '62879', name: 'Target' });
const statusOf = async (id: number) =>
  (await rows<{ status: string }>(db(), sql`select status from whatsapp_accounts where id = ${id}`))[0].status;

/** The deliveries of one event so far; of one account's events when `accountId` is given. */
const of = (event: string, accountId?: number): Received[] =>
  receiver.of(event).filter((r) => accountId === undefined || r.json.data.account_id === accountId);

/** Waits for a delivery of `event` whose data matches `match`, and checks it was signed with the endpoint's secret. */
async function delivered(
  event: string,
  match: (data: Record<string, unknown>) => boolean,
  ms = 8000,
): Promise<Received> {
  await until(() => receiver.of(event).some((r) => match(r.json.data)), event, ms);
  const r = receiver.of(event).find((x) => match(x.json.data)) as Received;
  expect(verifySignature(r, secret), `${event} is signed`).toBe(true);
  expect(r.headers['x-wa-event']).toBe(event);
  return r;
}

/** A blast that runs long enough to be ended from outside: 30 targets, 200 ms apart. */
async function startSlowBlast(acc: SavedAccount, tag: string): Promise<void> {
  await freshTargets(30, tag);
  await db().execute(sql`update users set blast_interval_min = 100, blast_interval_max = 100 where id = ${member.id}`);
  expect((await wa(member).post('/start-blasting', { whatsappClientId: acc.clientid })).status).toBe(200);
  await delivered('message.sent', (d) => d.account_id === acc.id);
}

beforeAll(async () => {
  await receiver.start();
  await fullSpeedBlasts(db());
  // an admin's endpoint hears every user's events, on any address
  const made = await apiAs(h, admin, '/api/admin/webhooks').post('', {
    url: receiver.url(),
    events: [
      'account.state',
      'account.suspended',
      'blast.started',
      'blast.finished',
      'message.sent',
      'message.failed',
      'withdraw.status',
    ],
  });
  expect(made.status).toBe(201);
  secret = made.body.secret;
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  receiver.received.length = 0;
  await db().execute(sql`update users set blast_interval_min = 0, blast_interval_max = 0`);
});

describe('account.state', () => {
  it('a logout on the phone is told as loggedOut', async () => {
    const { account } = await connect(member);
    expect((await simCall(account.clientid, { action: 'logout' })).status).toBe(200);
    const r = await delivered('account.state', (d) => d.account_id === account.id && d.state === 'loggedOut');
    expect(r.json.data).toEqual({
      user_id: member.id,
      account_id: account.id,
      device_id: account.clientid,
      phone: account.phonenumber,
      state: 'loggedOut',
    });
  });

  it('a rebuild is told as reconnecting..., and a restore that fails as disconnected with why', async () => {
    const { account } = await connect(member);
    // a proxy the session cannot start with: the rebuild's restore fails
    const [proxy] = await rows<{ id: number }>(
      db(),
      sql`insert into proxies (value, status) values ('socks5://u:p@10.9.9.9:1080', 'nonactive') returning id`,
    );
    await db().execute(sql`update whatsapp_accounts set proxy_id = ${proxy.id} where id = ${account.id}`);
    try {
      expect((await wa(member).post('/reconnect', { id: account.id })).status).toBe(200);
      const rebuilding = await delivered(
        'account.state',
        (d) => d.account_id === account.id && d.state === 'reconnecting...',
      );
      expect(rebuilding.json.data).toMatchObject({ user_id: member.id, device_id: account.clientid });
      const down = await delivered('account.state', (d) => d.account_id === account.id && d.state === 'disconnected');
      expect(down.json.data.message).toMatch(/SOCKS/);
      expect(down.json.data).toMatchObject({ user_id: member.id, device_id: account.clientid });
    } finally {
      await db().execute(sql`update whatsapp_accounts set proxy_id = null where id = ${account.id}`);
    }
  });
});

describe("WhatsApp's suspension", () => {
  it('is told as account.state and account.suspended, ends the running blast as suspended, and an activation as connected', async () => {
    const { account } = await connect(member);
    await startSlowBlast(account, '1');
    sim().control(account.clientid).suspend();
    const state = await delivered('account.state', (d) => d.account_id === account.id && d.state === 'suspended');
    expect(state.json.data).toMatchObject({ user_id: member.id, device_id: account.clientid });
    const suspended = await delivered('account.suspended', (d) => d.account_id === account.id);
    expect(suspended.json.data).toMatchObject({ kind: 'suspended', suspended_count: 1, user_id: member.id });
    const end = await delivered('blast.finished', (d) => d.account_id === account.id);
    expect(end.json.data).toMatchObject({ reason: 'suspended', user_id: member.id, device_id: account.clientid });
    expect(end.json.data.message).toBeTruthy();
    expect(await statusOf(account.id)).toBe('idle');

    expect((await wa(admin).post('/activate', { id: account.id })).status).toBe(200);
    const back = await delivered('account.state', (d) => d.account_id === account.id && d.state === 'connected');
    expect(back.json.data).toMatchObject({ user_id: member.id, device_id: account.clientid });
    // the blast ended once
    expect(of('blast.finished', account.id)).toHaveLength(1);
  });
});

describe('blast.finished', () => {
  it('a connection that drops during a blast ends it as error, naming the state', async () => {
    const { account } = await connect(member);
    await startSlowBlast(account, '2');
    expect((await simCall(account.clientid, { action: 'disconnect' })).status).toBe(200);
    const end = await delivered('blast.finished', (d) => d.account_id === account.id);
    expect(end.json.data).toMatchObject({
      reason: 'error',
      message: `${account.phonenumber} is disconnected`,
      user_id: member.id,
    });
    expect(await statusOf(account.id)).toBe('idle');
  });

  it("the admin's status switch starts and ends a blast", async () => {
    const { account } = await connect(member);
    expect((await wa(admin).put('/status', { id: account.id, status: 'sending' })).status).toBe(200);
    const start = await delivered('blast.started', (d) => d.account_id === account.id);
    expect(start.json.data).toEqual({
      user_id: member.id,
      account_id: account.id,
      device_id: account.clientid,
      phone: account.phonenumber,
      start_at: null,
    });
    expect((await wa(admin).put('/status', { id: account.id, status: 'idle' })).status).toBe(200);
    const end = await delivered('blast.finished', (d) => d.account_id === account.id);
    expect(end.json.data).toMatchObject({ reason: 'stopped', user_id: member.id });
  });

  it('a scheduled blast is told when it is scheduled, with its start time', async () => {
    const { account } = await connect(member);
    await freshTargets(1, '3');
    const startAt = new Date(Date.now() + 3_600_000);
    startAt.setMilliseconds(0);
    const started = await wa(member).post('/start-blasting', {
      whatsappClientId: account.clientid,
      start_at: startAt.toISOString(),
    });
    expect(started.status).toBe(200);
    const start = await delivered('blast.started', (d) => d.account_id === account.id);
    expect(start.json.data.start_at).toBe(startAt.toISOString());
    expect((await wa(member).post('/stop-blasting', { whatsappClientId: account.clientid })).status).toBe(200);
    await delivered('blast.finished', (d) => d.account_id === account.id && d.reason === 'stopped');
  });
});

describe('message.failed', () => {
  it('an undeliverable receipt names the message, its target and the target’s id', async () => {
    const { account } = await connect(member);
    const [target] = await freshTargets(1, '4');
    expect((await wa(member).post('/start-blasting', { whatsappClientId: account.clientid })).status).toBe(200);
    const sent = await delivered('message.sent', (d) => d.account_id === account.id);
    const messageId = sent.json.data.message_id as string;
    await delivered('blast.finished', (d) => d.account_id === account.id);
    expect((await simCall(account.clientid, { action: 'ack', messageId, ack: 'failed' })).status).toBe(200);
    const failed = await delivered('message.failed', (d) => d.account_id === account.id);
    const [row] = await rows<{ id: number }>(db(), sql`select id from phone_numbers where number = ${target}`);
    expect(failed.json.data).toEqual({
      user_id: member.id,
      account_id: account.id,
      device_id: account.clientid,
      phone: account.phonenumber,
      message_id: messageId,
      target,
      target_id: row.id,
      error: 'WhatsApp reported the message undeliverable.',
    });
    expect(sent.json.data.target_id).toBe(row.id);
  });
});

describe('withdraw.status', () => {
  it('is told when an admin accepts a withdrawal and when one rejects another', async () => {
    await db().execute(
      sql`update users set account_name = 'A', account_bank = 'BCA', account_number = '123' where id = ${member.id}`,
    );
    await db().execute(
      sql`insert into bonuses (user_id, admin_id, nominal, reason) values (${member.id}, ${admin.id}, 50000, 'test')`,
    );
    const withdraw = apiAs(h, member, '/api/admin/withdraw');
    const ids: number[] = [];
    for (const nominal of [10000, 20000]) {
      const r = await withdraw.post('/request', { userId: member.id, nominal });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.withdraw.id);
    }
    const [accepted, rejected] = ids;
    const decide = apiAs(h, admin, '/api/admin/withdraw');
    expect((await decide.put('/update', { id: accepted, status: 'accepted' })).status).toBe(200);
    expect((await decide.put('/update', { id: rejected, status: 'rejected' })).status).toBe(200);
    const yes = await delivered('withdraw.status', (d) => d.withdraw_id === accepted && d.status === 'accepted');
    expect(yes.json.data).toEqual({ user_id: member.id, withdraw_id: accepted, amount: 10000, status: 'accepted' });
    const no = await delivered('withdraw.status', (d) => d.withdraw_id === rejected && d.status === 'rejected');
    expect(no.json.data).toEqual({ user_id: member.id, withdraw_id: rejected, amount: 20000, status: 'rejected' });
  });
});
