import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { levels, whatsappAccounts } from '../../core/src/db/schema/index';
import { apiCalls, bearer, useApi } from '../support/api';
import { createUser, OFFICE_USERS, useUsers } from '../support/factories';

const h = useApi();
const { admin, dev, staff, member, other } = useUsers(() => h.database.db, {
  ...OFFICE_USERS,
  member: { role: 'member', firstname: 'Siti', lastname: 'Aminah' },
  other: (made) => ({ role: 'member', firstname: 'Joko', referrerId: made.member.id }),
});
let levelId: number;

beforeAll(async () => {
  const db = h.database.db;
  await createUser(db, { role: 'member', firstname: 'Rina', referrerId: member.id });
  const [lvl] = await db.insert(levels).values({ name: 'Gold', blastFee: 120, requirementBlast: 100 }).returning();
  levelId = lvl.id;
  await db.insert(whatsappAccounts).values([
    { clientid: 'id-1-1', userId: member.id, state: 'connected' },
    { clientid: 'id-1-2', userId: member.id, state: 'disconnected' },
    { clientid: 'id-1-3', userId: other.id, state: 'loggedOut' },
  ]);
});

const { get, put } = apiCalls(h, '');

describe('GET /api/admin/users/{id}', () => {
  it('lets everybody read themselves, with the effective fee and intervals from the settings', async () => {
    const res = await get(`/api/admin/users/${member.id}`, member);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: member.id,
      firstname: 'Siti',
      role: 'member',
      blast_fee: 50,
      blast_interval_min: 5,
      blast_interval_max: 15,
      whatsapps: 2,
      income: 0,
    });
    expect(res.body).toHaveProperty('level', null);
    expect(res.body).toHaveProperty('color', null);
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it('lets admin and dev read anyone, and refuses members and staff reading others', async () => {
    expect((await get(`/api/admin/users/${member.id}`, admin)).status).toBe(200);
    expect((await get(`/api/admin/users/${member.id}`, dev)).status).toBe(200);
    const m = await get(`/api/admin/users/${other.id}`, member);
    expect(m.status).toBe(403);
    expect(m.body.msg).toEqual(expect.any(String));
    expect((await get(`/api/admin/users/${member.id}`, staff)).status).toBe(403);
    expect((await get(`/api/admin/users/${staff.id}`, staff)).status).toBe(200);
  });

  it('answers 404 for a missing user and 400 for an id that is not a number', async () => {
    expect((await get('/api/admin/users/99999', admin)).status).toBe(404);
    const bad = await get('/api/admin/users/abc', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/id must be a number/);
  });
});

describe('GET /api/admin/users/blast-fee/{id}', () => {
  it('returns the fee for oneself and for admin/dev, not for another member', async () => {
    expect((await get(`/api/admin/users/blast-fee/${member.id}`, member)).body).toEqual({ blast_fee: 50 });
    expect((await get(`/api/admin/users/blast-fee/${member.id}`, dev)).body).toEqual({ blast_fee: 50 });
    expect((await get(`/api/admin/users/blast-fee/${member.id}`, other)).status).toBe(403);
  });
});

describe('member lists (admin and dev only)', () => {
  it('GET /members lists members only', async () => {
    const res = await get('/api/admin/users/members', admin);
    expect(res.status).toBe(200);
    const roles = new Set(res.body.users.map((u: { id: number }) => u.id));
    expect(roles.has(member.id)).toBe(true);
    expect(roles.has(admin.id)).toBe(false);
    expect(roles.has(staff.id)).toBe(false);
  });

  it('GET /members-per-page pages, searches and refuses bad pages', async () => {
    const res = await get('/api/admin/users/members-per-page?page=1', dev);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ page: 1, totalPages: 1, total: 3 });
    expect(res.body.data).toHaveLength(3);
    const found = await get('/api/admin/users/members-per-page?page=1&search=siti%20ami', dev);
    expect(found.body.data.map((u: { id: number }) => u.id)).toEqual([member.id]);
    const none = await get('/api/admin/users/members-per-page?search=%25', dev);
    expect(none.body.data).toEqual([]);
    expect(none.body.meta.totalPages).toBe(1);
    const bad = await get('/api/admin/users/members-per-page?page=zero', dev);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/page/);
  });

  it("GET /members-per-page?status filters by 'Filter Status': active members have an account connected", async () => {
    const active = await get('/api/admin/users/members-per-page?page=1&status=active', admin);
    expect(active.status).toBe(200);
    const activeIds = active.body.data.map((u: { id: number }) => u.id);
    expect(activeIds).toHaveLength(1);
    const inactive = await get('/api/admin/users/members-per-page?page=1&status=inactive', admin);
    const inactiveIds = inactive.body.data.map((u: { id: number }) => u.id);
    expect(inactiveIds).toHaveLength(2);
    expect(inactiveIds).not.toContain(activeIds[0]);
    const all = await get('/api/admin/users/members-per-page?page=1&status=', admin);
    expect(all.body.data).toHaveLength(3);
    const bad = await get('/api/admin/users/members-per-page?status=sleeping', admin);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toMatch(/active or inactive/);
  });

  it('GET /active counts members with a connected account', async () => {
    expect((await get('/api/admin/users/active', admin)).body).toEqual({ count: 1 });
  });

  it('refuses members and staff on every list', async () => {
    for (const path of ['members', 'members-per-page', 'active']) {
      expect((await get(`/api/admin/users/${path}`, member)).status).toBe(403);
      expect((await get(`/api/admin/users/${path}`, staff)).status).toBe(403);
    }
  });

  it('refuses every list without a token, with a message', async () => {
    for (const path of ['members', 'members-per-page?page=1', 'active']) {
      const res = await get(`/api/admin/users/${path}`);
      expect(res.status, path).toBe(401);
      expect(res.body, path).toEqual({ msg: 'Authorization token is missing' });
    }
  });
});

describe('GET /api/admin/users/referral-per-page', () => {
  it('shows a member their own referrals with list, total and meta', async () => {
    const res = await get('/api/admin/users/referral-per-page?page=1', member);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.meta.totalPages).toBe(1);
    expect(res.body.list.map((r: { firstname: string }) => r.firstname).sort()).toEqual(['Joko', 'Rina']);
    expect(res.body.list[0]).toEqual(
      expect.objectContaining({ id: expect.any(Number), email: expect.any(String), income: 0 }),
    );
    const own = await get(`/api/admin/users/referral-per-page?page=1&userId=${member.id}`, member);
    expect(own.body.total).toBe(2);
  });

  it("refuses a member asking for another user's referrals, and staff altogether", async () => {
    expect((await get(`/api/admin/users/referral-per-page?userId=${member.id}`, other)).status).toBe(403);
    expect((await get('/api/admin/users/referral-per-page', staff)).status).toBe(403);
  });

  it('lets admin and dev look at anyone, or at every referral', async () => {
    expect((await get(`/api/admin/users/referral-per-page?userId=${member.id}`, admin)).body.total).toBe(2);
    expect((await get(`/api/admin/users/referral-per-page?userId=${other.id}`, dev)).body.total).toBe(0);
    expect((await get('/api/admin/users/referral-per-page', dev)).body.total).toBe(2);
  });
});

describe('PUT /api/admin/users/{id}', () => {
  it('lets a member edit their profile and change their password', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const res = await put(`/api/admin/users/${u.id}`, u, {
      firstname: 'Baru',
      lastname: 'Nama',
      account_name: 'Baru Nama',
      account_bank: 'BCA',
      account_number: '1234567890',
      password: 'new-secret',
      current_password: u.password,
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ firstname: 'Baru', account_bank: 'BCA', account_number: '1234567890' });
    const login = await request(h.app).post('/api/auth/login').send({ email: u.email, password: 'new-secret' });
    expect(login.status).toBe(200);
  });

  it('accepts the whole user object sent back unchanged by the profile screen', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const current = (await get(`/api/admin/users/${u.id}`, u)).body.user;
    const res = await put(`/api/admin/users/${u.id}`, u, { ...current, firstname: 'Sama', password: '' });
    expect(res.status).toBe(200);
    expect(res.body.user.firstname).toBe('Sama');
  });

  it('refuses a member raising their own role, fee, level or intervals, and applies nothing', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    for (const body of [
      { role: 'admin' },
      { blast_fee: 99999 },
      { level_id: levelId },
      { blast_interval_min: 0 },
      { firstname: 'Sneaky', role: 'dev' },
    ]) {
      const res = await put(`/api/admin/users/${u.id}`, u, body);
      expect(res.status).toBe(403);
      expect(res.body.msg).toMatch(/You cannot change your own/);
    }
    const after = (await get(`/api/admin/users/${u.id}`, u)).body.user;
    expect(after).toMatchObject({ role: 'member', blast_fee: 50, level_id: null, firstname: u.firstname });
  });

  it('refuses an admin changing their own role or fee', async () => {
    const res = await put(`/api/admin/users/${admin.id}`, admin, { role: 'member' });
    expect(res.status).toBe(403);
    const fee = await put(`/api/admin/users/${admin.id}`, admin, { blast_fee: 1 });
    expect(fee.status).toBe(403);
  });

  it("refuses members and staff editing someone else's profile", async () => {
    expect((await put(`/api/admin/users/${member.id}`, other, { firstname: 'X' })).status).toBe(403);
    expect((await put(`/api/admin/users/${member.id}`, staff, { firstname: 'X' })).status).toBe(403);
  });

  it('lets admin and dev set role, level, fee and intervals of another user (member edit)', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const res = await put(`/api/admin/users/${u.id}`, admin, {
      blast_interval_min: '3',
      blast_interval_max: 9,
      blast_fee: 75,
      level_id: levelId,
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      blast_interval_min: 3,
      blast_interval_max: 9,
      blast_fee: 75,
      level: 'Gold',
      level_id: levelId,
      color: '#3C50E0',
    });
    const promoted = await put(`/api/admin/users/${u.id}`, dev, { role: 'staff' });
    expect(promoted.body.user.role).toBe('staff');
  });

  it('takes the level fee when the user has no own fee', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const res = await put(`/api/admin/users/${u.id}`, dev, { level_id: levelId });
    expect(res.body.user.blast_fee).toBe(120);
  });

  it('answers bad input with 400 and a clear message, never a 500', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const cases: [unknown, RegExp][] = [
      [{}, /^No Data$/],
      [{ blast_fee: 'abc' }, /Fee Whatsapp Blast must be a number/],
      [{ blast_interval_min: 10, blast_interval_max: 2 }, /Interval minimal harus lebih kecil/],
      [{ blast_fee: -5 }, /at least 0/],
      [{ role: 'emperor' }, /Role must be one of/],
      [{ email: 'nope' }, /Invalid email format/],
      [{ level_id: 4242 }, /Level not found/],
      [{ firstname: '' }, /First name is required/],
      [{ firstname: { $ne: 1 } }, /First name must be text/],
    ];
    for (const [body, msg] of cases) {
      const res = await put(`/api/admin/users/${u.id}`, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toMatch(msg);
    }
    const arr = await request(h.app).put(`/api/admin/users/${u.id}`).set(bearer(admin.token)).send([1, 2]);
    expect(arr.status).toBe(400);
  });

  it('refuses an e-mail that belongs to someone else', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const res = await put(`/api/admin/users/${u.id}`, u, {
      email: member.email.toUpperCase(),
      current_password: u.password,
    });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual({ email: 'Email is already registered.' });
  });

  it('applies a demotion at once: the demoted admin’s token ends, and signed in again they lose admin routes', async () => {
    const a2 = await createUser(h.database.db, { role: 'admin' });
    expect((await get('/api/admin/users/members', a2)).status).toBe(200);
    await put(`/api/admin/users/${a2.id}`, dev, { role: 'member' });
    expect((await get('/api/admin/users/members', a2)).status).toBe(401);
    const again = await request(h.app).post('/api/auth/login').send({ email: a2.email, password: a2.password });
    expect(again.body.user.role).toBe('member');
    expect((await get('/api/admin/users/members', { ...a2, token: again.body.token })).status).toBe(403);
  });
});

describe('the settings row', () => {
  it('exists once with the §9 defaults', async () => {
    const res = await h.database.db.execute(sql`select count(*)::int as n, max(bank_names) as banks from settings`);
    const row = (res as unknown as { rows: { n: number; banks: string }[] }).rows[0];
    expect(row).toEqual({ n: 1, banks: 'BCA, MANDIRI, BRI' });
  });
});
