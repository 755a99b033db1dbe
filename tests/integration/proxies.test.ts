import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { apiAs, bearer, useApiWithRoles } from '../support/api';
import type { TestUser } from '../support/factories';

const { h, admin, dev, member, staff } = useApiWithRoles();
const api = (u: TestUser) => apiAs(h, u, '/api/admin/proxy');

describe('proxies', () => {
  it('refuses members and staff on every route', async () => {
    for (const u of [member, staff]) {
      const a = api(u);
      for (const res of await Promise.all([
        a.get('/list'),
        a.get('/list-per-page'),
        a.get('/count-use'),
        a.get('/export'),
        a.get('/1'),
        a.post('/save', { value: '1.2.3.4:8080' }),
        a.put('/1', { status: 'active' }),
        a.del('/1'),
        a.upload('/import', 'p.csv', '1.2.3.4:8080\n'),
      ])) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ msg: 'You are not allowed to do this.' });
      }
    }
  });

  it('refuses callers without a token, also on list-per-page and import', async () => {
    const page = await request(h.app).get('/api/admin/proxy/list-per-page?page=1');
    expect(page.status).toBe(401);
    expect(page.body).toEqual({ msg: 'Authorization token is missing' });
    const imp = await request(h.app)
      .post('/api/admin/proxy/import')
      .attach('file', Buffer.from('10.9.9.9:8080\n'), 'p.csv');
    expect(imp.status).toBe(401);
    expect(imp.body).toEqual({ msg: 'Authorization token is missing' });
    expect((await api(admin).get('/list-per-page?search=10.9.9.9')).body.meta.total).toBe(0);
  });

  it('saves a proxy in its normal form, refuses a duplicate and what is not a proxy', async () => {
    const a = await api(admin).post('/save', { value: ' HTTP://User:Pw@Proxy.Example.COM:3128 ' });
    expect(a.status).toBe(201);
    expect(a.body.proxy).toMatchObject({
      value: 'http://User:Pw@proxy.example.com:3128',
      status: 'active',
      count_use: 0,
    });
    const dup = await api(dev).post('/save', { value: 'http://User:Pw@proxy.example.com:3128' });
    expect(dup.status).toBe(409);
    expect(dup.body.msg).toBe('Proxy http://User:Pw@proxy.example.com:3128 sudah terdaftar.');
    for (const value of ['', 'no-port', 'host:99999', 'ftp://h:21', 'a b:80']) {
      const bad = await api(admin).post('/save', { value });
      expect(bad.status, value).toBe(400);
    }
    expect((await api(admin).post('/save', {})).body.msg).toBe('Proxy is required.');
  });

  it('edits value and status, deletes returning the id, and answers 404 after', async () => {
    const { body } = await api(admin).post('/save', { value: '10.0.0.1:8000' });
    const id = body.proxy.id;
    const up = await api(admin).put(`/${id}`, { status: 'nonactive', value: '10.0.0.2:8000' });
    expect(up.body.proxy).toMatchObject({ id, value: '10.0.0.2:8000', status: 'nonactive' });
    expect((await api(admin).put(`/${id}`, { status: 'broken' })).status).toBe(400);
    expect((await api(dev).get(`/${id}`)).body.proxy.value).toBe('10.0.0.2:8000');
    const del = await api(admin).del(`/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(id);
    expect((await api(admin).get(`/${id}`)).status).toBe(404);
  });

  it('imports CSV and JSON, skipping duplicates and bad rows with reasons', async () => {
    await api(admin).post('/save', { value: '10.1.1.1:1080' });
    const csv = 'value,status\n10.1.1.2:1080,active\n10.1.1.1:1080,active\n10.1.1.2:1080,nonactive\nrusak,active\n';
    const res = await api(admin).upload('/import', 'proxies.csv', csv);
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { value: string }) => c.value)).toEqual(['10.1.1.2:1080']);
    expect(res.body.skipped.map((s: { value: string; reason: string }) => [s.value, s.reason])).toEqual([
      ['10.1.1.1:1080', 'Already registered'],
      ['10.1.1.2:1080', 'Duplicate in file'],
      ['rusak', 'Not a proxy'],
    ]);
    const json = await api(dev).upload(
      '/import',
      'p.json',
      JSON.stringify([{ value: 'socks5://10.1.1.3:1080' }, '10.1.1.4:8080']),
    );
    expect(json.body.created.map((c: { value: string }) => c.value)).toEqual([
      'socks5://10.1.1.3:1080',
      '10.1.1.4:8080',
    ]);
    const wrong = await api(admin).upload('/import', 'p.xml', '<x/>');
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('Only .csv and .json files are accepted.');
  });

  it('pages, counts use and exports with the §9 names and columns', async () => {
    const page = await api(admin).get('/list-per-page?page=1');
    expect(page.body.meta.total).toBeGreaterThanOrEqual(4);
    expect(page.body.data.length).toBeLessThanOrEqual(10);
    expect(
      await api(admin)
        .get('/count-use')
        .then((r) => r.body),
    ).toEqual({ unUsed: page.body.meta.total, used: 0 });
    const csv = await api(admin).get('/export?format=csv');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="proxies.csv"');
    expect(csv.text.split('\n')[0]).toBe('value,status');
    const json = await api(admin).get('/export?format=json');
    expect(json.headers['content-disposition']).toBe('attachment; filename="proxies.json"');
    expect(JSON.parse(json.text)[0]).toEqual({ value: expect.any(String), status: expect.any(String) });
    expect((await api(admin).get('/list')).body.list.length).toBe(page.body.meta.total);
  });
});

describe('POST /api/admin/proxy/import with bad files', () => {
  const total = async () => (await api(admin).get('/list-per-page')).body.meta.total as number;
  const found = async (value: string) =>
    (await api(admin).get(`/list-per-page?search=${encodeURIComponent(value)}`)).body.data.map(
      (p: { value: string }) => p.value,
    );

  it('refuses an empty file, CSV or JSON, with a message', async () => {
    const before = await total();
    for (const [name, content] of [
      ['empty.csv', ''],
      ['empty.json', ''],
      ['blank.json', '[]'],
    ]) {
      const res = await api(admin).upload('/import', name, content);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toEqual({ msg: 'The file is empty.' });
    }
    expect(await total()).toBe(before);
  });

  it('refuses a missing file field and a request that is not multipart', async () => {
    const none = await request(h.app).post('/api/admin/proxy/import').set(bearer(admin.token)).field('x', 'y');
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ msg: 'File is required.' });
    const otherField = await request(h.app)
      .post('/api/admin/proxy/import')
      .set(bearer(admin.token))
      .attach('upload', Buffer.from('10.5.5.1:8080\n'), 'p.csv');
    expect(otherField.status).toBe(400);
    expect(otherField.body).toEqual({ msg: 'File is required.' });
    expect(await found('10.5.5.1')).toEqual([]);
    const json = await request(h.app).post('/api/admin/proxy/import').set(bearer(admin.token)).send({ file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('Upload the file as multipart/form-data in the field "file".');
  });

  it('refuses broken JSON with a message and imports none of the rows before the break', async () => {
    const before = await total();
    const cut = await api(admin).upload(
      '/import',
      'cut.json',
      '["10.6.6.1:8080",{"value":"10.6.6.2:8080"},{"value":"10.6.',
    );
    expect(cut.status).toBe(400);
    expect(cut.body).toEqual({ msg: 'The JSON file is cut off: the array never closes.' });
    const broken = await api(admin).upload('/import', 'broken.json', '["10.6.6.3:8080",{"value":},"10.6.6.4:8080"]');
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ msg: 'The JSON file is broken at element 2.' });
    const notArray = await api(admin).upload('/import', 'obj.json', '{"value":"10.6.6.5:8080"}');
    expect(notArray.status).toBe(400);
    expect(notArray.body).toEqual({ msg: 'The JSON file must hold an array: [ {...}, {...} ].' });
    expect(await total()).toBe(before);
    expect(await found('10.6.6.')).toEqual([]);
  });

  it('skips a CSV line longer than the 16 KB row cap with its reason and keeps the rest', async () => {
    const before = await total();
    const res = await api(admin).upload(
      '/import',
      'huge.csv',
      `value,status\n10.7.7.1:8080,active\n${'9'.repeat(20_000)},active\n10.7.7.2:8080,active\n`,
    );
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { value: string }) => c.value)).toEqual(['10.7.7.1:8080', '10.7.7.2:8080']);
    expect(res.body.skipped).toEqual([expect.objectContaining({ reason: 'Row is too long', id: null })]);
    expect(await total()).toBe(before + 2);
  });

  it('skips a JSON item longer than the row cap, and refuses a file that is only one such item', async () => {
    const before = await total();
    const res = await api(admin).upload(
      '/import',
      'huge.json',
      JSON.stringify(['10.7.7.3:8080', { value: `10.7.7.9:${'8'.repeat(200_000)}` }, { value: '10.7.7.4:8080' }]),
    );
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { value: string }) => c.value)).toEqual(['10.7.7.3:8080', '10.7.7.4:8080']);
    expect(res.body.skipped).toEqual([expect.objectContaining({ reason: 'Row is too long', id: null })]);
    // a file with nothing valid in it is refused, naming its first bad row (issue 19)
    const only = await api(admin).upload('/import', 'one.json', `["${'7'.repeat(1024 * 1024)}"]`);
    expect(only.status).toBe(400);
    expect(only.body).toEqual({ msg: 'The file has no valid proxy: 1 row skipped (line 1: Row is too long).' });
    expect(await total()).toBe(before + 2);
  });
});
