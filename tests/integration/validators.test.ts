import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../support/api';
import type { TestUser } from '../support/factories';
import { useToolSuite } from '../support/tools';
import { nextEvent } from '../support/wa-engine';

/**
 * The number validator (§5 Validator): the uploaded file and what it refuses, a run over the file's
 * numbers, §7's answers to create and update (the generator's too), and the stored file that only
 * its authorised route serves. The generator: generators.test.ts.
 */

const { h, users, staffAcc, adminAcc, gen, val, upload, range, registered, q, validatorDir, storedFiles } =
  useToolSuite();
const { admin, staff, otherStaff, dev, member } = users;

describe('a validator', () => {
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
    const before = await storedFiles();
    const res = await upload(
      staff,
      { name: 'kontak.csv', text: csv },
      { whatsapp_id: staffAcc.id, b_insert: 0, interval_min: 0, interval_max: 0 },
    );
    expect(res.status).toBe(200);
    const v = res.body.validator;
    expect(v).toMatchObject({ fileName: 'kontak.csv', total: 25, position: 0, status: 'idle' });
    const file = await request(h.app).get(v.fileUrl).set(bearer(staff.token));
    expect(file.status).toBe(200);
    expect(file.text).toBe(csv);
    const stored = (await storedFiles()).find((f) => !before.includes(f));
    expect(stored).toBeDefined();

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
    expect((await request(h.app).get(v.fileUrl).set(bearer(staff.token))).status).toBe(404);
    expect(await storedFiles()).not.toContain(stored);
  });
});

describe('§7: create and update answer 200', () => {
  it('validator create and update answer 200 with the record, and so do the generator’s (the same set)', async () => {
    const fields = { whatsapp_id: staffAcc.id, b_insert: 0, interval_min: 0, interval_max: 0 };
    const created = await upload(staff, { name: 'dua.csv', text: 'number\n6281900000001\n6281900000002\n' }, fields);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ msg: 'Validator berhasil disimpan.', validator: { total: 2 } });
    const id = created.body.validator.id;
    const updated = await upload(staff, null, { ...fields, interval_max: 3 }, id);
    expect(updated.status).toBe(200);
    expect(updated.body.validator).toMatchObject({ id, interval_max: 3 });
    // a refused create is still a 4xx, not a 200
    expect((await upload(staff, null, fields)).status).toBe(400);

    const gCreated = await gen(staff).post('/create', range('6281900000000', '6281900000009'));
    expect(gCreated.status).toBe(200);
    expect(gCreated.body.msg).toBe('Generator berhasil disimpan.');
    const gUpdated = await gen(staff).put(`/${gCreated.body.generator.id}`, range('6281900000000', '6281900000004'));
    expect(gUpdated.status).toBe(200);
    expect((await gen(staff).del(`/${gCreated.body.generator.id}`)).status).toBe(200);
    expect((await val(staff).del(`/${id}`)).status).toBe(200);
  });
});

describe('a validator’s file: only through the authorised route', () => {
  const csv = 'number,name\n6281800000001,Satu\n6281800000002,Dua\n';
  let staffV: { id: number; fileUrl: string };
  let adminV: { id: number; fileUrl: string };
  let stored: string;
  const fields = (whatsapp_id: number) => ({ whatsapp_id, b_insert: 0, interval_min: 0, interval_max: 0 });
  const fetchAs = (url: string, u: TestUser | null) => {
    const r = request(h.app).get(url);
    return u ? r.set(bearer(u.token)) : r;
  };

  beforeAll(async () => {
    const before = await storedFiles();
    staffV = (await upload(staff, { name: 'daftar "target".csv', text: csv }, fields(staffAcc.id))).body.validator;
    stored = (await storedFiles()).find((f) => !before.includes(f)) ?? '';
    adminV = (await upload(admin, { name: 'admin.json', text: '["6281800000003"]' }, fields(adminAcc.id))).body
      .validator;
  });

  it('names the authorised route in fileUrl', () => {
    expect(staffV.fileUrl).toBe(`/api/admin/validator/file/${staffV.id}`);
    expect(adminV.fileUrl).toBe(`/api/admin/validator/file/${adminV.id}`);
    expect(stored).not.toBe('');
  });

  it('gives the file to its owner and to dev only: admin and staff their own; members, others and no token refused', async () => {
    const cases: [string, TestUser | null, { id: number; fileUrl: string }, number][] = [
      ['staff, the owner', staff, staffV, 200],
      ['dev, any', dev, staffV, 200],
      ['dev, any (admin’s)', dev, adminV, 200],
      ['admin, the owner', admin, adminV, 200],
      ['admin, not the owner', admin, staffV, 403],
      ['another staff', otherStaff, staffV, 403],
      ['staff, the admin’s', staff, adminV, 403],
      ['member', member, staffV, 403],
      ['no token', null, staffV, 401],
    ];
    for (const [who, u, v, status] of cases) {
      const res = await fetchAs(v.fileUrl, u);
      expect(res.status, who).toBe(status);
      if (status === 200) continue;
      expect(res.body.msg, who).toEqual(expect.any(String));
      expect(res.text, who).not.toContain('6281800000001');
    }
  });

  it('sends it as an attachment with a safe file name, its type, nosniff and no caching', async () => {
    const res = await fetchAs(staffV.fileUrl, staff);
    expect(res.status).toBe(200);
    expect(res.text).toBe(csv);
    expect(res.headers['content-disposition']).toBe('attachment; filename="daftar \\"target\\".csv"');
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toMatch(/no-store/);
    expect(res.headers['content-security-policy']).toMatch(/sandbox/);
    const json = await fetchAs(adminV.fileUrl, admin);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.headers['content-disposition']).toBe('attachment; filename=admin.json');
    expect(json.text).toBe('["6281800000003"]');
  });

  it('lets a plain link download it with the authToken cookie, on that route only', async () => {
    const cookie = (u: TestUser) => `authToken=${encodeURIComponent(u.token)}`;
    const own = await request(h.app).get(staffV.fileUrl).set('Cookie', cookie(staff));
    expect(own.status).toBe(200);
    expect(own.text).toBe(csv);
    expect((await request(h.app).get(staffV.fileUrl).set('Cookie', cookie(member))).status).toBe(403);
    expect((await request(h.app).get(staffV.fileUrl).set('Cookie', cookie(otherStaff))).status).toBe(403);
    expect((await request(h.app).get(staffV.fileUrl).set('Cookie', 'authToken=forged')).status).toBe(401);
    // the cookie opens nothing else: not the record, not a write
    expect((await request(h.app).get(`/api/admin/validator/${staffV.id}`).set('Cookie', cookie(staff))).status).toBe(
      401,
    );
    expect((await request(h.app).delete(`/api/admin/validator/${staffV.id}`).set('Cookie', cookie(staff))).status).toBe(
      401,
    );
    expect((await request(h.app).get(`/api/admin/generator/file/${staffV.id}`).set('Cookie', cookie(dev))).status).toBe(
      401,
    );
  });

  it('answers bad ids with 400, unknown ones and a lost file with 404, as JSON', async () => {
    const bad = await fetchAs('/api/admin/validator/file/abc', dev);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toEqual(expect.any(String));
    const unknown = await fetchAs('/api/admin/validator/file/99999999', dev);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('Validator not found.');
    // the generator has no file
    expect((await fetchAs(`/api/admin/generator/file/${staffV.id}`, dev)).status).toBe(404);
    const [row] = await q<{ id: number }>(
      sql`insert into validators (user_id, whatsapp_id, b_insert, interval_min, interval_max, file_name, file_url, total)
          values (${dev.id}, ${staffAcc.id}, 0, 0, 0, 'gone.csv', '/uploads/validators/gone.csv', 1) returning id`,
    );
    const lost = await fetchAs(`/api/admin/validator/file/${row?.id}`, dev);
    expect(lost.status).toBe(404);
    expect(lost.body.msg).toBe('Validator file not found.');
  });

  it('is not served by the public /uploads, neither new files nor those stored before; template media still are', async () => {
    const viaStatic = await request(h.app).get(`/uploads/validators/${stored}`);
    expect(viaStatic.status).toBe(404);
    expect(viaStatic.text).not.toContain('6281800000001');
    for (const sneaky of [
      `/uploads/templates/..%2fvalidators/${stored}`,
      `/uploads/templates/%2e%2e/validators/${stored}`,
      `/uploads//validators/${stored}`,
      `/uploads/VALIDATORS/${stored}`,
    ]) {
      const res = await request(h.app).get(sneaky);
      expect(res.status, sneaky).toBeGreaterThanOrEqual(400);
      expect(res.text, sneaky).not.toContain('6281800000001');
    }
    // a file left by an earlier version in DATA_DIR/uploads, and its row, as an upgraded install has them
    mkdirSync(validatorDir(), { recursive: true });
    writeFileSync(path.join(validatorDir(), 'legacy-1.csv'), 'number\n6281800000009\n');
    expect((await request(h.app).get('/uploads/validators/legacy-1.csv')).status).toBe(404);
    const [legacy] = await q<{ id: number }>(
      sql`insert into validators (user_id, whatsapp_id, b_insert, interval_min, interval_max, file_name, file_url, total)
          values (${staff.id}, ${staffAcc.id}, 0, 0, 0, 'lama.csv', '/uploads/validators/legacy-1.csv', 1) returning id`,
    );
    const listed = (await val(staff).get('/list-per-page?page=1')).body.data.find(
      (v: { id: number }) => v.id === legacy?.id,
    );
    expect(listed.fileUrl).toBe(`/api/admin/validator/file/${legacy?.id}`);
    const old = await fetchAs(listed.fileUrl, staff);
    expect(old.status).toBe(200);
    expect(old.text).toBe('number\n6281800000009\n');
    expect(old.headers['content-disposition']).toBe('attachment; filename=lama.csv');
    // a name with line breaks or path parts cannot split the header or pick the folder
    await q(sql`update validators set file_name = ${'x/..\\a\r\nb.csv'} where id = ${legacy?.id}`);
    const odd = await fetchAs(listed.fileUrl, staff);
    expect(odd.status).toBe(200);
    expect(odd.headers['content-disposition']).toBe('attachment; filename=x_.._a__b.csv');
    // and one beyond ASCII keeps an ASCII fallback next to the UTF-8 name
    await q(sql`update validators set file_name = ${'kontak ñ 日本.csv'} where id = ${legacy?.id}`);
    expect((await fetchAs(listed.fileUrl, staff)).headers['content-disposition']).toBe(
      `attachment; filename="kontak ? ??.csv"; filename*=UTF-8''kontak%20%C3%B1%20%E6%97%A5%E6%9C%AC.csv`,
    );

    mkdirSync(path.join(h.dataDir, 'uploads', 'templates'), { recursive: true });
    writeFileSync(path.join(h.dataDir, 'uploads', 'templates', 'brosur.txt'), 'brosur');
    const media = await request(h.app).get('/uploads/templates/brosur.txt');
    expect(media.status).toBe(200);
    expect(media.text).toBe('brosur');
  });
});
