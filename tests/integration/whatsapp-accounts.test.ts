import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import type { SimDelivery } from '../../workers/src/drivers/sim';
import { bearer } from '../support/api';
import { createUser, type TestUser, useUsers } from '../support/factories';
import { newDeviceId, setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * The saved WhatsApp accounts: who sees and changes which, suspension and logout, what scripts
 * send, and the one-off send of the blaster form with the receivers it offers. Logging in:
 * whatsapp-logins.test.ts.
 */

// the simulated phone pairs quickly (yet after the GET qr of a loaded machine) and every send
// succeeds, so the tests are about the rules
setSimEnv({ pairDelayMs: 500, restoreDelayMs: 20, sendLatencyMs: 0, sendFailRate: 0 });

let deliveries: SimDelivery[] = [];

/** the active target numbers T0…T104 (T0–T49 never sent, then ever older) and one nonactive number */
const TARGETS = Array.from({ length: 105 }, (_, i) => `62877100${String(i).padStart(5, '0')}`);
const NONACTIVE = '6287719999999';

// one interval "second" is 1 ms, so a one-off send's pacing costs nothing here
const h = useWaHarness({ blastSecondMs: 1 });
const { wa, nextEvent, connect, sim } = waHelpers(h);

beforeAll(async () => {
  sim().onDelivered((d) => deliveries.push(d));
  for (const [i, number] of TARGETS.entries()) {
    const lastSent = i < 50 ? null : new Date(Date.now() - i * 60_000).toISOString();
    await h.database.db.execute(
      sql`insert into phone_numbers (number, name, status, last_sent) values (${number}, ${`Target ${i}`}, 'active', ${lastSent})`,
    );
  }
  await h.database.db.execute(
    sql`insert into phone_numbers (number, name, status) values (${NONACTIVE}, 'Nonaktif', 'nonactive')`,
  );
});
const { admin, dev, member, other, staff } = useUsers(() => h.database.db, {
  admin: 'admin',
  dev: 'dev',
  member: 'member',
  other: 'member',
  staff: 'staff',
});

describe('accounts', () => {
  let acc: { id: number; clientid: string; phonenumber: string };
  beforeAll(async () => {
    acc = (await connect(other)).account;
  });

  it("members see only their own accounts; admin and dev see everyone's", async () => {
    expect((await wa(member).get(`/${acc.id}`)).status).toBe(403);
    expect((await wa(member).get(`/list/${other.id}`)).status).toBe(403);
    expect((await wa(member).get(`/count/${other.id}`)).status).toBe(403);
    const page = await wa(member).get(`/list-per-page?page=1&user_id=${other.id}`);
    expect(page.status).toBe(200);
    expect(page.body.data.every((a: { userId: number }) => a.userId === member.id)).toBe(true);
    expect((await wa(member).get('/list')).status).toBe(403);
    const all = await wa(admin).get('/list');
    expect(all.body.list.map((a: { id: number }) => a.id)).toContain(acc.id);
    const byUser = await wa(dev).get(`/list-per-page?page=1&user_id=${other.id}`);
    expect(byUser.body.data.map((a: { id: number }) => a.id)).toEqual([acc.id]);
    expect((await wa(other).get(`/${acc.id}`)).body.whatsapp.id).toBe(acc.id);
    expect((await request(h.app).get('/api/admin/whatsapp/list')).status).toBe(401);
    // the admin dashboard counts everyone's accounts with `all`; a member may not
    const everyone = await wa(admin).get('/count/all');
    const [total] = await rows<{ connected: number; n: number }>(
      h.database.db,
      sql`select count(*) filter (where state = 'connected')::int as connected, count(*)::int as n from whatsapp_accounts`,
    );
    expect(everyone.body).toEqual({
      connectedCount: total?.connected,
      disconnectedCount: (total?.n ?? 0) - (total?.connected ?? 0),
    });
    expect(everyone.body.connectedCount).toBeGreaterThan(0);
    expect((await wa(member).get('/count/all')).status).toBe(403);
    expect((await wa(admin).get('/count/x1')).status).toBe(400);
  });

  it('filters by status and search, and the synced list holds connected accounts only', async () => {
    const connected = await wa(admin).get('/list-per-page?page=1&status=connected');
    expect(connected.body.data.length).toBeGreaterThan(0);
    expect(connected.body.data.every((a: { state: string }) => a.state === 'connected')).toBe(true);
    const search = await wa(admin).get(`/list-per-page?page=1&search=${acc.phonenumber.slice(2, 9)}`);
    expect(search.body.data.map((a: { id: number }) => a.id)).toContain(acc.id);
    const badStatus = await wa(admin).get('/list-per-page?page=1&status=happy');
    expect(badStatus.status).toBe(400);
    const synced = await wa(other).get(`/list/${other.id}?synced=true`);
    expect(synced.body.list.map((a: { id: number }) => a.id)).toEqual([acc.id]);
  });

  it('refuses a one-off send from a sender that is not connected, naming its number and state', async () => {
    const ok = await wa(other).post('/send-message/1', {
      senders: acc.phonenumber,
      targets: `${TARGETS[0]},${TARGETS[1]}`,
      message: 'Halo',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ msg: 'Pesan blaster berhasil dikirim ke target.', count: 2 });
    expect(
      (await wa(member).post('/send-message/1', { senders: acc.phonenumber, targets: TARGETS[0], message: 'x' }))
        .status,
    ).toBe(404);
    expect(
      (await wa(other).post('/send-message/1', { senders: acc.phonenumber, targets: '', message: 'x' })).status,
    ).toBe(400);
    await until(() => deliveries.filter((d) => d.clientId === acc.clientid).length === 2, 'the sends', 10_000);

    const dropped = nextEvent(`client-${other.id}`, 'connection.update');
    sim().control(acc.clientid).disconnect();
    expect(await dropped).toMatchObject({ deviceId: acc.clientid, state: 'disconnected' });
    const refused = await wa(other).post('/send-message/1', {
      senders: acc.phonenumber,
      targets: TARGETS[0],
      message: 'x',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe(`${acc.phonenumber} is disconnected`);
    const back = nextEvent(`client-${other.id}`, 'connection.update');
    sim().control(acc.clientid).reconnect();
    expect(await back).toMatchObject({ state: 'connected' });
  });

  it('resets the counts and income; sets the interval with validation', async () => {
    await h.database.db.execute(
      sql`update whatsapp_accounts set count_success = 7, count_fail = 2, income = 350 where id = ${acc.id}`,
    );
    const reset = await wa(other).post('/reset', { id: acc.id });
    expect(reset.body.data).toMatchObject({ count_success: 0, count_fail: 0, income: 0 });
    expect((await wa(member).post('/reset', { id: acc.id })).status).toBe(403);
    const iv = await wa(other).put('/interval', { id: acc.id, interval: 12 });
    expect(iv.body.data.interval).toBe(12);
    expect((await wa(other).put('/interval', { id: acc.id, interval: -1 })).status).toBe(400);
    expect((await wa(other).put('/status', { id: acc.id, status: 'idle' })).status).toBe(403);
    expect((await wa(admin).put('/status', { id: acc.id, status: 'bogus' })).status).toBe(400);
  });

  it('a suspension is recorded live; admin activates only while suspended_count is below 3', async () => {
    const suspended = nextEvent('client-admin', 'suspended');
    sim().control(acc.clientid).suspend();
    expect(await suspended).toMatchObject({ deviceId: acc.clientid, suspended_count: 1, state: 'suspended' });
    expect((await wa(other).post('/activate', { id: acc.id })).status).toBe(403);
    expect((await wa(staff).post('/activate', { id: acc.id })).status).toBe(403);
    const activated = await wa(admin).post('/activate', { id: acc.id });
    expect(activated.status).toBe(200);
    expect(activated.body.data).toMatchObject({ suspended: false });
    const again = await wa(admin).post('/activate', { id: acc.id });
    expect(again.status).toBe(400);

    await h.database.db.execute(
      sql`update whatsapp_accounts set suspended = true, state = 'suspended', suspended_count = 3 where id = ${acc.id}`,
    );
    const refused = await wa(dev).post('/activate', { id: acc.id });
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toMatch(/3 times/);
  });

  /** The account's state and whether its session is still stored. */
  const stateOf = async (id: number) =>
    (
      await rows<{ state: string; stored: boolean }>(
        h.database.db,
        sql`select state, exists(select 1 from whatsapp_sessions where session_id = clientid) as stored
            from whatsapp_accounts where id = ${id}`,
      )
    )[0];

  it('a logout on the phone marks the account logged out and deletes its stored session', async () => {
    const fresh = (await connect(member)).account;
    const out = nextEvent(`client-${member.id}`, 'connection.update');
    await sim().control(fresh.clientid).logout();
    expect(await out).toMatchObject({ deviceId: fresh.clientid, state: 'loggedOut' });
    const row = () => stateOf(fresh.id);
    // the stored session is deleted after the event goes out: wait for it, not a fixed time
    await until(async () => {
      const r = await row();
      return r?.state === 'loggedOut' && !r.stored;
    }, 'the logout recorded and its session deleted');
    expect(await row()).toEqual({ state: 'loggedOut', stored: false });
  });

  it('a conflict keeps the account and its stored session; nothing takes it back until the owner reconnects in place', async () => {
    const fresh = (await connect(member)).account;
    const state = () => stateOf(fresh.id);
    const conflict = nextEvent(`client-${member.id}`, 'connection.update');
    sim().control(fresh.clientid).conflict();
    expect(await conflict).toMatchObject({ deviceId: fresh.clientid, state: 'conflict' });
    await h.engine.host.sweep();
    expect(await state()).toEqual({ state: 'conflict', stored: true });
    // another member may not; the owner (§4 Reconnect: member and dev) rebuilds it in place
    expect((await wa(other).post('/reconnect', { id: fresh.id })).status).toBe(403);
    const reconnecting = nextEvent(`client-${member.id}`, 'reconnecting');
    expect((await wa(member).post('/reconnect', { id: fresh.id })).status).toBe(200);
    await reconnecting;
    await until(async () => (await state()).state === 'connected', 'the account back on this worker');
    expect(await state()).toEqual({ state: 'connected', stored: true });
  });
});

describe('what scripts send: accepted as meant, or refused naming the field and the type', () => {
  let acc: { id: number; clientid: string };
  beforeAll(async () => {
    acc = (await connect(dev)).account;
  });

  it('save with reconnect 0 saves a new account (0 means "not a reconnect")', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const deviceId = newDeviceId();
    const authenticated = nextEvent(`client-${u.id}`, 'authenticated');
    expect((await wa(u).post('/new-client', { deviceId })).status).toBe(201);
    const info = (await authenticated).clientInfo as Record<string, string>;
    const saved = await wa(u).post('/save', { clientid: deviceId, ...info, user_id: u.id, reconnect: 0 });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(saved.body.whatsapp).toMatchObject({ clientid: deviceId, userId: u.id, reconnect: 0 });
    const bad = await wa(u).post('/save', { clientid: newDeviceId(), reconnect: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('reconnect must be a number.');
  });

  it('start-blasting and stop-blasting take socketClientId as a number or as text', async () => {
    const stop = await wa(dev).post('/stop-blasting', {
      whatsappClientId: acc.clientid,
      socketClientId: 12345,
      loop: true,
    });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    const start = await wa(dev).post('/start-blasting', {
      whatsappClientId: acc.clientid,
      socketClientId: 12345,
      loop: true,
    });
    // the body is fine: what stops it is the rule that a blast needs an active template
    expect(start.body.msg).toBe('Belum ada template pesan yang aktif');
    const text = await wa(dev).post('/stop-blasting', { whatsappClientId: acc.clientid, socketClientId: 'client-1' });
    expect(text.status).toBe(200);
  });

  it('a field of the wrong type is named with the type it needs; a missing one is "required"', async () => {
    const cases: [string, object, string][] = [
      ['/start-blasting', { whatsappClientId: 5 }, 'whatsappClientId must be text.'],
      ['/start-blasting', {}, 'whatsappClientId is required.'],
      ['/stop-blasting', { whatsappClientId: 5 }, 'whatsappClientId must be text.'],
      [
        '/start-blasting',
        { whatsappClientId: acc.clientid, socketClientId: {} },
        'socketClientId must be text or a number.',
      ],
      ['/new-client', { deviceId: 5 }, 'deviceId must be text.'],
      ['/new-client', {}, 'deviceId is required.'],
      ['/new-client', { deviceId: newDeviceId(), userId: 'abc' }, 'userId must be a number.'],
      ['/remove-client', { deviceId: 7 }, 'deviceId must be text.'],
      ['/save', { pushname: 'x' }, 'clientid is required.'],
      ['/save', { clientid: 7 }, 'clientid must be text.'],
    ];
    for (const [path, body, msg] of cases) {
      const res = await wa(dev).post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.msg, `${path} ${JSON.stringify(body)}`).toBe(msg);
    }
  });
});

describe('the blaster form: a one-off send (send-message/1)', () => {
  let sender: { id: number; clientid: string; phonenumber: string };
  let memberSender: TestUser;
  const send = (u: TestUser, targets: string | string[], message = 'Halo dari WA Blaster') =>
    wa(u).post('/send-message/1', { senders: sender.phonenumber, targets, message });
  const sentBy = () => deliveries.filter((d) => d.clientId === sender.clientid);
  beforeAll(async () => {
    memberSender = await createUser(h.database.db, { role: 'member' });
    sender = (await connect(memberSender)).account;
  });

  it('a member sends to active target numbers only; any other number is refused, named', async () => {
    const outsider = await send(memberSender, `${TARGETS[0]},6281299999999`);
    expect(outsider.status).toBe(400);
    expect(outsider.body.msg).toBe('Receivers must be active target numbers: 6281299999999.');
    const nonactive = await send(memberSender, [TARGETS[0], NONACTIVE, '6281299999998']);
    expect(nonactive.status).toBe(400);
    expect(nonactive.body.msg).toBe(`Receivers must be active target numbers: ${NONACTIVE}, 6281299999998.`);
    expect(sentBy()).toEqual([]);

    const ok = await send(memberSender, `${TARGETS[3]}, 0${TARGETS[4].slice(2)}`);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ msg: 'Pesan blaster berhasil dikirim ke target.', jobId: expect.any(String), count: 2 });
    await until(() => sentBy().length === 2, 'the sends', 10_000);
    expect(sentBy().map((d) => [d.to, d.text])).toEqual([
      [TARGETS[3], 'Halo dari WA Blaster'],
      [TARGETS[4], 'Halo dari WA Blaster'],
    ]);
  });

  it("a member's 'All' is the 100 active numbers least recently sent; more than 100 numbers is refused", async () => {
    deliveries = [];
    const all = await send(memberSender, 'All');
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(100);
    await until(() => sentBy().length === 100, 'the sends', 10_000);
    // never sent first (T0–T49), then the longest ago (T104 down to T55)
    const expected = [...TARGETS.slice(0, 50), ...TARGETS.slice(55).reverse()];
    expect(sentBy().map((d) => d.to)).toEqual(expected);

    const many = await send(memberSender, TARGETS.slice(0, 101));
    expect(many.status).toBe(400);
    expect(many.body.msg).toBe('A member can send to at most 100 receivers at once. Start a blast to reach the rest.');
  });

  it('admin and dev send to any number, up to 1,000; staff and callers without a token cannot', async () => {
    deliveries = [];
    for (const u of [admin, dev]) {
      const res = await send(u, '6281200000001,081200000002');
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(2);
    }
    await until(() => sentBy().length === 4, 'the sends', 10_000);
    const numbers = Array.from({ length: 1001 }, (_, i) => `62813${String(i).padStart(8, '0')}`);
    const tooMany = await send(admin, numbers.join(','));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toBe('At most 1000 receivers per message.');
    expect((await send(staff, TARGETS[0])).status).toBe(403);
    const none = await request(h.app)
      .post('/api/admin/whatsapp/send-message/1')
      .send({ senders: sender.phonenumber, targets: TARGETS[0], message: 'x' });
    expect(none.status).toBe(401);
  });

  it("refuses more than a member's cap waiting on one account (429); a dropped connection ends the sends", async () => {
    // 1,000 interval "seconds" of 1 ms: one message a second, so the queue stays full for the test
    expect((await wa(memberSender).put('/interval', { id: sender.id, interval: 1000 })).status).toBe(200);
    expect((await send(memberSender, 'All')).status).toBe(200);
    const more = await send(memberSender, TARGETS[0]);
    expect(more.status).toBe(429);
    expect(more.body.msg).toMatch(
      new RegExp(
        `^${sender.phonenumber} still has (99|100) messages waiting to be sent\\. Send more once they are through\\.$`,
      ),
    );
    // admin and dev may queue up to their own cap
    expect((await send(admin, '6281200000003')).status).toBe(200);

    const dropped = nextEvent(`client-${memberSender.id}`, 'connection.update');
    sim().control(sender.clientid).disconnect();
    await dropped;
    const [left] = await rows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from whatsapp_sends where whatsapp_id = ${sender.id} and status = 'sending'`,
    );
    expect(left?.n).toBe(0);
    const back = nextEvent(`client-${memberSender.id}`, 'connection.update');
    sim().control(sender.clientid).reconnect();
    await back;
    expect((await wa(memberSender).put('/interval', { id: sender.id, interval: 0 })).status).toBe(200);
    expect((await send(memberSender, TARGETS[0])).status).toBe(200);
  });
});

describe('GET /phonenumber/receivers: the numbers the blaster form offers', () => {
  const receivers = (u: TestUser, q = '') =>
    request(h.app).get(`/api/admin/phonenumber/receivers${q}`).set(bearer(u.token));

  it('gives member, admin and dev the active numbers (id, number, name), least recently sent first, at most 100', async () => {
    for (const u of [member, admin, dev]) {
      const res = await receivers(u);
      expect(res.status).toBe(200);
      expect(res.body.list).toHaveLength(100);
      expect(Object.keys(res.body.list[0]).sort()).toEqual(['id', 'name', 'number']);
      expect(res.body.list[0]).toMatchObject({ number: TARGETS[0], name: 'Target 0' });
      expect(res.body.list.map((r: { number: string }) => r.number)).not.toContain(NONACTIVE);
    }
  });

  it('searches by number (also typed as 08…) or by name, and takes a smaller limit', async () => {
    const byNumber = await receivers(member, `?search=0${TARGETS[104].slice(2)}`);
    expect(byNumber.body.list).toEqual([{ id: expect.any(Number), number: TARGETS[104], name: 'Target 104' }]);
    const byName = await receivers(member, '?search=target%2010');
    expect(byName.body.list.map((r: { name: string }) => r.name).sort()).toEqual(
      ['Target 10', 'Target 100', 'Target 101', 'Target 102', 'Target 103', 'Target 104'].sort(),
    );
    expect((await receivers(member, `?search=${NONACTIVE}`)).body.list).toEqual([]);
    expect((await receivers(member, '?limit=5')).body.list).toHaveLength(5);
    const tooMany = await receivers(member, '?limit=500');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toBe('limit must be at most 100.');
  });

  it('refuses staff and a caller without a token', async () => {
    expect((await receivers(staff)).status).toBe(403);
    expect((await request(h.app).get('/api/admin/phonenumber/receivers')).status).toBe(401);
  });
});
