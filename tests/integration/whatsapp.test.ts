import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/src/db/client';
import type { SimDriver } from '../../workers/src/drivers/sim';
import { createUser, type TestUser } from '../support/factories';
import {
  connectAccount,
  newDeviceId,
  nextEvent as nextEventOn,
  startWaHarness,
  type WaHarness,
  waApi,
} from '../support/wa-engine';

// the simulated phone pairs quickly and every send succeeds, so the tests are about the rules
process.env.SIM_PAIR_DELAY_MS = '150';
process.env.SIM_RESTORE_DELAY_MS = '20';
process.env.SIM_SEND_LATENCY_MS = '0';
process.env.SIM_SEND_FAIL_RATE = '0';

let h: WaHarness;
let admin: TestUser;
let dev: TestUser;
let member: TestUser;
let other: TestUser;
let staff: TestUser;

beforeAll(async () => {
  h = await startWaHarness();
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

  it('assigns the least used active proxy and counts its use', async () => {
    await h.database.db.execute(sql`insert into proxies (value, status, count_use) values
      ('10.0.0.1:8080', 'active', 5), ('10.0.0.2:8080', 'active', 1), ('10.0.0.3:8080', 'nonactive', 0)`);
    const res = await wa(member).post('/new-client', { deviceId: newDeviceId() });
    const [p] = await rows<{ value: string; count_use: number }>(
      h.database.db,
      sql`select value, count_use from proxies where id = ${res.body.proxyId}`,
    );
    expect(p).toEqual({ value: '10.0.0.2:8080', count_use: 2 });
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
    // the simulated phone has not entered the code yet
    const early = await wa(member).post('/save', { clientid: deviceId });
    expect(early.status).toBe(400);
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

  it('sends a one-off message from a connected sender, and refuses a sender that is not connected', async () => {
    const ok = await wa(other).post('/send-message/1', {
      senders: acc.phonenumber,
      targets: '6281200000001,081200000002',
      message: 'Halo',
    });
    expect(ok.status).toBe(200);
    expect(ok.body.sent).toEqual(['6281200000001', '6281200000002']);
    expect(
      (await wa(member).post('/send-message/1', { senders: acc.phonenumber, targets: '6281200000001', message: 'x' }))
        .status,
    ).toBe(404);
    expect(
      (await wa(other).post('/send-message/1', { senders: acc.phonenumber, targets: '', message: 'x' })).status,
    ).toBe(400);

    const dropped = nextEvent(`client-${other.id}`, 'connection.update');
    sim().control(acc.clientid).disconnect();
    expect(await dropped).toMatchObject({ deviceId: acc.clientid, state: 'disconnected' });
    const refused = await wa(other).post('/send-message/1', {
      senders: acc.phonenumber,
      targets: '6281200000001',
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
