import { TOOL_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { SimDriver } from '../../workers/src/drivers/sim';
import { useToolSuite } from '../support/tools';
import { nextEvent } from '../support/wa-engine';

/**
 * The number generator (§5 Generator): who may use it and what the form refuses, a run over its
 * range on the simulator, stopping, retries, and a run that survives its worker. The validator:
 * validators.test.ts.
 */

const { h, users, staffAcc, adminAcc, gen, range, registered, q } = useToolSuite();
const { admin, staff, dev, member } = users;

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
    expect(mine.status).toBe(200);
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
    expect(created.status).toBe(200);
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
      // a wait of an hour between numbers (7 s of this suite's compressed seconds): the stop lands in it
      range('6281400000000', '6281400000019', { interval_min: 3600, interval_max: 3600, b_insert: 0 }),
    );
    const id = created.body.generator.id;
    const waiting = nextEvent(h, `client-${staff.id}`, 'waiting', 5000, (p) => p.generatorId === id);
    expect((await gen(staff).post('/start', { id })).status).toBe(200);
    expect((await waiting).waitTime).toBe(3600);
    const stopEvent = nextEvent(h, 'client-admin', 'stop', 5000, (p) => p.generatorId === id);
    const stopped = await gen(staff).post('/stop', { id });
    expect(stopped.status).toBe(200);
    await stopEvent;
    // the row was written before the stop was answered; a window in which no further number may be checked
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
