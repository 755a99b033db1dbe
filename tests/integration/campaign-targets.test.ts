import { CAMPAIGN_TARGET_TEXTS, CAMPAIGN_TEXTS, type CampaignDto, type PhoneNumberDto, SKIPPED_GONE } from '@wa/shared';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs, bearer, useApiWithRoles } from '../support/api';
import { type TestUser, useUsers } from '../support/factories';

/**
 * Issue 22, a campaign's targets: a client imports their own list into their campaign (the same
 * number may be in the pool and in other campaigns, once in each), a number opted out anywhere is
 * never taken, and the phone number screens keep seeing the default pool alone.
 */
const { h, admin, dev, member, staff } = useApiWithRoles();
const { client, other } = useUsers(() => h.database.db, { client: 'client', other: 'client' });
const campaigns = (u: TestUser | null) => apiAs(h, u, '/api/admin/campaigns');
const pool = (u: TestUser = admin) => apiAs(h, u, '/api/admin/phonenumber');

const csv = (...lines: string[]) => ['number,name,status', ...lines].join('\n');
const numbers = (list: { number: string }[]) => list.map((r) => r.number);
const reasons = (list: { number: string; reason: string }[]) => list.map((r) => [r.number, r.reason]);

async function draft(owner: TestUser): Promise<CampaignDto> {
  const res = await campaigns(owner).post('', { name: `Targets ${Math.random().toString(36).slice(2, 7)}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** Imports `content` into the campaign as `u`, expecting it done. */
async function importInto(u: TestUser, id: number, content: string, name = 'targets.csv') {
  const res = await campaigns(u).upload(`/${id}/targets/import`, name, content);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** What the pool's screens and the dashboard show: every figure a campaign import must leave alone. */
async function poolFigures() {
  const [stats] = await rows<{ n: number }>(
    h.database.db,
    sql`select row_count::int as n from table_stats where name = 'phone_numbers'`,
  );
  return {
    listed: (await pool().get('/list-per-page')).body.meta.total,
    streamed: (await pool().get('/list')).body.list.length,
    exported: (await pool().get('/export?format=json')).body.length,
    blast: (await pool().get('/count-blast')).body,
    firstRun: (await apiAs(h, admin).get('/admin/first-run')).body.targets,
    stats: Number(stats?.n),
  };
}

describe('importing a campaign’s targets', () => {
  it('keeps each list its own: the same number in two clients’ campaigns and the pool, once in each', async () => {
    const a = await draft(client);
    const b = await draft(other);
    await pool().upload('/import', 'pool.csv', csv('081255500001,Pool One'));
    const before = await poolFigures();

    const intoA = await importInto(
      client,
      a.id,
      csv('081255500001,A One', '081255500002,A Two', '0812-5550-0001,Again'),
    );
    expect(numbers(intoA.created)).toEqual(['6281255500001', '6281255500002']);
    expect(intoA.created[0]).toMatchObject({ name: 'A One', status: 'active', in_use: 0, last_sent: null });
    expect(reasons(intoA.skipped)).toEqual([['6281255500001', 'Duplicate in file']]);
    expect(intoA.skipped[0].id).toBe(intoA.created[0].id);
    expect(intoA).toMatchObject({ total: 2, skipped_total: 1, totalSkipped: 1, skipped_id: expect.any(String) });

    const intoB = await importInto(
      other,
      b.id,
      JSON.stringify([{ number: '081255500001', name: 'B One' }, '081255500002']),
      'targets.json',
    );
    expect(numbers(intoB.created)).toEqual(['6281255500001', '6281255500002']);
    expect(intoB.skipped).toEqual([]);
    expect(intoB.skipped_id).toBeNull();

    // a second import into A skips what A holds, with the row holding it, and adds the rest
    const again = await importInto(client, a.id, csv('081255500002,A Two again,nonactive', '081255500003,A Three'));
    expect(numbers(again.created)).toEqual(['6281255500003']);
    expect(again.skipped).toEqual([
      expect.objectContaining({
        number: '6281255500002',
        reason: 'Already registered',
        id: intoA.created[1].id,
        status: 'active',
      }),
    ]);

    const listA = await campaigns(client).get(`/${a.id}/targets`);
    expect(listA.status).toBe(200);
    expect(listA.body.meta).toEqual({ page: 1, pageSize: 10, total: 3, totalPages: 1 });
    expect(numbers(listA.body.data)).toEqual(['6281255500003', '6281255500002', '6281255500001']);
    const listB = await campaigns(other).get(`/${b.id}/targets?page=1`);
    expect(listB.body.meta.total).toBe(2);
    expect((listB.body.data as PhoneNumberDto[]).map((t) => t.name)).toEqual(['', 'B One']);

    // the pool's screens, counts and the dashboard see none of it
    expect(await poolFigures()).toEqual(before);
    const search = await pool().get('/list-per-page?search=081255500');
    expect(numbers(search.body.data)).toEqual(['6281255500001']);
    expect(search.body.data[0].name).toBe('Pool One');
    const receivers = await pool(member).get('/receivers?search=0812555');
    expect(numbers(receivers.body.list)).toEqual(['6281255500001']);
  });

  it('leaves the pool’s routes unable to read or change a campaign’s target, and the pool import its own judge', async () => {
    const c = await draft(client);
    const [target] = (await importInto(client, c.id, csv('081266600001,Campaign only'))).created;
    expect((await pool().get(`/${target.id}`)).status).toBe(404);
    expect((await pool().put(`/${target.id}`, { name: 'Hijacked' })).status).toBe(404);
    expect((await pool().del(`/${target.id}`)).status).toBe(404);
    expect((await campaigns(client).get(`/${c.id}/targets`)).body.data[0].name).toBe('Campaign only');
    // a number only a campaign holds is new to the pool, by hand or by import
    const saved = await pool().post('/save', { number: '081266600001', name: 'Pool copy' });
    expect(saved.status).toBe(201);
    const imported = await pool().upload('/import', 'pool.csv', csv('081266600001,Again', '081266600002,New'));
    expect(numbers(imported.body.created)).toEqual(['6281266600002']);
    expect(imported.body.skipped).toEqual([
      expect.objectContaining({ reason: 'Already registered', id: saved.body.phoneNumber.id }),
    ]);
  });

  it('skips a number opted out anywhere, as “Opted out”, in the answer and in the skipped list', async () => {
    const a = await draft(client);
    const b = await draft(other);
    const db = h.database.db;
    // opted out in the pool, and opted out in another client's campaign only
    await pool().upload('/import', 'pool.csv', csv('081277700001,Pool Stop'));
    await db.execute(sql`update phone_numbers set status = 'optout' where number = '6281277700001'`);
    await importInto(other, b.id, csv('081277700002,B Stop'));
    await db.execute(sql`update phone_numbers set status = 'optout' where number = '6281277700002'`);

    const res = await importInto(
      client,
      a.id,
      csv('081277700001,X', '081277700003,Fine', '081277700002,Y', '081277700001,X again', 'nope,Bad'),
    );
    expect(numbers(res.created)).toEqual(['6281277700003']);
    expect(res.skipped.map((s: { line: number; reason: string }) => [s.line, s.reason])).toEqual([
      [2, CAMPAIGN_TARGET_TEXTS.optedOut],
      [4, CAMPAIGN_TARGET_TEXTS.optedOut],
      [5, 'Duplicate in file'],
      [6, 'Not a phone number'],
    ]);
    expect(res.skipped[0]).toMatchObject({ number: '6281277700001', status: 'optout', id: null });
    expect((await campaigns(client).get(`/${a.id}/targets`)).body.meta.total).toBe(1);

    const list = await campaigns(client).get(`/${a.id}/targets/import/skipped/${res.skipped_id}`);
    expect(list.status).toBe(200);
    expect(list.headers['content-disposition']).toBe(`attachment; filename="campaign_${a.id}_targets_skipped.csv"`);
    const lines = list.text.trim().split('\n');
    expect(lines[0]).toBe('line,number,name,status,id,reason');
    expect(lines[1]).toBe('2,6281277700001,X,optout,,Opted out');
    expect(lines).toHaveLength(5);
    // a download link carries the session cookie
    const byCookie = await request(h.app)
      .get(`/api/admin/campaigns/${a.id}/targets/import/skipped/${res.skipped_id}`)
      .set('Cookie', `authToken=${client.token}`);
    expect(byCookie.status).toBe(200);
    // the list is its importer's: an admin, who sees the campaign, does not get it
    const asAdmin = await campaigns(admin).get(`/${a.id}/targets/import/skipped/${res.skipped_id}`);
    expect(asAdmin.status).toBe(404);
    expect(asAdmin.body.msg).toBe(SKIPPED_GONE);
  });

  it('is open to admins and devs on any client’s campaign', async () => {
    const c = await draft(client);
    const res = await importInto(admin, c.id, csv('081288800001,By Admin'));
    expect(numbers(res.created)).toEqual(['6281288800001']);
    expect((await campaigns(dev).get(`/${c.id}/targets`)).body.meta.total).toBe(1);
    expect((await campaigns(client).get(`/${c.id}/targets`)).body.data[0].name).toBe('By Admin');
  });
});

describe('listing and exporting a campaign’s targets', () => {
  it('pages, searches by number or name, filters by status, and exports CSV and JSON', async () => {
    const c = await draft(client);
    const lines = Array.from({ length: 25 }, (_, i) => `0812999${String(i).padStart(5, '0')},Name ${i},active`);
    lines.push('081299900100,=HYPERLINK("http://x"),nonactive');
    await importInto(client, c.id, csv(...lines));
    const list = (q: string) => campaigns(client).get(`/${c.id}/targets${q}`);

    const third = await list('?page=3');
    expect(third.body.meta).toEqual({ page: 3, pageSize: 10, total: 26, totalPages: 3 });
    expect(numbers(third.body.data)).toEqual([
      '6281299900005',
      '6281299900004',
      '6281299900003',
      '6281299900002',
      '6281299900001',
      '6281299900000',
    ]);
    expect((await list('?search=08129990001')).body.meta.total).toBe(10);
    expect((await list('?search=name%202')).body.meta.total).toBe(6);
    const off = await list('?status=nonactive');
    expect(numbers(off.body.data)).toEqual(['6281299900100']);
    expect((await list('?status=optout')).body).toEqual({
      data: [],
      meta: { page: 1, pageSize: 10, total: 0, totalPages: 1 },
    });

    const asCsv = await campaigns(client).get(`/${c.id}/targets/export?format=csv`);
    expect(asCsv.status).toBe(200);
    expect(asCsv.headers['content-disposition']).toBe(`attachment; filename="campaign_${c.id}_targets.csv"`);
    const rowsOut = asCsv.text.trim().split('\n');
    expect(rowsOut[0]).toBe('number,name,status');
    expect(rowsOut).toHaveLength(27);
    expect(rowsOut[1]).toBe('6281299900000,Name 0,active');
    expect(rowsOut).toContain(`6281299900100,"'=HYPERLINK(""http://x"")",nonactive`);
    const asJson = await campaigns(client).get(`/${c.id}/targets/export?format=json`);
    expect(asJson.headers['content-disposition']).toBe(`attachment; filename="campaign_${c.id}_targets.json"`);
    const parsed = JSON.parse(asJson.text);
    expect(parsed).toHaveLength(26);
    expect(parsed[0]).toEqual({ number: '6281299900000', name: 'Name 0', status: 'active' });
    // CSV when no format is given; a download link carries the session cookie
    const byCookie = await request(h.app)
      .get(`/api/admin/campaigns/${c.id}/targets/export`)
      .set('Cookie', `authToken=${client.token}`);
    expect(byCookie.status).toBe(200);
    expect(byCookie.text.split('\n')[0]).toBe('number,name,status');
  });
});

describe('who may use a campaign’s targets', () => {
  it('answers another client’s campaign as not found, for every route', async () => {
    const theirs = await draft(other);
    const made = await importInto(other, theirs.id, csv('081233300001,Theirs', 'bad,Row'));
    for (const res of [
      await campaigns(client).get(`/${theirs.id}/targets`),
      await campaigns(client).get(`/${theirs.id}/targets/export?format=json`),
      await campaigns(client).upload(`/${theirs.id}/targets/import`, 't.csv', csv('081233300002,Mine')),
      await campaigns(client).get(`/${theirs.id}/targets/import/skipped/${made.skipped_id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: CAMPAIGN_TEXTS.notFound });
    }
    expect((await campaigns(other).get(`/${theirs.id}/targets`)).body.meta.total).toBe(1);
  });

  it('refuses members and staff with 403, and anyone without a token with 401', async () => {
    const c = await draft(client);
    for (const u of [member, staff]) {
      for (const res of [
        await campaigns(u).get(`/${c.id}/targets`),
        await campaigns(u).get(`/${c.id}/targets/export`),
        await campaigns(u).upload(`/${c.id}/targets/import`, 't.csv', csv('081244400001,X')),
        await campaigns(u).get(`/${c.id}/targets/import/skipped/${'a'.repeat(32)}`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.msg).toBe('Campaigns are for admins, devs and clients.');
      }
    }
    expect((await campaigns(null).get(`/${c.id}/targets`)).status).toBe(401);
    expect((await campaigns(client).get(`/${c.id}/targets`)).body.meta.total).toBe(0);
  });
});

describe('bad input', () => {
  it('gets a 4xx with a message, never a 500, and imports nothing', async () => {
    const c = await draft(client);
    const url = `/api/admin/campaigns/${c.id}/targets/import`;
    const none = await request(h.app).post(url).set(bearer(client.token)).field('x', 'y');
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('File is required.');
    const txt = await campaigns(client).upload(`/${c.id}/targets/import`, 'targets.txt', '081255550001,X');
    expect(txt.status).toBe(400);
    expect(txt.body.msg).toBe('Only .csv and .json files are accepted.');
    const empty = await campaigns(client).upload(`/${c.id}/targets/import`, 'empty.csv', '');
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('The file is empty.');
    const junk = await campaigns(client).upload(`/${c.id}/targets/import`, 'junk.csv', 'lorem\nipsum\n');
    expect(junk.status).toBe(400);
    expect(junk.body.msg).toMatch(/^The file has no valid phone number/);
    const broken = await campaigns(client).upload(`/${c.id}/targets/import`, 'b.json', '[{"number":"0812');
    expect(broken.status).toBe(400);
    const json = await request(h.app).post(url).set(bearer(client.token)).send({ file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.msg).toMatch(/multipart\/form-data/);
    expect((await campaigns(client).get(`/${c.id}/targets`)).body.meta.total).toBe(0);

    for (const res of [
      await campaigns(client).get('/abc/targets'),
      await campaigns(client).get(`/${c.id}/targets?status=gone`),
      await campaigns(client).get(`/${c.id}/targets?page=0`),
      await campaigns(client).get(`/${c.id}/targets/export?format=xml`),
      await campaigns(client).get(`/${c.id}/targets/import/skipped/not-an-id`),
    ]) {
      expect(res.status).toBe(400);
      expect(typeof res.body.msg).toBe('string');
    }
    const missing = await campaigns(admin).upload('/999999/targets/import', 't.csv', csv('081255550002,X'));
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe(CAMPAIGN_TEXTS.notFound);
    const gone = await campaigns(client).get(`/${c.id}/targets/import/skipped/${'b'.repeat(32)}`);
    expect(gone.status).toBe(404);
    expect(gone.body.msg).toBe(SKIPPED_GONE);
  });

  it('refuses an import into a finished campaign with 409, and still lists and exports it', async () => {
    const c = await draft(client);
    await importInto(client, c.id, csv('081255560001,Before'));
    expect((await campaigns(client).post(`/${c.id}/status`, { status: 'finished' })).status).toBe(200);
    const res = await campaigns(client).upload(`/${c.id}/targets/import`, 't.csv', csv('081255560002,After'));
    expect(res.status).toBe(409);
    expect(res.body.msg).toBe(CAMPAIGN_TARGET_TEXTS.finished);
    expect((await campaigns(client).get(`/${c.id}/targets`)).body.meta.total).toBe(1);
    expect((await campaigns(client).get(`/${c.id}/targets/export?format=json`)).body).toHaveLength(1);
  });
});
