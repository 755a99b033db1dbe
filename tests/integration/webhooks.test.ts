import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { createLogger } from '../../core/src/logger';
import { requeueOverdue } from '../../core/src/webhooks/deliver';
import { Webhooks } from '../../core/src/webhooks/webhooks';
import { WEBHOOK_CAP } from '../../shared/src/contract/webhooks';
import { apiAs } from '../support/api';
import { useUsers } from '../support/factories';
import { useWaHarness } from '../support/wa-engine';
import { until } from '../support/wait';
import { deliveriesIn, verifySignature, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 13's webhooks through the API, delivered to a local HTTP server: registration and its
 * refusals (members reach only public https:// addresses), signed deliveries, retries with backoff,
 * the deliveries list and resend, the sweep of lost jobs, and who hears which events.
 */
const h = useWaHarness({ webhooks: { timeoutMs: 2000, retryBaseMs: 40, retryForMs: 60_000 } });
const { admin, member, other, dev, staff, boss, client } = useUsers(() => h.database.db, {
  admin: 'admin',
  member: 'member',
  other: 'member',
  dev: 'dev',
  staff: 'staff',
  boss: 'admin',
  client: 'client',
});
const hooks = (u: Parameters<typeof apiAs>[1]) => apiAs(h, u, '/api/admin/webhooks');
const receiver = new WebhookReceiver();

beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.close();
});
beforeEach(async () => {
  await h.database.db.execute(sql`delete from webhook_endpoints`);
  await h.database.db.execute(sql`delete from withdrawals`);
  receiver.received.length = 0;
  receiver.respond = () => 200;
});

/** A withdrawal the member asks for: its withdraw.status event is what these tests deliver. */
async function withdrawEvent(u = member): Promise<number> {
  const db = h.database.db;
  await db.execute(
    sql`update users set account_name = 'A', account_bank = 'BCA', account_number = '123' where id = ${u.id}`,
  );
  await db.execute(
    sql`insert into bonuses (user_id, admin_id, nominal, reason) values (${u.id}, ${admin.id}, 50000, 'test')`,
  );
  const r = await apiAs(h, u, '/api/admin/withdraw').post('/request', { userId: u.id, nominal: 10000 });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.withdraw.id;
}

const deliveriesOf = (id: number) => deliveriesIn(h.database.db, id);

describe('registering a webhook', () => {
  it('gives the secret once; the list never shows it', async () => {
    const made = await hooks(admin).post('', {
      url: receiver.url(),
      events: ['withdraw.status', 'blast.started', 'withdraw.status'],
      description: 'ops',
    });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_/);
    expect(made.body.events).toEqual(['withdraw.status', 'blast.started']);
    const list = await hooks(admin).get('');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: made.body.id, url: receiver.url(), active: true, last_status: null });
    expect(JSON.stringify(list.body)).not.toContain(made.body.secret);
    expect(list.body.data[0].secret).toBeUndefined();
  });

  it('refuses a member any address but a public https:// one', async () => {
    const cases: Array<[string, RegExp]> = [
      [receiver.url(), /https:\/\//],
      ['https://127.0.0.1/hook', /public internet address/],
      ['https://localhost/hook', /public internet address/],
      ['https://10.1.2.3/hook', /public internet address/],
      ['https://192.168.1.10/hook', /public internet address/],
      ['https://169.254.169.254/latest/meta-data', /public internet address/],
      ['https://100.64.0.1/hook', /public internet address/],
      ['https://[::1]/hook', /public internet address/],
      ['https://[::ffff:10.0.0.1]/hook', /public internet address/],
      ['https://[fd00::1]/hook', /public internet address/],
      ['https://0.0.0.0/hook', /public internet address/],
      ['https://user:pw@example.com/hook', /user name or password/],
      ['ftp://example.com/hook', /valid http/],
      ['not a url', /valid http/],
      ['https://no-such-host.invalid/hook', /could not be resolved/],
    ];
    for (const [url, msg] of cases) {
      const r = await hooks(member).post('', { url, events: ['withdraw.status'] });
      expect(r.status, url).toBe(400);
      expect(r.body.msg, url).toMatch(msg);
    }
    // the same refusals on a change of address
    const admins = await hooks(admin).post('', { url: receiver.url(), events: ['optout'] });
    expect(admins.status).toBe(201);
    const mine = await h.database.db.execute(
      sql`insert into webhook_endpoints (user_id, url, events, secret) values (${member.id}, 'https://93.184.215.14/x', '{optout}', 's') returning id`,
    );
    const id = (mine as unknown as { rows: Array<{ id: number }> }).rows[0].id;
    const moved = await hooks(member).put(`/${id}`, { url: 'https://127.0.0.1:6379/' });
    expect(moved.status).toBe(400);
    expect(moved.body.msg).toMatch(/public internet address/);
    // and admins may name their own network
    expect((await hooks(admin).put(`/${admins.body.id}`, { url: 'http://10.0.0.5:8080/hook' })).status).toBe(200);
  });

  it('refuses bad bodies, too many endpoints, read-only keys and strangers', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ events: ['optout'] }, /url is required/],
      [{ url: receiver.url(), events: [] }, /at least one event/],
      [{ url: receiver.url(), events: ['message.sent', 'nope'] }, /events must be some of/],
      [{ url: receiver.url(), events: 'optout' }, /list of event names/],
      [{ url: receiver.url(), events: ['optout'], description: 'x'.repeat(201) }, /at most 200/],
      [{ url: 42, events: ['optout'] }, /url/],
    ];
    for (const [body, msg] of bad) {
      const r = await hooks(admin).post('', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.msg).toMatch(msg);
    }
    expect((await hooks(null).get('')).status).toBe(401);
    expect((await hooks(null).post('', { url: receiver.url(), events: ['optout'] })).status).toBe(401);
    for (let i = 0; i < WEBHOOK_CAP; i += 1) {
      expect((await hooks(dev).post('', { url: receiver.url(`/${i}`), events: ['optout'] })).status).toBe(201);
    }
    const over = await hooks(dev).post('', { url: receiver.url(), events: ['optout'] });
    expect(over.status).toBe(409);
    expect(over.body.msg).toMatch(/already have 10 webhooks/);
    // a read-only key lists but does not change
    const key = await apiAs(h, dev, '/api/admin/apikeys').post('', {
      name: 'ro',
      read_only: true,
      current_password: dev.password,
    });
    const viaKey = (m: 'get' | 'post') =>
      request(h.app)
        [m]('/api/admin/webhooks')
        .set('X-API-Key', key.body.key)
        .send({ url: receiver.url(), events: ['optout'] });
    expect((await viaKey('get')).status).toBe(200);
    expect((await viaKey('post')).status).toBe(403);
    // somebody else's endpoint is not there for them
    const mine = (await hooks(dev).get('')).body.data[0].id;
    for (const r of [
      await hooks(admin).put(`/${mine}`, { active: false }),
      await hooks(admin).del(`/${mine}`),
      await hooks(admin).get(`/${mine}/deliveries`),
      await hooks(admin).post(`/${mine}/deliveries/1/resend`, {}),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.msg).toBe('Webhook not found.');
    }
    expect((await hooks(dev).put(`/${mine}`, {})).status).toBe(400);
    expect((await hooks(dev).put('/abc', { active: false })).status).toBe(400);
    expect((await hooks(dev).del(`/${mine}`)).body).toEqual({ id: mine, deleted: true });
    expect((await hooks(dev).del(`/${mine}`)).status).toBe(404);
  });
});

describe('who may have webhooks', () => {
  it("a client's endpoints take only campaign events, and a member's none of them (issue 22)", async () => {
    const url = 'https://93.184.215.14/campaigns';
    const campaignEvents = ['campaign.started', 'campaign.progress', 'campaign.finished', 'message.replied'];
    const made = await hooks(client).post('', { url, events: campaignEvents });
    expect(made.status).toBe(201);
    expect(made.body.events).toEqual(campaignEvents);
    const accountEvent = await hooks(client).post('', { url, events: ['campaign.finished', 'message.sent'] });
    expect(accountEvent.status).toBe(400);
    expect(accountEvent.body.msg).toBe(
      "A client's webhooks take only campaign events: campaign.started, campaign.progress, campaign.finished, message.replied.",
    );
    const changed = await hooks(client).put(`/${made.body.id}`, { events: ['optout'] });
    expect(changed.status).toBe(400);
    // a client's endpoint, like a member's, must be a public https:// address
    const local = await hooks(client).post('', { url: receiver.url(), events: ['campaign.finished'] });
    expect(local.status).toBe(400);
    const members = await hooks(member).post('', { url, events: ['message.replied'] });
    expect(members.status).toBe(400);
    expect(members.body.msg).toBe(
      'Campaign events (campaign.started, campaign.progress, campaign.finished, message.replied) are for clients, admins and devs.',
    );
    expect((await hooks(admin).post('', { url: receiver.url(), events: ['campaign.finished', 'optout'] })).status).toBe(
      201,
    );
    expect((await hooks(client).del(`/${made.body.id}`)).status).toBe(200);
  });

  it('staff may not: 403 on every route, and an endpoint a staff user still has hears nothing', async () => {
    const theirs = (await hooks(admin).post('', { url: receiver.url(), events: ['optout'] })).body;
    const [d] = await rows<{ id: number }>(
      h.database.db,
      sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, status)
          values (${theirs.id}, 'optout', ${randomUUID()}, '{}', 'failed') returning id`,
    );
    for (const [what, r] of [
      ['create', await hooks(staff).post('', { url: receiver.url(), events: ['optout'] })],
      ['create, bad body', await hooks(staff).post('', { events: 'nope' })],
      ['list', await hooks(staff).get('')],
      ['change', await hooks(staff).put(`/${theirs.id}`, { active: false })],
      ['delete', await hooks(staff).del(`/${theirs.id}`)],
      ['deliveries', await hooks(staff).get(`/${theirs.id}/deliveries`)],
      ['resend', await hooks(staff).post(`/${theirs.id}/deliveries/${d.id}/resend`, {})],
    ] as const) {
      expect(r.status, what).toBe(403);
      expect(r.body.msg, what).toBe('Webhooks are for admins, devs, members and clients.');
    }
    // made while the user was a member: a staff owner's endpoint is not read at all
    const [mine] = await rows<{ id: number }>(
      h.database.db,
      sql`insert into webhook_endpoints (user_id, url, events, secret)
          values (${staff.id}, ${receiver.url('/staff')}, '{optout}', 's') returning id`,
    );
    const hooks0 = new Webhooks({ db: h.database.db, queue: h.queue, log: createLogger('silent') });
    hooks0.emit('optout', staff.id, {
      user_id: staff.id,
      account_id: 1,
      device_id: 'id-1',
      phone: null,
      target: '628',
      target_id: null,
    });
    await hooks0.flush();
    await until(() => receiver.received.length === 1, "the admin's endpoint heard it", 5000);
    expect(receiver.received[0].path).toBe('/hook');
    expect(await deliveriesOf(mine.id)).toEqual([]);
  });

  it("a demoted admin's endpoints hear only their own events from the next read of the endpoints", async () => {
    const made = (await hooks(boss).post('', { url: receiver.url('/boss'), events: ['optout'] })).body;
    const hooks0 = new Webhooks({ db: h.database.db, queue: h.queue, log: createLogger('silent'), ttlMs: 100 });
    const optout = (u: { id: number }) =>
      hooks0.emit('optout', u.id, {
        user_id: u.id,
        account_id: 1,
        device_id: 'id-1',
        phone: null,
        target: '628',
        target_id: null,
      });
    optout(member);
    await hooks0.flush();
    expect(await deliveriesOf(made.id)).toHaveLength(1);
    await h.database.db.execute(sql`update users set role = 'member' where id = ${boss.id}`);
    try {
      // no change was told on the bus: the endpoints are read again once the last read is 100 ms old
      // (real time the cache measures, so a fixed wait past it is the point)
      await new Promise((r) => setTimeout(r, 150));
      optout(member);
      optout(boss);
      await hooks0.flush();
      const after = await rows<{ body: string }>(
        h.database.db,
        sql`select body from webhook_deliveries where endpoint_id = ${made.id} order by id`,
      );
      expect(after.map((d) => JSON.parse(d.body).data.user_id)).toEqual([member.id, boss.id]);
    } finally {
      await h.database.db.execute(sql`update users set role = 'admin' where id = ${boss.id}`);
    }
  });
});

describe('deliveries', () => {
  it('are signed, carry the event and its headers, and show in the list', async () => {
    // a path of its own: a delivery of an earlier test still in flight (its endpoint deleted since)
    // may reach the receiver meanwhile
    const path = '/signed';
    const made = (await hooks(admin).post('', { url: receiver.url(path), events: ['withdraw.status'] })).body;
    const withdrawId = await withdrawEvent();
    const mine = () => receiver.received.filter((r) => r.path === path);
    await until(() => mine().length === 1, 'the delivery arrived', 5000);
    const [got] = mine();
    expect(got.headers['x-wa-event']).toBe('withdraw.status');
    expect(got.headers['content-type']).toBe('application/json');
    expect(verifySignature(got, made.secret)).toBe(true);
    expect(verifySignature(got, 'whsec_wrong')).toBe(false);
    expect(verifySignature({ ...got, body: got.body.replace('10000', '90000') }, made.secret)).toBe(false);
    expect(got.json).toMatchObject({
      event: 'withdraw.status',
      data: { user_id: member.id, withdraw_id: withdrawId, amount: 10000, status: 'requested' },
    });
    await until(async () => (await deliveriesOf(made.id))[0]?.status === 'delivered', 'marked delivered', 5000);
    const list = await hooks(admin).get(`/${made.id}/deliveries`);
    expect(list.status).toBe(200);
    expect(list.body.data[0]).toMatchObject({
      event: 'withdraw.status',
      status: 'delivered',
      attempts: 1,
      response_status: 200,
      event_id: got.json.id,
      body: got.body,
    });
    expect(got.headers['x-wa-delivery']).toBe(String(list.body.data[0].id));
    expect((await hooks(admin).get('')).body.data[0].last_status).toBe('delivered');
  });

  it('are retried with backoff until the receiver answers 2xx, and fail after the retry window', async () => {
    const made = (await hooks(admin).post('', { url: receiver.url(), events: ['withdraw.status'] })).body;
    receiver.respond = (_r, n) => (n <= 2 ? 503 : 200);
    await withdrawEvent();
    await until(
      async () => (await deliveriesOf(made.id))[0]?.status === 'delivered',
      'delivered on the third try',
      5000,
    );
    const [d] = await deliveriesOf(made.id);
    expect(d.attempts).toBe(3);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.json.id)).size).toBe(1);
    // the waits grew: 40 ms, then 80 ms
    const [t1, t2, t3] = receiver.received.map((r) => r.at);
    expect(t2 - t1).toBeGreaterThanOrEqual(35);
    expect(t3 - t2).toBeGreaterThanOrEqual(75);
    expect(receiver.received.every((r) => verifySignature(r, made.secret))).toBe(true);

    // an endpoint that never answers 2xx: failed once its retry window is over
    await h.database.db.execute(sql`delete from webhook_endpoints`);
    const down = (await hooks(admin).post('', { url: receiver.url('/down'), events: ['withdraw.status'] })).body;
    receiver.respond = (r) => (r.path === '/down' ? 500 : 200);
    await withdrawEvent(other);
    await until(async () => ((await deliveriesOf(down.id))[0]?.attempts ?? 0) >= 2, 'tried again', 5000);
    await h.database.db.execute(sql`update webhook_deliveries set created_at = now() - interval '2 minutes'`);
    await until(async () => (await deliveriesOf(down.id))[0]?.status === 'failed', 'given up', 10_000);
    const list = (await hooks(admin).get(`/${down.id}/deliveries`)).body.data;
    expect(list[0]).toMatchObject({ status: 'failed', response_status: 500, next_attempt_at: null });
    expect(list[0].error).toMatch(/^HTTP 500/);

    // resend: a new delivery of the same event, which now arrives
    receiver.respond = () => 200;
    const before = receiver.received.length;
    const again = await hooks(admin).post(`/${down.id}/deliveries/${list[0].id}/resend`, {});
    expect(again.status).toBe(202);
    expect(again.body.resend_of).toBe(list[0].id);
    await until(() => receiver.received.length > before, 'the resend arrived', 5000);
    const resent = receiver.received.at(-1);
    expect(resent?.json.id).toBe(list[0].event_id);
    // the receiver has it; the row says so once the worker has read the answer
    await until(
      async () => (await deliveriesOf(down.id))[1]?.status === 'delivered',
      'the resend marked delivered',
      5000,
    );
    const after = await deliveriesOf(down.id);
    expect(after.map((x) => x.status)).toEqual(['failed', 'delivered']);
    expect((await hooks(admin).post(`/${down.id}/deliveries/999999/resend`, {})).status).toBe(404);
  });

  it('a paused endpoint gets nothing; a lost job is queued again by the sweep', async () => {
    const made = (await hooks(admin).post('', { url: receiver.url(), events: ['withdraw.status'] })).body;
    expect((await hooks(admin).put(`/${made.id}`, { active: false })).body.active).toBe(false);
    // an active endpoint beside it: once its delivery is written, so would the paused one's have been
    const witness = (await hooks(admin).post('', { url: receiver.url('/witness'), events: ['withdraw.status'] })).body;
    await withdrawEvent();
    await until(
      async () => (await deliveriesOf(witness.id))[0]?.status === 'delivered',
      'the active endpoint to get the event',
      5000,
    );
    expect(await deliveriesOf(made.id)).toEqual([]);
    expect(receiver.received.map((r) => r.path)).toEqual(['/witness']);
    await hooks(admin).put(`/${made.id}`, { active: true });
    // a delivery whose job died with its process: pending, overdue, no job anywhere
    const body = JSON.stringify({
      id: randomUUID(),
      event: 'withdraw.status',
      created_at: new Date().toISOString(),
      data: {},
    });
    await h.database.db.execute(
      sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, next_attempt_at)
          values (${made.id}, 'withdraw.status', ${randomUUID()}, ${body}, now() - interval '5 minutes')`,
    );
    expect(await requeueOverdue(h.database.db, h.queue)).toBe(1);
    await until(async () => (await deliveriesOf(made.id))[0]?.status === 'delivered', 'the sweep delivered it', 5000);
    expect(receiver.received.filter((r) => r.path === '/hook').map((r) => r.body)).toEqual([body]);
  });
});

describe('who hears what', () => {
  it("a member's endpoint hears only their own events, and never reaches a private address", async () => {
    const db = h.database.db;
    // saved directly: registration would refuse these addresses (as if DNS changed after it)
    const [literal] = await rows<{ id: number }>(
      db,
      sql`insert into webhook_endpoints (user_id, url, events, secret)
          values (${member.id}, ${`https://127.0.0.1:${receiver.port}/hook`}, '{withdraw.status}', 's') returning id`,
    );
    const [named] = await rows<{ id: number }>(
      db,
      sql`insert into webhook_endpoints (user_id, url, events, secret)
          values (${member.id}, ${`https://localhost:${receiver.port}/hook`}, '{withdraw.status}', 's') returning id`,
    );
    const admins = (await hooks(admin).post('', { url: receiver.url('/admin'), events: ['withdraw.status'] })).body;
    h.engine.webhooks.invalidate();
    await withdrawEvent(other);
    await until(() => receiver.received.length === 1, "the admin's endpoint heard the other member", 5000);
    expect(receiver.received[0].path).toBe('/admin');
    expect(await deliveriesOf(literal.id)).toEqual([]);
    await withdrawEvent(member);
    await until(
      // at least once: each retries 40 ms later, so both at exactly one is a window a slow poll misses
      async () =>
        ((await deliveriesOf(literal.id))[0]?.attempts ?? 0) >= 1 &&
        ((await deliveriesOf(named.id))[0]?.attempts ?? 0) >= 1,
      "the member's own event tried on both",
      5000,
    );
    expect((await deliveriesOf(literal.id))[0].error).toMatch(/not a public https/);
    expect((await deliveriesOf(named.id))[0].error).toMatch(/not a public address/);
    await until(() => receiver.received.length === 2, "the admin's endpoint heard the member", 5000);
    expect(receiver.received.every((r) => r.path === '/admin')).toBe(true);
    expect((await deliveriesOf(admins.id)).length).toBe(2);
  });

  it('an endpoint hears only events that happened after it was made', async () => {
    const hooks0 = new Webhooks({ db: h.database.db, queue: h.queue, log: createLogger('silent') });
    const data = { user_id: member.id, withdraw_id: 1, amount: 1, status: 'requested' };
    hooks0.emit('withdraw.status', member.id, data);
    // made while the event waits to be written; the fixed 5 ms only puts the endpoint's created_at
    // past the event's time (a busy machine waits longer, which changes nothing)
    await new Promise((r) => setTimeout(r, 5));
    // its own path: a post still under way from an earlier test's endpoint is not this one's
    const made = (await hooks(admin).post('', { url: receiver.url('/after'), events: ['withdraw.status'] })).body;
    await hooks0.flush();
    expect(await deliveriesOf(made.id)).toEqual([]);
    // the change as the bus tells it to every process (this instance has none): its flush may have
    // read the endpoints before the new one was made
    hooks0.invalidate();
    hooks0.emit('withdraw.status', member.id, { ...data, withdraw_id: 2 });
    await hooks0.flush();
    const heard = () => receiver.received.filter((r) => r.path === '/after');
    await until(() => heard().length > 0, 'the later event arrived', 10_000);
    expect(heard().map((r) => r.json.data.withdraw_id)).toEqual([2]);
    expect(await deliveriesOf(made.id)).toHaveLength(1);
  });
});

describe('delivery ids', () => {
  it('past 2^31: a resend takes any bigserial id, and refuses what is not one with a 400', async () => {
    const made = (await hooks(admin).post('', { url: receiver.url(), events: ['optout'] })).body;
    await h.database.db.execute(sql`select setval(pg_get_serial_sequence('webhook_deliveries', 'id'), 3000000000)`);
    const [d] = await rows<{ id: number | string }>(
      h.database.db,
      sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, status)
          values (${made.id}, 'optout', ${randomUUID()}, '{}', 'failed') returning id`,
    );
    expect(Number(d.id)).toBe(3_000_000_001);
    const again = await hooks(admin).post(`/${made.id}/deliveries/3000000001/resend`, {});
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ id: 3_000_000_002, resend_of: 3_000_000_001 });
    await until(() => receiver.received.length === 1, 'the resend arrived', 5000);
    expect(receiver.received[0].headers['x-wa-delivery']).toBe('3000000002');
    const listed = (await hooks(admin).get(`/${made.id}/deliveries`)).body.data;
    expect(listed.map((x: { id: number }) => x.id)).toEqual([3_000_000_002, 3_000_000_001]);

    for (const id of ['2147483648', '9223372036854775807', '0003000000009']) {
      const r = await hooks(admin).post(`/${made.id}/deliveries/${id}/resend`, {});
      expect(r.status, id).toBe(404);
      expect(r.body.msg, id).toBe('Delivery not found.');
    }
    const bad: Array<[string, RegExp]> = [
      ['9223372036854775808', /deliveryId is too large/],
      ['99999999999999999999999999999', /deliveryId must be a positive whole number/],
      ['0', /deliveryId must be a positive whole number/],
      ['-1', /deliveryId must be a positive whole number/],
      ['1.5', /deliveryId must be a positive whole number/],
      ['1e3', /deliveryId must be a positive whole number/],
      ['abc', /deliveryId must be a positive whole number/],
      ['%20', /deliveryId must be a positive whole number/],
    ];
    for (const [id, msg] of bad) {
      const r = await hooks(admin).post(`/${made.id}/deliveries/${id}/resend`, {});
      expect(r.status, id).toBe(400);
      expect(r.body.msg, id).toMatch(msg);
    }
  });
});
