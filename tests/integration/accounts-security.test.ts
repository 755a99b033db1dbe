// Issue 8 "Accounts and tokens" and "Data that leaks" (NUL): token versions, the current password,
// who may change whose credentials and roles, the sign-in lockout, password length, NUL bytes.
import { PASSWORD_LONG_MSG, PASSWORD_SHORT_MSG } from '@wa/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDev } from '../../server/src/bootstrap';
import { CURRENT_PASSWORD_REQUIRED, CURRENT_PASSWORD_WRONG } from '../../server/src/modules/users/users.service';
import { type ApiHarness, bearer, setupApi } from '../support/api';
import { createUser, type TestUser } from '../support/factories';

let h: ApiHarness;
/** a second app over its own database that does not trust X-Forwarded-For (the default) */
let untrusting: ApiHarness;

beforeAll(async () => {
  [h, untrusting] = await Promise.all([setupApi({ trustProxy: 1 }), setupApi()]);
});
afterAll(async () => {
  await Promise.all([h.close(), untrusting.close()]);
});

let ipSeq = 0;
/** A client address of its own, so the per-address counters of one test do not touch another's. */
const freshIp = () => `198.51.100.${++ipSeq}`;

const user = (role: TestUser['role'], over: Partial<Parameters<typeof createUser>[1]> = {}) =>
  createUser(h.database.db, { role, ...over });
const me = (u: TestUser, token = u.token) => request(h.app).get(`/api/admin/users/${u.id}`).set(bearer(token));
const put = (actor: TestUser, id: number, body: object, token = actor.token) =>
  request(h.app).put(`/api/admin/users/${id}`).set(bearer(token)).send(body);
const login = (email: string, password: string, ip = freshIp(), app = h.app) =>
  request(app).post('/api/auth/login').set('X-Forwarded-For', ip).send({ email, password });
const validate = (token: string) => request(h.app).post('/api/auth/validate').send({ token });

describe('token versions', () => {
  it('a password change ends the older tokens, and the answer carries a fresh one for this browser', async () => {
    const u = await user('member');
    const other = (await login(u.email, u.password)).body.token as string;
    expect((await me(u, other)).status).toBe(200);
    const res = await put(u, u.id, { password: 'a-new-secret', current_password: u.password });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
    for (const old of [u.token, other]) {
      expect((await me(u, old)).status).toBe(401);
      expect((await validate(old)).body.isvalid).toBe(false);
    }
    expect((await me(u, res.body.token)).status).toBe(200);
    expect((await validate(res.body.token)).body.isvalid).toBe(true);
    expect((await login(u.email, u.password)).status).toBe(401);
    expect((await login(u.email, 'a-new-secret')).status).toBe(200);
  });

  it('an e-mail change ends the older tokens too', async () => {
    const u = await user('member');
    const res = await put(u, u.id, { email: `moved-${u.id}@example.test`, current_password: u.password });
    expect(res.status).toBe(200);
    expect((await me(u)).status).toBe(401);
    expect((await me(u, res.body.token)).status).toBe(200);
  });

  it('a role change by an admin ends the user’s tokens; a name change does not', async () => {
    const admin = await user('admin');
    const u = await user('member');
    expect((await put(admin, u.id, { firstname: 'Renamed' })).status).toBe(200);
    expect((await me(u)).status).toBe(200);
    const res = await put(admin, u.id, { role: 'staff' });
    expect(res.status).toBe(200);
    expect(res.body.token).toBeUndefined(); // the admin's own token is untouched
    expect((await me(u)).status).toBe(401);
    expect((await me(admin)).status).toBe(200);
    const again = await login(u.email, u.password);
    expect(again.body.user.role).toBe('staff');
    expect((await me(u, again.body.token)).status).toBe(200);
  });

  it('"log out everywhere" ends every token of the caller and nobody else’s', async () => {
    const u = await user('member');
    const bystander = await user('member');
    const second = (await login(u.email, u.password)).body.token as string;
    const res = await request(h.app).post('/api/auth/logout-all').set(bearer(second));
    expect(res.status).toBe(200);
    expect(res.body.msg).toEqual(expect.any(String));
    expect((await me(u)).status).toBe(401);
    expect((await me(u, second)).status).toBe(401);
    expect((await request(h.app).post('/api/auth/logout-all').set(bearer(second))).status).toBe(401);
    expect((await me(bystander)).status).toBe(200);
    expect((await login(u.email, u.password)).status).toBe(200);
  });

  it('"log out everywhere" needs a token', async () => {
    const res = await request(h.app).post('/api/auth/logout-all');
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('Authorization token is missing');
  });
});

describe('changing one’s own password or e-mail needs the current password', () => {
  it('refuses a password change without it, or with a wrong one, and keeps the old password', async () => {
    const u = await user('member');
    const none = await put(u, u.id, { password: 'another-pass' });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({
      msg: CURRENT_PASSWORD_REQUIRED,
      errors: { current_password: CURRENT_PASSWORD_REQUIRED },
    });
    const wrong = await put(u, u.id, { password: 'another-pass', current_password: 'not-it-at-all' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ current_password: CURRENT_PASSWORD_WRONG });
    expect((await login(u.email, u.password)).status).toBe(200);
    expect((await me(u)).status).toBe(200);
  });

  it('refuses an e-mail change without it; other profile fields need none', async () => {
    const u = await user('staff');
    const res = await put(u, u.id, { email: `x-${u.id}@example.test` });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('current_password');
    // the web sends the whole profile back: the unchanged e-mail is not a change
    const names = await put(u, u.id, { firstname: 'Dewi', email: u.email, account_name: 'Dewi' });
    expect(names.status).toBe(200);
    expect(names.body.user.firstname).toBe('Dewi');
  });

  it('an admin sets a member’s password without knowing the old one', async () => {
    const admin = await user('admin');
    const u = await user('member');
    expect((await put(admin, u.id, { password: 'set-by-admin' })).status).toBe(200);
    expect((await login(u.email, 'set-by-admin')).status).toBe(200);
    expect((await me(u)).status).toBe(401);
  });

  it('limits password and e-mail changes per user (429 past 5 in 15 minutes)', async () => {
    const u = await user('member');
    for (let i = 0; i < 5; i++) {
      expect((await put(u, u.id, { password: 'whatever-1', current_password: 'wrong-guess' })).status).toBe(400);
    }
    const res = await put(u, u.id, { password: 'whatever-1', current_password: u.password });
    expect(res.status).toBe(429);
    expect(res.body.msg).toMatch(/Too many password or e-mail changes/);
    expect((await put(u, u.id, { firstname: 'Still' })).status).toBe(200);
  });
});

describe('who may change whose role and credentials', () => {
  it('only a dev grants or removes the dev role', async () => {
    const admin = await user('admin');
    const dev = await user('dev');
    const m = await user('member');
    const grant = await put(admin, m.id, { role: 'dev' });
    expect(grant.status).toBe(403);
    expect(grant.body.msg).toBe('Only a dev may grant or remove the dev role.');
    expect((await put(dev, m.id, { role: 'dev' })).status).toBe(200);
    const fresh = await login(m.email, m.password);
    expect(fresh.body.user.role).toBe('dev');
    expect((await put(admin, m.id, { role: 'member' })).status).toBe(403);
    expect((await put(dev, m.id, { role: 'member' })).status).toBe(200);
  });

  it('an admin may not change another admin’s or a dev’s password, e-mail or role', async () => {
    const admin = await user('admin');
    const otherAdmin = await user('admin');
    const dev = await user('dev');
    for (const target of [otherAdmin, dev]) {
      for (const body of [
        { password: 'hijack-123' },
        { email: `hijack-${target.id}@example.test` },
        { role: 'member' },
      ]) {
        const res = await put(admin, target.id, body);
        expect(res.status, JSON.stringify(body)).toBe(403);
      }
      expect((await login(target.email, target.password)).status).toBe(200);
    }
    // a dev may, and an admin still manages members and staff
    expect((await put(dev, otherAdmin.id, { password: 'reset-by-dev' })).status).toBe(200);
    const staff = await user('staff');
    expect((await put(admin, staff.id, { password: 'reset-by-admin' })).status).toBe(200);
    expect((await put(admin, staff.id, { role: 'admin' })).status).toBe(200);
  });

  it('DEV_EMAIL/DEV_PASSWORD create the first dev on a start with no dev, and only then', async () => {
    const fresh = await setupApi();
    try {
      expect(await ensureDev(fresh.database.db, null, null)).toEqual({ created: false });
      const made = await ensureDev(fresh.database.db, 'first-dev@example.test', 'dev-password-1');
      expect(made).toMatchObject({ created: true, email: 'first-dev@example.test' });
      expect(await ensureDev(fresh.database.db, 'second-dev@example.test', 'dev-password-2')).toEqual({
        created: false,
      });
      const res = await request(fresh.app)
        .post('/api/auth/login')
        .send({ email: 'first-dev@example.test', password: 'dev-password-1' });
      expect(res.status).toBe(200);
      expect(res.body.user.role).toBe('dev');
    } finally {
      await fresh.close();
    }
  });
});

describe('the sign-in lockout', () => {
  it('failures on other e-mails from one address do not lock an account out of that address', async () => {
    const admin = await user('admin');
    const ip = freshIp();
    for (let i = 0; i < 58; i++) {
      expect((await login(`nobody${i}@example.test`, 'wrong-password', ip)).status).toBe(401);
    }
    const res = await login(admin.email, admin.password, ip);
    expect(res.status).toBe(200);
  }, 60_000);

  it('locks one account on one address after 10 failures; the same account elsewhere still signs in', async () => {
    const u = await user('member');
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await login(u.email, 'wrong-password', ip)).status).toBe(401);
    const locked = await login(u.email, u.password, ip);
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toMatch(/Too many failed sign-in attempts/);
    expect((await login(u.email, u.password, freshIp())).status).toBe(200);
  });

  it('without TRUST_PROXY a forged X-Forwarded-For does not escape the lock', async () => {
    const u = await createUser(untrusting.database.db, { role: 'member' });
    for (let i = 0; i < 10; i++) {
      expect((await login(u.email, 'wrong-password', freshIp(), untrusting.app)).status).toBe(401);
    }
    expect((await login(u.email, u.password, freshIp(), untrusting.app)).status).toBe(429);
  });
});

describe('password length', () => {
  const register = (password: string) =>
    request(h.app)
      .post('/api/auth/register')
      .set('X-Forwarded-For', freshIp())
      .send({
        firstName: 'Budi',
        lastName: 'S',
        email: `budi-${Math.random().toString(36).slice(2, 9)}@example.test`,
        password,
        password2: password,
        agreeToTerms: true,
      });

  it('sign-up needs at least 8 characters and refuses more than 72 bytes instead of cutting them', async () => {
    const short = await register('1234567');
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ password: PASSWORD_SHORT_MSG });
    const long = await register('é'.repeat(37)); // 37 characters, 74 bytes
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({ password: PASSWORD_LONG_MSG });
    expect((await register('12345678')).status).toBe(201);
    expect((await register('a'.repeat(72))).status).toBe(201);
  });

  it('a password change follows the same rule', async () => {
    const u = await user('member');
    const short = await put(u, u.id, { password: 'short', current_password: u.password });
    expect(short.status).toBe(400);
    expect(short.body.errors.password).toBe(PASSWORD_SHORT_MSG);
    const long = await put(u, u.id, { password: 'x'.repeat(73), current_password: u.password });
    expect(long.status).toBe(400);
    expect(long.body.errors.password).toBe(PASSWORD_LONG_MSG);
  });
});

describe('a NUL byte is a 400 with a message, never a 500', () => {
  it('on the unauthenticated sign-in and sign-up', async () => {
    const a = await login('ad\u0000min@example.test', 'whatever-pass');
    expect(a.status).toBe(400);
    expect(a.body.msg).toMatch(/NUL/);
    const b = await request(h.app)
      .post('/api/auth/register')
      .send({ firstName: 'A\u0000', lastName: 'B', email: 'nul@example.test', password: 'x', password2: 'x' });
    expect(b.status).toBe(400);
    expect(b.body.msg).toMatch(/NUL/);
  });

  it('in ?search= and in JSON bodies of signed-in routes', async () => {
    const admin = await user('admin');
    for (const path of [
      '/api/admin/phonenumber/list-per-page?search=62%00',
      '/api/admin/users/members-per-page?search=a%00b',
      '/api/admin/whatsapp/list-per-page?search=%00',
    ]) {
      const res = await request(h.app).get(path).set(bearer(admin.token));
      expect(res.status, path).toBe(400);
      expect(res.body.msg, path).toMatch(/NUL/);
    }
    const body = await put(admin, admin.id, { firstname: 'Ad\u0000min' });
    expect(body.status).toBe(400);
    const proxy = await request(h.app)
      .post('/api/admin/proxy/save')
      .set(bearer(admin.token))
      .send({ value: '1.2.3.4:80\u0000' });
    expect(proxy.status).toBe(400);
  });

  it('in a multipart field the schemas let through, the database’s refusal becomes a 400', async () => {
    const admin = await user('admin');
    const res = await request(h.app)
      .post('/api/admin/message/create')
      .set(bearer(admin.token))
      .field('text', 'Halo\u0000 {name}')
      .field('text_wa', 'Halo\u0000 {name}')
      .field('status', 'active');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.msg).toEqual(expect.any(String));
  });

  it('in a path segment', async () => {
    const admin = await user('admin');
    const res = await request(h.app).get('/api/admin/whatsapp/client-state/id-1%00-2').set(bearer(admin.token));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
