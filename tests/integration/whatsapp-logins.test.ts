import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rows } from '../../core/src/db/client';
import { OPEN_SESSION_JOB } from '../../core/src/jobs/names';
import { createUser, type TestUser, useUsers } from '../support/factories';
import {
  newDeviceId,
  nextEvent as nextEventOn,
  setSimEnv,
  startWaHarness,
  useWaHarness,
  type WaHarness,
  waApi,
  waHelpers,
} from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Logging a WhatsApp account in (new-client, qr, save) and the logins in progress: the caps per
 * user and per worker, and how long an unsaved login lives. The saved accounts and what they send:
 * whatsapp-accounts.test.ts.
 */

// the simulated phone pairs quickly (yet after the GET qr of a loaded machine) and every send
// succeeds, so the tests are about the rules
setSimEnv({ pairDelayMs: 500, restoreDelayMs: 20, sendLatencyMs: 0, sendFailRate: 0 });

// one interval "second" is 1 ms, so a one-off send's pacing costs nothing here
const h = useWaHarness({ blastSecondMs: 1 });
const { member, other, admin } = useUsers(() => h.database.db, { member: 'member', other: 'member', admin: 'admin' });
const { wa, nextEvent, connect } = waHelpers(h);
const open = (u: TestUser, extra: object = {}) => wa(u).post('/new-client', { deviceId: newDeviceId(), ...extra });
const remove = (u: TestUser, deviceId: string) => wa(u).post('/remove-client', { deviceId });

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

  it('records the engine an admin chose on the login and on the account; members get the default and may not choose', async () => {
    const { deviceId, account } = await connect(admin, { engine: 'baileys' });
    const [row] = await rows<{ engine: string | null }>(
      h.database.db,
      sql`select engine from whatsapp_accounts where clientid = ${deviceId}`,
    );
    expect(row).toEqual({ engine: 'baileys' });
    // the account says which engine it runs on; a reconnect keeps it unless an admin picks another
    const listed = await wa(admin).get(`/${account.id}`);
    expect(listed.body.whatsapp).toMatchObject({ clientid: deviceId, engine: 'baileys' });
    const again = newDeviceId();
    expect((await wa(admin).post('/new-client', { deviceId: again, previousDeviceId: deviceId })).status).toBe(201);
    const [login] = await rows<{ engine: string | null }>(
      h.database.db,
      sql`select engine from whatsapp_logins where device_id = ${again}`,
    );
    expect(login).toEqual({ engine: 'baileys' });
    await remove(admin, again);
    const chosen = await wa(member).post('/new-client', { deviceId: newDeviceId(), engine: 'baileys' });
    expect(chosen.status).toBe(403);
    const bad = await wa(admin).post('/new-client', { deviceId: newDeviceId(), engine: 'chromium' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('Engine must be "wwebjs" or "baileys".');
    // the simulator installation has no default engine: a member's account records none
    const plain = await connect(member);
    const [mine] = await rows<{ engine: string | null }>(
      h.database.db,
      sql`select engine from whatsapp_accounts where clientid = ${plain.deviceId}`,
    );
    expect(mine).toEqual({ engine: null });
  });

  it('never gives a whatsapp-web.js login a SOCKS proxy with credentials (Chromium cannot use it); a Baileys login may get it', async () => {
    const db = h.database.db;
    await db.execute(
      sql`insert into proxies (value, status, count_use) values ('socks5://u:p@10.7.0.1:1080', 'active', -1000)`,
    );
    try {
      const browser = await wa(admin).post('/new-client', { deviceId: newDeviceId(), engine: 'wwebjs' });
      const browserless = await wa(admin).post('/new-client', { deviceId: newDeviceId(), engine: 'baileys' });
      const value = async (id: number | null) =>
        (await rows<{ value: string }>(db, sql`select value from proxies where id = ${id}`))[0]?.value ?? null;
      expect(await value(browser.body.proxyId)).not.toBe('socks5://u:p@10.7.0.1:1080');
      expect(await value(browserless.body.proxyId)).toBe('socks5://u:p@10.7.0.1:1080');
      await remove(admin, browser.body.deviceId);
      await remove(admin, browserless.body.deviceId);
    } finally {
      await db.execute(sql`delete from proxies where value = 'socks5://u:p@10.7.0.1:1080'`);
    }
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
      // nothing was started for the refused one: it was never queued, so a short window in which
      // nothing may appear is all there is to check
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
    // the three admitted logins start from their jobs, after new-client answered
    await until(() => h2.engine.host.size >= 3, 'the three admitted logins to start');
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
    await until(() => h2.engine.host.size === 3, 'the three logins to start');
    // another API replica let this one through at the same moment
    const late = newDeviceId();
    await h2.database.db.execute(sql`insert into whatsapp_logins (device_id, user_id, requested_by, expires_at)
      values (${late}, ${m3.id}, ${m3.id}, now() + interval '2 minutes')`);
    const tries = vi.spyOn(h2.engine.host, 'openLogin');
    try {
      await h2.queue.add(OPEN_SESSION_JOB, { deviceId: late, userId: m3.id }, { jobId: late });
      // the job reached the full worker, which put it back rather than start it
      await until(
        () =>
          tries.mock.settledResults.some((r, i) => r.value === 'full' && tries.mock.calls[i]?.[0].deviceId === late),
        'the login job to find the worker full',
      );
    } finally {
      tries.mockRestore();
    }
    expect(Object.keys(h2.engine.host.states())).not.toContain(late);
    expect(h2.engine.host.size).toBe(3);
    await wa2(m1).post('/remove-client', { deviceId: opened[0]?.body.deviceId });
    // the job comes back a second later (LOGIN_HOP_DELAY_MS) and finds the place
    await until(() => Object.keys(h2.engine.host.states()).includes(late), 'the late login to start');
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
    // both scans were heard by now: from here each login lives a TTL (3 s)
    const scannedAt = Date.now();
    // past the TTL counted from the code: the scan keeps both alive (real time the engine measures)
    while (Date.now() - shownAt < 3300) await new Promise((r) => setTimeout(r, 50));
    await h2.engine.host.renew();
    expect(Object.keys(h2.engine.host.states())).toEqual(expect.arrayContaining([late, lost]));
    const saved = await wa2(m1).post('/save', { clientid: late, ...info, user_id: m1.id });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);

    // the other one is never saved: a TTL after the scan its session and its place are gone (6.3 s
    // after the code, and at least 3.3 s after the scans were heard, should they come late)
    while (Date.now() - shownAt < 6300 || Date.now() - scannedAt < 3300) await new Promise((r) => setTimeout(r, 50));
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
