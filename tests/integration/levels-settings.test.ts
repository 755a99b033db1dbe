import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { apiAs, bearer, useApiWithRoles } from '../support/api';
import type { TestUser } from '../support/factories';

const { h, admin, dev, member, staff } = useApiWithRoles();
const as = (u: TestUser) => apiAs(h, u);

describe('levels', () => {
  it('creates, reads, pages, edits and deletes, with the spec message', async () => {
    const a = await as(admin).post('/admin/level/create', { name: 'Silver', blast_fee: '80', requirement_blast: 1000 });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      level: { id: expect.any(Number), name: 'Silver', blast_fee: 80, requirement_blast: 1000 },
      msg: 'Level berhasil disimpan.',
    });
    await as(dev).post('/admin/level/create', { name: 'Bronze', blast_fee: 60, requirement_blast: 0 });
    const list = await as(dev).get('/admin/level/list-per-page?page=1');
    expect(list.body.data.map((l: { name: string }) => l.name)).toEqual(['Bronze', 'Silver']);
    expect(list.body.meta).toMatchObject({ totalPages: 1, total: 2 });
    const id = a.body.level.id;
    expect((await as(admin).get(`/admin/level/${id}`)).body.level.name).toBe('Silver');
    const up = await as(admin).put(`/admin/level/${id}`, { name: 'Silver+', blast_fee: 90, requirement_blast: 1200 });
    expect(up.body.level).toMatchObject({ name: 'Silver+', blast_fee: 90 });
    const del = await as(admin).del(`/admin/level/${id}`);
    expect(del.body.id).toBe(id);
    expect((await as(admin).get(`/admin/level/${id}`)).status).toBe(404);
    expect((await as(admin).put(`/admin/level/${id}`, { name: 'x', blast_fee: 1, requirement_blast: 1 })).status).toBe(
      404,
    );
  });

  it('requires every field, numbers for fee and requirement', async () => {
    const empty = await as(admin).post('/admin/level/create', {});
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({
      name: 'Name is required.',
      blast_fee: 'Blast fee is required.',
      requirement_blast: 'Requirement blast is required.',
    });
    const bad = await as(admin).post('/admin/level/create', { name: 'X', blast_fee: 'lots', requirement_blast: -1 });
    expect(bad.body.errors).toEqual({
      blast_fee: 'Blast fee must be a number.',
      requirement_blast: 'Requirement blast must be at least 0.',
    });
  });

  it('refuses members and staff', async () => {
    for (const u of [member, staff]) {
      expect((await as(u).post('/admin/level/create', { name: 'X', blast_fee: 1, requirement_blast: 1 })).status).toBe(
        403,
      );
      expect((await as(u).get('/admin/level/list-per-page')).status).toBe(403);
    }
  });

  it('refuses members and staff reading, editing and deleting a level by id, changing nothing', async () => {
    const made = await as(admin).post('/admin/level/create', {
      name: 'Platinum',
      blast_fee: 150,
      requirement_blast: 5000,
    });
    const level = made.body.level;
    for (const u of [member, staff]) {
      const calls = {
        get: as(u).get(`/admin/level/${level.id}`),
        put: as(u).put(`/admin/level/${level.id}`, { name: 'Dicuri', blast_fee: 1, requirement_blast: 0 }),
        del: as(u).del(`/admin/level/${level.id}`),
      };
      for (const [name, call] of Object.entries(calls)) {
        const res = await call;
        expect(res.status, `${u.role} ${name}`).toBe(403);
        expect(res.body, `${u.role} ${name}`).toEqual({ msg: 'You are not allowed to do this.' });
      }
    }
    expect((await as(admin).get(`/admin/level/${level.id}`)).body.level).toEqual(level);
  });

  it('refuses every level route without a token, changing nothing', async () => {
    const made = await as(admin).post('/admin/level/create', {
      name: 'Diamond',
      blast_fee: 200,
      requirement_blast: 9000,
    });
    const level = made.body.level;
    const before = (await as(admin).get('/admin/level/list-per-page')).body.meta.total;
    const body = { name: 'Anonim', blast_fee: 1, requirement_blast: 0 };
    const calls = {
      list: request(h.app).get('/api/admin/level/list-per-page'),
      create: request(h.app).post('/api/admin/level/create').send(body),
      get: request(h.app).get(`/api/admin/level/${level.id}`),
      put: request(h.app).put(`/api/admin/level/${level.id}`).send(body),
      del: request(h.app).delete(`/api/admin/level/${level.id}`),
    };
    for (const [name, call] of Object.entries(calls)) {
      const res = await call;
      expect(res.status, name).toBe(401);
      expect(res.body, name).toEqual({ msg: 'Authorization token is missing' });
    }
    expect((await as(admin).get(`/admin/level/${level.id}`)).body.level).toEqual(level);
    expect((await as(admin).get('/admin/level/list-per-page')).body.meta.total).toBe(before);
  });
});

describe('settings', () => {
  const valid = {
    interval_min: 3,
    interval_max: '9',
    price: 75,
    bank_names: 'BCA,MANDIRI ,  BNI',
    colors: '#3C50E0,#10b981, #f00',
    referral_percent: 10,
    info: 'Promo minggu ini!',
  };

  it('gives every signed-in role the settings, starting from the §9 defaults', async () => {
    for (const u of [member, staff, admin]) {
      const res = await as(u).get('/admin/setting/get');
      expect(res.status).toBe(200);
      expect(res.body.setting).toMatchObject({ bank_names: 'BCA, MANDIRI, BRI', referral_percent: 0 });
    }
    expect((await request(h.app).get('/api/admin/setting/get')).status).toBe(401);
  });

  it('lets admin and dev save, normalising the lists, with the spec message', async () => {
    const res = await as(dev).put('/admin/setting/update', valid);
    expect(res.status).toBe(200);
    expect(res.body.msg).toBe('Pengaturan berhasil disimpan.');
    expect(res.body.setting).toMatchObject({
      interval_min: 3,
      interval_max: 9,
      price: 75,
      bank_names: 'BCA, MANDIRI, BNI',
      colors: '#3C50E0, #10b981, #f00',
      referral_percent: 10,
      info: 'Promo minggu ini!',
    });
    // the account-safety fields (account-safety.test.ts) are left out here and keep their values
    expect(res.body.setting).toHaveProperty('optout_keywords');
    expect(res.body.setting).toHaveProperty('send_window_start');
    expect((await as(member).get('/admin/setting/get')).body.setting.info).toBe('Promo minggu ini!');
  });

  it('requires every field and refuses out-of-range values, changing nothing', async () => {
    const before = (await as(admin).get('/admin/setting/get')).body.setting;
    const cases: [object, string, string][] = [
      [{ ...valid, info: '' }, 'info', 'Info is required.'],
      [{ ...valid, price: undefined }, 'price', 'Price is required.'],
      [{ ...valid, referral_percent: 101 }, 'referral_percent', 'Referral percent must be at most 100.'],
      [{ ...valid, referral_percent: 'ten' }, 'referral_percent', 'Referral percent must be a number.'],
      [{ ...valid, colors: '#12345G' }, 'colors', '"#12345G" is not a hex colour like #3C50E0.'],
      [{ ...valid, bank_names: ' , ' }, 'bank_names', 'Bank names is required.'],
      [
        { ...valid, interval_min: 10, interval_max: 2 },
        'interval_min',
        'Interval minimal harus lebih kecil dari interval maksimal',
      ],
    ];
    for (const [body, field, msg] of cases) {
      const res = await as(admin).put('/admin/setting/update', body);
      expect(res.status, field).toBe(400);
      expect(res.body.errors[field]).toBe(msg);
    }
    expect((await as(admin).get('/admin/setting/get')).body.setting).toEqual(before);
  });

  it('refuses members and staff writing settings', async () => {
    expect((await as(member).put('/admin/setting/update', valid)).status).toBe(403);
    expect((await as(staff).put('/admin/setting/update', valid)).status).toBe(403);
  });

  it('refuses members, staff and callers without a token writing settings, with a message, changing nothing', async () => {
    const before = (await as(admin).get('/admin/setting/get')).body.setting;
    const change = { ...valid, info: 'Diubah oleh yang tidak berhak', price: 1 };
    for (const u of [member, staff]) {
      const res = await as(u).put('/admin/setting/update', change);
      expect(res.status, u.role).toBe(403);
      expect(res.body, u.role).toEqual({ msg: 'You are not allowed to do this.' });
    }
    const anon = await request(h.app).put('/api/admin/setting/update').send(change);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ msg: 'Authorization token is missing' });
    const forged = await request(h.app)
      .put('/api/admin/setting/update')
      .set(bearer(`${admin.token}x`))
      .send(change);
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ msg: 'Invalid or expired token' });
    expect((await as(admin).get('/admin/setting/get')).body.setting).toEqual(before);
  });

  it('feeds the member fee and interval defaults and the level colours', async () => {
    await as(admin).put('/admin/setting/update', { ...valid, price: 42, interval_min: 2, interval_max: 4 });
    const u = (await as(member).get(`/admin/users/${member.id}`)).body.user;
    expect(u).toMatchObject({ blast_fee: 42, blast_interval_min: 2, blast_interval_max: 4 });
  });
});
