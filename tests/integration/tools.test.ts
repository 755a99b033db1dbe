import { TOOL_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../server/src/db/client';
import { type SimDriver, simConfigFromEnv, simIsRegistered } from '../../workers/src/drivers/sim';
import { bearer } from '../support/api';
import { createUser, type TestUser } from '../support/factories';
import { connectAccount, nextEvent, startWaHarness, type WaHarness } from '../support/wa-engine';

// quick pairing; a third of the numbers are on WhatsApp; one interval "second" is 2 ms
process.env.SIM_PAIR_DELAY_MS = '100';
process.env.SIM_RESTORE_DELAY_MS = '20';
process.env.SIM_SEND_LATENCY_MS = '1';
process.env.SIM_REGISTERED_RATE = '0.35';

let h: WaHarness;
let admin: TestUser;
let staff: TestUser;
let dev: TestUser;
let member: TestUser;
let staffAcc: { id: number; clientid: string; phonenumber: string };
let adminAcc: { id: number; clientid: string; phonenumber: string };

const api = (u: TestUser | null, kind: 'generator' | 'validator') => {
  const auth = (r: request.Test) => (u ? r.set(bearer(u.token)) : r);
  return {
    get: (p: string) => auth(request(h.app).get(`/api/admin/${kind}${p}`)),
    post: (p: string, body: object) => auth(request(h.app).post(`/api/admin/${kind}${p}`)).send(body),
    put: (p: string, body: object) => auth(request(h.app).put(`/api/admin/${kind}${p}`)).send(body),
    del: (p: string) => auth(request(h.app).delete(`/api/admin/${kind}${p}`)),
  };
};
const gen = (u: TestUser | null) => api(u, 'generator');
const registered = (n: string) => simIsRegistered(simConfigFromEnv(), n);
const q = <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query);

beforeAll(async () => {
  h = await startWaHarness({ blastSecondMs: 2 });
  admin = await createUser(h.database.db, { role: 'admin' });
  staff = await createUser(h.database.db, { role: 'staff' });
  dev = await createUser(h.database.db, { role: 'dev' });
  member = await createUser(h.database.db, { role: 'member' });
  staffAcc = (await connectAccount(h, staff)).account;
  adminAcc = (await connectAccount(h, admin)).account;
});
afterAll(async () => {
  await h.close();
});

const range = (start: string, end: string, extra: object = {}) => ({
  start_number: start,
  end_number: end,
  whatsapp_id: staffAcc.id,
  b_insert: 1,
  interval_min: 0,
  interval_max: 0,
  ...extra,
});

describe('generators: who may, and what is refused', () => {
  it('refuses members and callers without a token on every route', async () => {
    for (const u of [member, null]) {
      const status = u ? 403 : 401;
      expect((await gen(u).get('/list-per-page?page=1')).status).toBe(status);
      expect((await gen(u).post('/create', range('6281200000000', '6281200000009'))).status).toBe(status);
      expect((await gen(u).get('/1')).status).toBe(status);
      expect((await gen(u).put('/1', {})).status).toBe(status);
      expect((await gen(u).del('/1')).status).toBe(status);
      expect((await gen(u).post('/start', { id: 1 })).status).toBe(status);
      expect((await gen(u).post('/stop', { id: 1 })).status).toBe(status);
      expect((await gen(u).get('/download-result/1')).status).toBe(status);
    }
    const res = await gen(member).get('/list-per-page?page=1');
    expect(res.body.msg).toBe('You are not allowed to do this.');
  });

  it('checks the form (§5): start after end, min above max, not a 62 number, a range too large, bad ids', async () => {
    const a = await gen(staff).post('/create', range('6281200000009', '6281200000000'));
    expect(a.status).toBe(400);
    expect(a.body.msg).toBe(TOOL_TEXTS.startAfterEnd);
    const b = await gen(staff).post(
      '/create',
      range('6281200000000', '6281200000009', { interval_min: 5, interval_max: 2 }),
    );
    expect(b.status).toBe(400);
    expect(b.body.msg).toBe(TOOL_TEXTS.minAfterMax);
    const c = await gen(staff).post('/create', range('hello', '6281200000009'));
    expect(c.status).toBe(400);
    expect(c.body.msg).toBe('Start number must be a phone number starting with 62.');
    const d = await gen(staff).post('/create', range('6281200000000', '6281299999999'));
    expect(d.status).toBe(400);
    expect(d.body.msg).toMatch(/at most 1,000,000 numbers/);
    expect((await gen(staff).post('/create', {})).status).toBe(400);
    expect((await gen(staff).get('/abc')).status).toBe(400);
    expect((await gen(staff).get('/999999')).status).toBe(404);
    const count = await q<{ n: number }>(sql`select count(*)::int as n from generators`);
    expect(count[0]?.n).toBe(0);
  });

  it("keeps each user's generators to themselves (dev sees all) and their accounts too", async () => {
    const notMine = await gen(staff).post(
      '/create',
      range('6281200000000', '6281200000009', { whatsapp_id: adminAcc.id }),
    );
    expect(notMine.status).toBe(403);
    const mine = await gen(admin).post(
      '/create',
      range('6281200000000', '6281200000009', { whatsapp_id: adminAcc.id }),
    );
    expect(mine.status).toBe(201);
    expect(mine.body.generator).toMatchObject({
      start_number: '6281200000000',
      end_number: '6281200000009',
      status: 'idle',
      progress: 0,
      Whatsapp: { id: adminAcc.id, clientid: adminAcc.clientid },
    });
    const id = mine.body.generator.id;
    expect((await gen(staff).get(`/${id}`)).status).toBe(403);
    expect((await gen(staff).post('/start', { id })).status).toBe(403);
    expect((await gen(staff).get('/list-per-page?page=1')).body.data).toEqual([]);
    const all = await gen(dev).get('/list-per-page?page=1');
    expect(all.body.data.map((g: { id: number }) => g.id)).toContain(id);
    expect(all.body.meta.totalPages).toBe(1);
    expect((await gen(dev).del(`/${id}`)).status).toBe(200);
  });
});

describe('a generator run', () => {
  it('checks every number of its range once, keeps those on WhatsApp, adds them to the targets, then finishes', async () => {
    const start = 6281300000000;
    const numbers = Array.from({ length: 40 }, (_, i) => String(start + i));
    const created = await gen(staff).post('/create', range(numbers[0] ?? '', numbers[39] ?? ''));
    expect(created.status).toBe(201);
    const id = created.body.generator.id;
    const done = nextEvent(h, `client-${staff.id}`, 'finished', 10_000, (p) => p.generatorId === id);
    const started = await gen(staff).post('/start', { id });
    expect(started.status).toBe(200);
    expect(started.body.data.status).toBe('generating');
    expect((await gen(staff).post('/start', { id })).status).toBe(409);
    expect(await done).toMatchObject({
      deviceId: staffAcc.clientid,
      generatorId: id,
      state: 'finished',
      progress: 100,
    });

    const found = numbers.filter(registered);
    expect(found.length).toBeGreaterThan(5);
    const g = (await gen(staff).get(`/${id}`)).body.generator;
    expect(g).toMatchObject({
      status: 'idle',
      state: 'finished',
      progress: 100,
      current_number: numbers[39],
      count_success: found.length,
      count_fail: 40 - found.length,
    });
    const result = await gen(staff).get(`/download-result/${id}`);
    expect(result.body.list).toEqual(found.map((number) => ({ number, name: '' })));
    const targets = await q<{ number: string }>(
      sql`select number from phone_numbers where number like '628130000%' order by number`,
    );
    expect(targets.map((t) => t.number)).toEqual(found);

    const again = await gen(staff).post('/start', { id });
    expect(again.status).toBe(400);
    expect(again.body.msg).toBe('Generator has finished. Edit it to start over.');
    // an edit starts over: counts, progress and results go
    const edited = await gen(staff).put(`/${id}`, range(numbers[0] ?? '', numbers[9] ?? '', { b_insert: 0 }));
    expect(edited.status).toBe(200);
    expect(edited.body.generator).toMatchObject({ progress: 0, count_success: 0, current_number: null, b_insert: 0 });
    expect((await gen(staff).get(`/download-result/${id}`)).body.list).toEqual([]);
  });

  it('stops between two numbers when asked, and a stopped generator goes on from where it was', async () => {
    const created = await gen(staff).post(
      '/create',
      range('6281400000000', '6281400000019', { interval_min: 20, interval_max: 20, b_insert: 0 }),
    );
    const id = created.body.generator.id;
    const waiting = nextEvent(h, `client-${staff.id}`, 'waiting', 5000, (p) => p.generatorId === id);
    expect((await gen(staff).post('/start', { id })).status).toBe(200);
    expect((await waiting).waitTime).toBe(20);
    const stopEvent = nextEvent(h, 'client-admin', 'stop', 5000, (p) => p.generatorId === id);
    const stopped = await gen(staff).post('/stop', { id });
    expect(stopped.status).toBe(200);
    await stopEvent;
    await new Promise((r) => setTimeout(r, 100));
    const g = (await gen(staff).get(`/${id}`)).body.generator;
    expect(g).toMatchObject({ status: 'idle', current_number: '6281400000000', progress: 5 });
    expect(g.count_success + g.count_fail).toBe(1);

    await h.database.db.execute(sql`update generators set interval_min = 0, interval_max = 0 where id = ${id}`);
    const done = nextEvent(h, `client-${staff.id}`, 'finished', 10_000, (p) => p.generatorId === id);
    expect((await gen(staff).post('/start', { id })).status).toBe(200);
    await done;
    const after = (await gen(staff).get(`/${id}`)).body.generator;
    expect(after.count_success + after.count_fail).toBe(20);
  });

  it("tries a check that fails again ('attempting' with its code), then counts it as not found", async () => {
    const created = await gen(staff).post('/create', range('6281700000000', '6281700000001', { b_insert: 0 }));
    const id = created.body.generator.id;
    const sim = h.engine.driver as SimDriver;
    sim.control(staffAcc.clientid).failChecks(4); // the first number fails 3 times, the second once
    const attempts: Record<string, unknown>[] = [];
    const off = await h.bus.subscribe(`ws:client-${staff.id}`, (m) => {
      const e = m as { event: string; payload: Record<string, unknown> };
      if (e.event === 'attempting' && e.payload.generatorId === id) attempts.push(e.payload);
    });
    const done = nextEvent(h, `client-${staff.id}`, 'finished', 10_000, (p) => p.generatorId === id);
    expect((await gen(staff).post('/start', { id })).status).toBe(200);
    await done;
    await off();
    expect(attempts.map((a) => [a.value, a.attempt, a.code])).toEqual([
      ['6281700000000', 1, 'failed'],
      ['6281700000000', 2, 'failed'],
      ['6281700000001', 1, 'failed'],
    ]);
    const g = (await gen(staff).get(`/${id}`)).body.generator;
    const second = registered('6281700000001');
    expect(g).toMatchObject({ count_success: second ? 1 : 0, count_fail: second ? 1 : 2, progress: 100 });
  });

  it('refuses to start on an account that is not connected', async () => {
    const created = await gen(staff).post('/create', range('6281500000000', '6281500000009'));
    const dropped = nextEvent(h, `client-${staff.id}`, 'connection.update');
    (h.engine.driver as SimDriver).control(staffAcc.clientid).disconnect();
    await dropped;
    const res = await gen(staff).post('/start', { id: created.body.generator.id });
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(`${staffAcc.phonenumber} is disconnected`);
    const back = nextEvent(h, `client-${staff.id}`, 'connection.update');
    (h.engine.driver as SimDriver).control(staffAcc.clientid).reconnect();
    await back;
  });
});

describe('a validator', () => {
  const val = (u: TestUser | null) => api(u, 'validator');
  const upload = (
    u: TestUser,
    file: { name: string; text: string } | null,
    fields: Record<string, string | number>,
  ) => {
    let r = request(h.app).post('/api/admin/validator/create').set(bearer(u.token));
    for (const [k, v] of Object.entries(fields)) r = r.field(k, String(v));
    if (file) r = r.attach('file', Buffer.from(file.text), file.name);
    return r;
  };

  it('refuses a missing file, a file of another type, a file without numbers, and members', async () => {
    const fields = { whatsapp_id: staffAcc.id, b_insert: 0, interval_min: 0, interval_max: 0 };
    const none = await upload(staff, null, fields);
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('File is required.');
    const txt = await upload(staff, { name: 'n.txt', text: '6281' }, fields);
    expect(txt.status).toBe(400);
    expect(txt.body.msg).toBe('File type not allowed: .txt');
    const empty = await upload(staff, { name: 'n.csv', text: 'number\nhello\n' }, fields);
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('The file holds no phone numbers.');
    const broken = await upload(staff, { name: 'n.json', text: '[{"number": "0812' }, fields);
    expect(broken.status).toBe(400);
    expect((await upload(member, { name: 'n.csv', text: '081200000001' }, fields)).status).toBe(403);
    expect((await val(null).get('/list-per-page?page=1')).status).toBe(401);
    const count = await q<{ n: number }>(sql`select count(*)::int as n from validators`);
    expect(count[0]?.n).toBe(0);
  });

  it("checks the file's numbers (0… written as 62…), keeps those on WhatsApp, and the file is kept with a link", async () => {
    const local = Array.from({ length: 25 }, (_, i) => `08160000${String(i).padStart(4, '0')}`);
    const csv = ['number,name', ...local.map((n, i) => `${n},Kontak ${i}`), 'not a number,x'].join('\n');
    const res = await upload(
      staff,
      { name: 'kontak.csv', text: csv },
      { whatsapp_id: staffAcc.id, b_insert: 0, interval_min: 0, interval_max: 0 },
    );
    expect(res.status).toBe(201);
    const v = res.body.validator;
    expect(v).toMatchObject({ fileName: 'kontak.csv', total: 25, position: 0, status: 'idle' });
    const file = await request(h.app).get(v.fileUrl);
    expect(file.status).toBe(200);
    expect(file.text).toBe(csv);

    const done = nextEvent(h, `client-${staff.id}`, 'finished', 10_000, (p) => p.validatorId === v.id);
    expect((await val(staff).post('/start', { id: v.id })).status).toBe(200);
    await done;
    const expected = local
      .map((n, i) => ({ number: `62${n.slice(1)}`, name: `Kontak ${i}` }))
      .filter((r) => registered(r.number));
    expect((await val(staff).get(`/download-result/${v.id}`)).body.list).toEqual(expected);
    const after = (await val(staff).get(`/${v.id}`)).body.validator;
    expect(after).toMatchObject({ position: 25, progress: 100, count_success: expected.length, state: 'finished' });
    const inserted = await q<{ n: number }>(
      sql`select count(*)::int as n from phone_numbers where number like '62816%'`,
    );
    expect(inserted[0]?.n).toBe(0); // b_insert 0: the target list is left alone

    const deleted = await val(staff).del(`/${v.id}`);
    expect(deleted.status).toBe(200);
    expect((await request(h.app).get(v.fileUrl)).status).toBe(404);
  });
});

describe('after a worker change', () => {
  it('a generator still on when its worker stops goes on on the worker that takes the account over', async () => {
    const created = await gen(staff).post(
      '/create',
      range('6281600000000', '6281600000011', { interval_min: 5, interval_max: 5, b_insert: 0 }),
    );
    const id = created.body.generator.id;
    const waiting = nextEvent(h, `client-${staff.id}`, 'waiting', 5000, (p) => p.generatorId === id);
    expect((await gen(staff).post('/start', { id })).status).toBe(200);
    await waiting;
    await h.engine.close();
    const done = nextEvent(h, `client-${staff.id}`, 'finished', 15_000, (p) => p.generatorId === id);
    await h.restartEngine();
    await done;
    const g = (await gen(staff).get(`/${id}`)).body.generator;
    expect(g.count_success + g.count_fail).toBe(12);
    expect(g.progress).toBe(100);
  });
});
