import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiAs, bearer, useApiWithRoles } from '../support/api';
import type { TestUser } from '../support/factories';

const { h, admin, dev, member, staff } = useApiWithRoles();
const api = (u: TestUser) => apiAs(h, u, '/api/admin/phonenumber');

describe('who may use the phone-number routes', () => {
  it('refuses members and staff on every route, and anyone without a token', async () => {
    for (const u of [member, staff]) {
      const a = api(u);
      for (const res of await Promise.all([
        a.get('/list'),
        a.get('/list-per-page'),
        a.get('/count-blast'),
        a.get('/export'),
        a.get('/1'),
        a.post('/save', { number: '081234567890', name: 'X' }),
        a.put('/1', { name: 'X' }),
        a.del('/1'),
        a.upload('/import', 'n.csv', '081234567890,X\n'),
      ])) {
        expect(res.status).toBe(403);
      }
    }
    expect((await request(h.app).get('/api/admin/phonenumber/list-per-page')).status).toBe(401);
  });
});

describe('manual save, edit and delete', () => {
  it('saves a number normalised to 62 and refuses it a second time', async () => {
    const res = await api(admin).post('/save', { number: '0812-1111-0001', name: 'Budi' });
    expect(res.status).toBe(201);
    expect(res.body.phoneNumber).toMatchObject({
      number: '6281211110001',
      name: 'Budi',
      status: 'active',
      in_use: 0,
      count_success: 0,
      count_fail: 0,
      last_sent: null,
    });
    const again = await api(dev).post('/save', { number: '+62 812 1111 0001', name: 'Other' });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('Nomor 6281211110001 sudah terdaftar.');
  });

  it('requires number and name, and a real phone number', async () => {
    const a = await api(admin).post('/save', {});
    expect(a.status).toBe(400);
    expect(a.body.errors).toEqual({ number: 'Nomor Telepon is required.', name: 'Nama is required.' });
    const b = await api(admin).post('/save', { number: 'hello', name: 'X' });
    expect(b.status).toBe(400);
    expect(b.body.msg).toBe('"hello" is not a phone number.');
    const c = await api(admin).post('/save', { number: 812, name: ['x'] });
    expect(c.status).toBe(400);
  });

  it('reads, edits (status toggle, new number) and deletes, with 404s for missing rows', async () => {
    const { body } = await api(admin).post('/save', { number: '081211110002', name: 'Citra' });
    const id = body.phoneNumber.id;
    expect((await api(dev).get(`/${id}`)).body.phoneNumber.name).toBe('Citra');
    const off = await api(dev).put(`/${id}`, { status: 'nonactive', name: 'Citra D' });
    expect(off.status).toBe(200);
    expect(off.body.phoneNumber).toMatchObject({ status: 'nonactive', name: 'Citra D' });
    const moved = await api(dev).put(`/${id}`, { number: '081211110009' });
    expect(moved.body.phoneNumber.number).toBe('6281211110009');
    const clash = await api(dev).put(`/${id}`, { number: '6281211110001' });
    expect(clash.status).toBe(409);
    const badStatus = await api(dev).put(`/${id}`, { status: 'in use' });
    expect(badStatus.status).toBe(400);
    const del = await api(admin).del(`/${id}`);
    expect(del.body).toMatchObject({ id });
    expect((await api(admin).get(`/${id}`)).status).toBe(404);
    expect((await api(admin).del(`/${id}`)).status).toBe(404);
    expect((await api(admin).put(`/${id}`, { name: 'x' })).status).toBe(404);
    expect((await api(admin).get('/abc')).status).toBe(400);
  });
});

describe('POST /import', () => {
  it('adds new rows, skips duplicates in the file and in the database, and bad rows, with reasons', async () => {
    const existing = (await api(admin).post('/save', { number: '081299990000', name: 'Lama' })).body.phoneNumber;
    await api(admin).put(`/${existing.id}`, { status: 'nonactive' });
    const csv = [
      'number,name,status',
      '081299990001,Satu,active',
      '6281299990002,"Dua, Jr.",nonactive',
      '081299990001,Satu lagi,active',
      '+62 812 9999 0000,Lama lagi,',
      'bukan nomor,Rusak,active',
      ',Kosong,active',
      '081299990003,Tiga,maybe',
      '81299990004,Empat',
    ].join('\r\n');
    const res = await api(admin).upload('/import', 'numbers.csv', csv);
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { number: string }) => c.number)).toEqual([
      '6281299990001',
      '6281299990002',
      '6281299990004',
    ]);
    expect(res.body.created[1]).toMatchObject({ name: 'Dua, Jr.', status: 'nonactive', id: expect.any(Number) });
    const saved = await api(admin).get(`/${res.body.created[0].id}`);
    expect(saved.body.phoneNumber.number).toBe('6281299990001');
    const skipped = res.body.skipped.map((s: { number: string; reason: string; id: number | null; status: string }) => [
      s.number,
      s.reason,
      s.id,
      s.status,
    ]);
    expect(skipped).toEqual([
      ['6281299990001', 'Duplicate in file', res.body.created[0].id, 'active'],
      ['6281299990000', 'Already registered', existing.id, 'nonactive'],
      ['bukan nomor', 'Not a phone number', null, 'active'],
      ['', 'Number is empty', null, 'active'],
      ['081299990003', 'Status must be active, nonactive or optout', null, 'maybe'],
    ]);
  });

  it('reads a JSON array of objects or of plain numbers', async () => {
    const res = await api(dev).upload(
      '/import',
      'numbers.json',
      JSON.stringify([{ number: '081277770001', name: 'J1' }, '081277770002', { number: 6281277 }]),
    );
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { number: string }) => c.number)).toEqual(['6281277770001', '6281277770002']);
    expect(res.body.skipped).toHaveLength(1);
    expect(res.body.skipped[0].reason).toBe('Not a phone number');
  });

  it('reads a CSV without a header by column order', async () => {
    const res = await api(admin).upload('/import', 'plain.csv', '081266660001,Tanpa Header\n081266660002\n');
    expect(res.body.created).toEqual([
      expect.objectContaining({ number: '6281266660001', name: 'Tanpa Header' }),
      expect.objectContaining({ number: '6281266660002', name: '' }),
    ]);
  });

  it('refuses other file types, a missing file, an empty file and a request that is not multipart', async () => {
    const txt = await api(admin).upload('/import', 'numbers.txt', '081255550001,X');
    expect(txt.status).toBe(400);
    expect(txt.body.msg).toBe('Only .csv and .json files are accepted.');
    const xlsx = await api(admin).upload('/import', 'numbers.CSV.xlsx', 'x');
    expect(xlsx.status).toBe(400);
    const none = await request(h.app).post('/api/admin/phonenumber/import').set(bearer(admin.token)).field('x', 'y');
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('File is required.');
    const empty = await api(admin).upload('/import', 'empty.csv', '');
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('The file is empty.');
    const json = await request(h.app)
      .post('/api/admin/phonenumber/import')
      .set(bearer(admin.token))
      .send({ file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.msg).toMatch(/multipart\/form-data/);
  });

  it('refuses a broken JSON file and imports nothing of it', async () => {
    const before = (await api(admin).get('/list-per-page')).body.meta.total;
    const res = await api(admin).upload('/import', 'broken.json', '[{"number":"081244440001"},{"number":"0812444');
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/JSON file is cut off/);
    const notArray = await api(admin).upload('/import', 'obj.json', '{"number":"081244440002"}');
    expect(notArray.status).toBe(400);
    expect(notArray.body.msg).toMatch(/must hold an array/);
    expect((await api(admin).get('/list-per-page')).body.meta.total).toBe(before);
  });

  it('skips a huge line with a reason and keeps the rest', async () => {
    const csv = `081233330001,A\n${'9'.repeat(200_000)},B\n081233330002,C\n`;
    const res = await api(admin).upload('/import', 'huge.csv', csv);
    expect(res.status).toBe(200);
    expect(res.body.created).toHaveLength(2);
    expect(res.body.skipped).toEqual([expect.objectContaining({ reason: 'Row is too long' })]);
  });
});

describe('lists, counts and exports', () => {
  let ids: number[] = [];

  beforeAll(async () => {
    const lines = ['number,name'];
    for (let i = 0; i < 2500; i++) lines.push(`0813${String(i).padStart(8, '0')},Bulk ${i}`);
    const res = await api(admin).upload('/import', 'bulk.csv', lines.join('\n'));
    expect(res.status).toBe(200);
    expect(res.body.created).toHaveLength(2500);
    ids = res.body.created.map((c: { id: number }) => c.id);
  });

  it('pages newest first with meta.totalPages, also deep pages, and follows deletes', async () => {
    const first = await api(admin).get('/list-per-page?page=1');
    const total = first.body.meta.total;
    expect(first.body.meta).toEqual({ page: 1, pageSize: 10, total, totalPages: Math.ceil(total / 10) });
    expect(first.body.data[0].id).toBeGreaterThan(first.body.data[9].id);
    // page 151 lies past the first bookmark: rows 1500..1509 counted from the newest
    const deep = await api(admin).get('/list-per-page?page=151');
    expect(deep.body.data.map((d: { id: number }) => d.id)).toEqual(ids.slice().reverse().slice(1500, 1510));
    await api(admin).del(`/${ids[ids.length - 1]}`);
    const after = await api(admin).get('/list-per-page?page=151');
    expect(after.body.meta.total).toBe(total - 1);
    expect(after.body.data[0].id).toBe(ids.slice().reverse()[1501]);
    const past = await api(admin).get('/list-per-page?page=99999');
    expect(past.body.data).toEqual([]);
  });

  it('searches by number prefix (as typed with 0 or 62) and by name', async () => {
    const a = await api(admin).get('/list-per-page?search=08130000129');
    expect(a.body.data.map((d: { number: string }) => d.number).sort()).toEqual(
      Array.from({ length: 10 }, (_, d) => `628130000129${d}`),
    );
    expect(a.body.meta.total).toBe(10);
    const b = await api(admin).get('/list-per-page?search=%2B628130000129');
    expect(b.body.meta.total).toBe(10);
    const c = await api(admin).get('/list-per-page?search=Bulk%20123');
    expect(c.body.meta).toMatchObject({ total: 11, totalPages: 2 });
    expect(c.body.data[0].name).toBe('Bulk 1239');
    const c2 = await api(admin).get('/list-per-page?search=bulk%20123&page=2');
    expect(c2.body.data.map((d: { name: string }) => d.name)).toEqual(['Bulk 123']);
    const none = await api(admin).get('/list-per-page?search=zzzz');
    expect(none.body).toEqual({ data: [], meta: { page: 1, pageSize: 10, total: 0, totalPages: 1 } });
  });

  it('counts numbers blasted and not yet blasted', async () => {
    const res = await api(admin).get('/count-blast');
    expect(res.body.blasted).toBe(0);
    expect(res.body.unBlasted).toBeGreaterThan(2000);
  });

  it('streams the whole list', async () => {
    const res = await api(dev).get('/list');
    expect(res.status).toBe(200);
    expect(res.body.list.length).toBe((await api(dev).get('/list-per-page')).body.meta.total);
  });

  it('exports CSV and JSON with the §9 names and columns, safe against formulas', async () => {
    await api(admin).post('/save', { number: '081211112222', name: '=HYPERLINK("http://x","y")' });
    const csv = await api(admin).get('/export?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="phone_numbers.csv"');
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('number,name,status');
    expect(lines).toContain(`6281211112222,"'=HYPERLINK(""http://x"",""y"")",active`);
    const json = await api(admin).get('/export?format=json');
    expect(json.headers['content-disposition']).toBe('attachment; filename="phone_numbers.json"');
    const parsed = JSON.parse(json.text);
    expect(parsed.length).toBe(lines.length - 1);
    expect(Object.keys(parsed[0])).toEqual(['number', 'name', 'status']);
    expect((await api(admin).get('/export?format=xml')).status).toBe(400);
    // a download link carries the session cookie instead of a header; only exports accept it
    const byCookie = await request(h.app)
      .get('/api/admin/phonenumber/export?format=csv')
      .set('Cookie', `authToken=${admin.token}`);
    expect(byCookie.status).toBe(200);
    const memberCookie = await request(h.app)
      .get('/api/admin/phonenumber/export')
      .set('Cookie', `authToken=${member.token}`);
    expect(memberCookie.status).toBe(403);
    const notExport = await request(h.app)
      .get('/api/admin/phonenumber/list-per-page')
      .set('Cookie', `authToken=${admin.token}`);
    expect(notExport.status).toBe(401);
  });
});
