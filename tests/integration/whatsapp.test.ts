import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { OPEN_SESSION_JOB } from '../../core/src/jobs/names';
import type { SimDelivery, SimDriver } from '../../workers/src/drivers/sim';
import { bearer } from '../support/api';
import { createUser, type TestUser } from '../support/factories';
import {
  connectAccount,
  newDeviceId,
  nextEvent as nextEventOn,
  startWaHarness,
  type WaHarness,
  waApi,
} from '../support/wa-engine';

// the simulated phone pairs quickly (yet after the GET qr of a loaded machine) and every send
// succeeds, so the tests are about the rules
process.env.SIM_PAIR_DELAY_MS = '500';
process.env.SIM_RESTORE_DELAY_MS = '20';
process.env.SIM_SEND_LATENCY_MS = '0';
process.env.SIM_SEND_FAIL_RATE = '0';

let h: WaHarness;
let deliveries: SimDelivery[] = [];
let admin: TestUser;
let dev: TestUser;
let member: TestUser;
let other: TestUser;
let staff: TestUser;

/** the active target numbers T0…T104 (T0–T49 never sent, then ever older) and one nonactive number */
const TARGETS = Array.from({ length: 105 }, (_, i) => `62877100${String(i).padStart(5, '0')}`);
const NONACTIVE = '6287719999999';

beforeAll(async () => {
  // one interval "second" is 1 ms, so a one-off send's pacing costs nothing here
  h = await startWaHarness({ blastSecondMs: 1 });
  (h.engine.driver as SimDriver).onDelivered((d) => deliveries.push(d));
  for (const [i, number] of TARGETS.entries()) {
    const lastSent = i < 50 ? null : new Date(Date.now() - i * 60_000).toISOString();
    await h.database.db.execute(
      sql`insert into phone_numbers (number, name, status, last_sent) values (${number}, ${`Target ${i}`}, 'active', ${lastSent})`,
    );
  }
  await h.database.db.execute(
    sql`insert into phone_numbers (number, name, status) values (${NONACTIVE}, 'Nonaktif', 'nonactive')`,
  );
  admin = await createUser(h.database.db, { role: 'admin' });
  dev = await createUser(h.database.db, { role: 'dev' });
  member = await createUser(h.database.db, { role: 'member' });
  other = await createUser(h.database.db, { role: 'member' });
  staff = await createUser(h.database.db, { role: 'staff' });
});
afterAll(async () => {
  await h.close();
});

const wa = (u: TestUser) => waApi(h, u);
const nextEvent = (channel: string, event: string, timeoutMs?: number) => nextEventOn(h, channel, event, timeoutMs);
const connect = (u: TestUser, opts: { phoneNumber?: string } = {}) => connectAccount(h, u, opts);

const sim = () => h.engine.driver as SimDriver;
const open = (u: TestUser, extra: object = {}) => wa(u).post('/new-client', { deviceId: newDeviceId(), ...extra });
const remove = (u: TestUser, deviceId: string) => wa(u).post('/remove-client', { deviceId });

async function eventuallyTrue(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('connecting an account', () => {
  it('connects by QR: new-client, qr, authenticated, save; the account is connected and held by the worker', async () => {
    const { deviceId, qr, info, account } = await connect(member);
    expect(qr.qr).toMatch(/^2@/);
    expect(info.phonenumber).toMatch(/^62\d{9,11}$/);
    expect(account).toMatchObject({
      clientid: deviceId,
      userId: member.id,
      state: 'connected',
      phonenumber: info.phonenumber,
    });
    const [row] = await rows<{ worker_id: string | null; stored: boolean }>(
      h.database.db,
      sql`select worker_id, exists(select 1 from whatsapp_sessions where session_id = ${deviceId}) as stored
          from whatsapp_accounts where clientid = ${deviceId}`,
    );
    expect(row).toEqual({ worker_id: h.engine.host.workerId, stored: true });
    const count = await wa(member).get(`/count/${member.id}`);
    expect(count.body).toEqual({ connectedCount: 1, disconnectedCount: 0 });
  });

  it('connects by pairing code for the number typed, shown as 8 characters', async () => {
    const { qr, info } = await connect(member, { phoneNumber: '6281355500011' });
    expect(qr.code).toMatch(/^[A-Z0-9]{8}$/);
    expect(info.phonenumber).toBe('6281355500011');
  });

  it('refuses a pairing number that does not start with 62, and a malformed device id', async () => {
    const bad = await wa(member).post('/new-client', { deviceId: newDeviceId(), phoneNumber: '081355500011' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/62/);
    const badId = await wa(member).post('/new-client', { deviceId: 'hello' });
    expect(badId.status).toBe(400);
  });

  it('picks the least used active proxy at new-client, but counts its use only when the account is saved', async () => {
    await h.database.db.execute(sql`insert into proxies (value, status, count_use) values
      ('10.0.0.1:8080', 'active', 5), ('10.0.0.2:8080', 'active', 1), ('10.0.0.3:8080', 'nonactive', 0)`);
    const uses = async () =>
      Object.fromEntries(
        (
          await rows<{ value: string; count_use: number }>(
            h.database.db,
            sql`select value, count_use from proxies order by value`,
          )
        ).map((p) => [p.value, p.count_use]),
      );
    const [{ id: busy } = { id: 0 }] = await rows<{ id: number }>(
      h.database.db,
      sql`select id from proxies where value = '10.0.0.1:8080'`,
    );
    const saver = await createUser(h.database.db, { role: 'member' });

    // a login that is removed unsaved leaves the count as it was
    const dropped = await wa(saver).post('/new-client', { deviceId: newDeviceId() });
    expect(dropped.status).toBe(201);
    const [p] = await rows<{ value: string }>(
      h.database.db,
      sql`select value from proxies where id = ${dropped.body.proxyId}`,
    );
    expect(p?.value).toBe('10.0.0.2:8080');
    expect(await uses()).toEqual({ '10.0.0.1:8080': 5, '10.0.0.2:8080': 1, '10.0.0.3:8080': 0 });
    expect((await wa(saver).post('/remove-client', { deviceId: dropped.body.deviceId })).status).toBe(200);
    expect(await uses()).toEqual({ '10.0.0.1:8080': 5, '10.0.0.2:8080': 1, '10.0.0.3:8080': 0 });

    // saved: the proxy the login got is the account's and counts once, whatever the body claims
    const deviceId = newDeviceId();
    const authenticated = nextEvent(`client-${saver.id}`, 'authenticated');
    const created = await wa(saver).post('/new-client', { deviceId });
    expect(created.status).toBe(201);
    const info = (await authenticated).clientInfo as Record<string, string>;
    expect(await uses()).toEqual({ '10.0.0.1:8080': 5, '10.0.0.2:8080': 1, '10.0.0.3:8080': 0 });
    const saved = await wa(saver).post('/save', { clientid: deviceId, ...info, proxyId: busy, user_id: saver.id });
    expect(saved.status).toBe(201);
    expect(saved.body.whatsapp.proxyId).toBe(created.body.proxyId);
    expect(await uses()).toEqual({ '10.0.0.1:8080': 5, '10.0.0.2:8080': 2, '10.0.0.3:8080': 0 });
  });

  it('a QR that never comes times out with "Request timed out"', async () => {
    const res = await wa(member).get(`/qr-new-client/${newDeviceId()}`);
    expect(res.status).toBe(504);
    expect(res.body.msg).toBe('Request timed out');
  });

  it("another member cannot read or stop someone else's login in progress", async () => {
    const deviceId = newDeviceId();
    await wa(member).post('/new-client', { deviceId });
    const qr = await wa(other).get(`/qr-new-client/${deviceId}`);
    expect(qr.status).toBe(403);
    const rm = await wa(other).post('/remove-client', { deviceId });
    expect(rm.status).toBe(403);
    const mine = await wa(member).post('/remove-client', { deviceId });
    expect(mine.body).toEqual({ deviceId, removed: true });
  });

  it('refuses to save a login that did not authenticate, and an empty payload', async () => {
    const empty = await wa(member).post('/save', {});
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('No Data');
    const deviceId = newDeviceId();
    await wa(member).post('/new-client', { deviceId, phoneNumber: '6281355500099' });
    expect((await wa(member).get(`/qr-new-client/${deviceId}`)).body.code).toMatch(/^[A-Z0-9]{8}$/);
    // the code is shown; the simulated phone has not entered it yet
    const early = await wa(member).post('/save', { clientid: deviceId });
    expect(early.status).toBe(400);
    expect(early.body.msg).toBe('The account is not logged in yet.');
    await remove(member, deviceId);
    // a login that is over cannot be saved
    const gone = await wa(member).post('/save', { clientid: deviceId });
    expect(gone.status).toBe(400);
    expect(gone.body.msg).toBe('This login is no longer running. Generate a new QR code.');
  });
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
    await eventuallyTrue(async () => deliveries.filter((d) => d.clientId === acc.clientid).length === 2);

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

  it('a logout on the phone marks the account logged out and deletes its stored session', async () => {
    const fresh = (await connect(member)).account;
    const out = nextEvent(`client-${member.id}`, 'connection.update');
    await sim().control(fresh.clientid).logout();
    expect(await out).toMatchObject({ deviceId: fresh.clientid, state: 'loggedOut' });
    await new Promise((r) => setTimeout(r, 100));
    const [row] = await rows<{ state: string; stored: boolean }>(
      h.database.db,
      sql`select state, exists(select 1 from whatsapp_sessions where session_id = clientid) as stored
          from whatsapp_accounts where id = ${fresh.id}`,
    );
    expect(row).toEqual({ state: 'loggedOut', stored: false });
  });
});

describe('logins in progress (new-client): caps per user', () => {
  const USER_CAP = (n: number) =>
    `You already have ${n} WhatsApp logins in progress. Finish or cancel one, or wait until its code expires.`;

  it('a member and a staff user may have 2 unsaved logins at once; the third is refused with 429 until one is removed', async () => {
    for (const role of ['member', 'staff'] as const) {
      const u = await createUser(h.database.db, { role });
      const a = await open(u);
      const b = await open(u);
      expect([a.status, b.status]).toEqual([201, 201]);
      const refusedId = newDeviceId();
      const third = await wa(u).post('/new-client', { deviceId: refusedId });
      expect(third.status).toBe(429);
      expect(third.body).toEqual({ msg: USER_CAP(2) });
      // nothing was started for the refused one
      await new Promise((r) => setTimeout(r, 50));
      expect(Object.keys(h.engine.host.states())).not.toContain(refusedId);
      expect((await remove(u, a.body.deviceId)).body).toEqual({ deviceId: a.body.deviceId, removed: true });
      const again = await open(u);
      expect(again.status).toBe(201);
      await remove(u, b.body.deviceId);
      await remove(u, again.body.deviceId);
    }
  });

  it('admin and dev may have 10 unsaved logins at once', async () => {
    for (const role of ['admin', 'dev'] as const) {
      const u = await createUser(h.database.db, { role });
      const opened: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await open(u);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        opened.push(res.body.deviceId);
      }
      const eleventh = await open(u);
      expect(eleventh.status).toBe(429);
      expect(eleventh.body.msg).toBe(USER_CAP(10));
      for (const d of opened) await remove(u, d);
    }
  });

  it('a saved login no longer counts', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    await connect(u);
    await connect(u);
    const a = await open(u);
    const b = await open(u);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await open(u)).status).toBe(429);
    await remove(u, a.body.deviceId);
    await remove(u, b.body.deviceId);
  });

  it('keeps an unsaved login about two minutes past its code, not ten; a caller without a token is refused', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const res = await open(u);
    const qr = await wa(u).get(`/qr-new-client/${res.body.deviceId}`);
    expect(qr.status).toBe(200);
    const [row] = await rows<{ left: number }>(
      h.database.db,
      sql`select extract(epoch from expires_at - now())::int as left from whatsapp_logins where device_id = ${res.body.deviceId}`,
    );
    expect(row?.left).toBeGreaterThan(90);
    expect(row?.left).toBeLessThanOrEqual(150);
    await remove(u, res.body.deviceId);
    const none = await request(h.app).post('/api/admin/whatsapp/new-client').send({ deviceId: newDeviceId() });
    expect(none.status).toBe(401);
  });
});

describe('logins in progress: a worker holds at most its cap, and an unsaved login expires', () => {
  const BUSY = 'Every WhatsApp worker is busy with other logins. Try again in a minute.';
  let h2: WaHarness;
  let m1: TestUser;
  let m2: TestUser;
  let m3: TestUser;
  beforeAll(async () => {
    // three unsaved logins per worker; the phone scans 2.5 s after the code, a login lives 3 s past its last sign of life
    h2 = await startWaHarness({ maxPendingLogins: 3, pendingTtlMs: 3000, pairDelayMs: 2500 });
    m1 = await createUser(h2.database.db, { role: 'member' });
    m2 = await createUser(h2.database.db, { role: 'member' });
    m3 = await createUser(h2.database.db, { role: 'member' });
  });
  afterAll(async () => {
    await h2.close();
  });
  const wa2 = (u: TestUser) => waApi(h2, u);
  const open2 = (u: TestUser) => wa2(u).post('/new-client', { deviceId: newDeviceId() });

  it('past the cap new-client answers 429 and starts nothing; a removed login frees its place', async () => {
    const a = await open2(m1);
    const b = await open2(m1);
    const c = await open2(m2);
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    const refused = await open2(m3);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ msg: BUSY });
    await new Promise((r) => setTimeout(r, 100));
    expect(h2.engine.host.size).toBe(3);
    await wa2(m1).post('/remove-client', { deviceId: a.body.deviceId });
    const d = await open2(m3);
    expect(d.status).toBe(201);
    for (const [u, id] of [
      [m1, b.body.deviceId],
      [m2, c.body.deviceId],
      [m3, d.body.deviceId],
    ] as const) {
      await wa2(u).post('/remove-client', { deviceId: id });
    }
    expect(h2.engine.host.size).toBe(0);
  });

  it('a login job that reaches a full worker waits for a free place instead of starting a fourth session', async () => {
    const opened = [await open2(m1), await open2(m1), await open2(m2)];
    expect(opened.map((r) => r.status)).toEqual([201, 201, 201]);
    // another API replica let this one through at the same moment
    const late = newDeviceId();
    await h2.database.db.execute(sql`insert into whatsapp_logins (device_id, user_id, requested_by, expires_at)
      values (${late}, ${m3.id}, ${m3.id}, now() + interval '2 minutes')`);
    await h2.queue.add(OPEN_SESSION_JOB, { deviceId: late, userId: m3.id }, { jobId: late });
    await new Promise((r) => setTimeout(r, 300));
    expect(Object.keys(h2.engine.host.states())).not.toContain(late);
    expect(h2.engine.host.size).toBe(3);
    await wa2(m1).post('/remove-client', { deviceId: opened[0]?.body.deviceId });
    const end = Date.now() + 5000;
    while (!Object.keys(h2.engine.host.states()).includes(late) && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(Object.keys(h2.engine.host.states())).toContain(late);
    expect(h2.engine.host.size).toBe(3);
    await wa2(m1).post('/remove-client', { deviceId: opened[1]?.body.deviceId });
    await wa2(m2).post('/remove-client', { deviceId: opened[2]?.body.deviceId });
    await wa2(m3).post('/remove-client', { deviceId: late });
  });

  it('a login scanned late in its countdown is still saved; one nobody saves is dropped and no longer counts', async () => {
    await h2.database.db.execute(
      sql`insert into proxies (value, status, count_use) values ('10.9.0.1:8080', 'active', 0)`,
    );
    const authenticated = (deviceId: string) =>
      nextEventOn(h2, `client-${m1.id}`, 'authenticated', 6000, (p) => p.deviceId === deviceId);
    const late = newDeviceId();
    const lost = newDeviceId();
    const lateAuth = authenticated(late);
    const lostAuth = authenticated(lost);
    expect((await wa2(m1).post('/new-client', { deviceId: late })).status).toBe(201);
    expect((await wa2(m1).post('/new-client', { deviceId: lost })).status).toBe(201);
    const shownAt = Date.now();
    expect((await wa2(m1).get(`/qr-new-client/${late}`)).status).toBe(200);
    const info = (await lateAuth).clientInfo as Record<string, string>;
    await lostAuth;
    // past the TTL counted from the code: the scan keeps both alive
    while (Date.now() - shownAt < 3300) await new Promise((r) => setTimeout(r, 50));
    await h2.engine.host.renew();
    expect(Object.keys(h2.engine.host.states())).toEqual(expect.arrayContaining([late, lost]));
    const saved = await wa2(m1).post('/save', { clientid: late, ...info, user_id: m1.id });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);

    // the other one is never saved: a TTL after the scan its session and its place are gone
    while (Date.now() - shownAt < 6300) await new Promise((r) => setTimeout(r, 50));
    await h2.engine.host.renew();
    expect(Object.keys(h2.engine.host.states())).toEqual([late]);
    const [left] = await rows<{ n: number }>(
      h2.database.db,
      sql`select count(*)::int as n from whatsapp_logins where device_id = ${lost}`,
    );
    expect(left?.n).toBe(0);
    const [proxy] = await rows<{ count_use: number }>(
      h2.database.db,
      sql`select count_use from proxies where value = '10.9.0.1:8080'`,
    );
    expect(proxy?.count_use).toBe(1);
    const a = await open2(m1);
    const b = await open2(m1);
    expect([a.status, b.status]).toEqual([201, 201]);
    await wa2(m1).post('/remove-client', { deviceId: a.body.deviceId });
    await wa2(m1).post('/remove-client', { deviceId: b.body.deviceId });
  }, 15_000);
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
    await eventuallyTrue(async () => sentBy().length === 2);
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
    await eventuallyTrue(async () => sentBy().length === 100);
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
    await eventuallyTrue(async () => sentBy().length === 4);
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
