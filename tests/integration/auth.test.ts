import jwt from 'jsonwebtoken';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, bearer, setupApi } from '../support/api';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';

let h: ApiHarness;
let referrer: TestUser;

const form = (over: Record<string, unknown> = {}) => ({
  firstName: 'Budi',
  lastName: 'Santoso',
  email: `budi${Math.random().toString(36).slice(2, 8)}@example.test`,
  password: 'rahasia123',
  password2: 'rahasia123',
  referral_code: '',
  agreeToTerms: true,
  ...over,
});

beforeAll(async () => {
  h = await setupApi();
  referrer = await createUser(h.database.db, { role: 'member' });
});
afterAll(() => h.close());

describe('POST /api/auth/register', () => {
  it('creates a member and returns a token and the user without the password hash', async () => {
    const body = form();
    const res = await request(h.app).post('/api/auth/register').send(body);
    expect(res.status).toBe(201);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.msg).toBeTruthy();
    expect(res.body.user).toMatchObject({ firstname: 'Budi', lastname: 'Santoso', email: body.email, role: 'member' });
    expect(res.body.user.referral_code).toMatch(/^[A-Z2-9]{8}$/);
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it('gives every field error with the spec texts, keyed by field', async () => {
    const res = await request(h.app).post('/api/auth/register').send({ agreeToTerms: true });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      firstName: 'First name is required.',
      lastName: 'Last name is required.',
      email: 'Email is required.',
      password: 'Password is required.',
      password2: 'Please confirm your password.',
    });
    expect(res.body.msg).toBe('First name is required.');
  });

  it('refuses a bad e-mail and passwords that differ', async () => {
    const res = await request(h.app)
      .post('/api/auth/register')
      .send(form({ email: 'not an email', password2: 'other' }));
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({ email: 'Invalid email format.', password2: 'Passwords do not match.' });
  });

  it('enforces the terms on the server', async () => {
    for (const agreeToTerms of [false, undefined, 'no']) {
      const res = await request(h.app).post('/api/auth/register').send(form({ agreeToTerms }));
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('You must agree to the terms and conditions.');
    }
  });

  it('refuses an e-mail that is already registered, whatever its case', async () => {
    const res = await request(h.app)
      .post('/api/auth/register')
      .send(form({ email: referrer.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual({ email: 'Email is already registered.' });
  });

  it('links the referrer by referral_code or affiliateCode, and refuses an unknown code', async () => {
    const a = await request(h.app)
      .post('/api/auth/register')
      .send(form({ referral_code: referrer.referral_code.toLowerCase() }));
    expect(a.status).toBe(201);
    expect(a.body.user.referrer_id).toBe(referrer.id);
    const b = await request(h.app)
      .post('/api/auth/register')
      .send(form({ referral_code: undefined, affiliateCode: referrer.referral_code }));
    expect(b.status).toBe(201);
    expect(b.body.user.referrer_id).toBe(referrer.id);
    const c = await request(h.app)
      .post('/api/auth/register')
      .send(form({ referral_code: 'NOPE0000' }));
    expect(c.status).toBe(400);
    expect(c.body.errors).toEqual({ referral_code: 'Referral code not found.' });
  });

  it('never lets a registration choose its role', async () => {
    const res = await request(h.app)
      .post('/api/auth/register')
      .send(form({ role: 'admin' }));
    expect(res.status).toBe(201);
    expect(res.body.user.role).toBe('member');
  });

  it('answers wrong types and malformed JSON with a 400 and a message', async () => {
    const a = await request(h.app)
      .post('/api/auth/register')
      .send(form({ firstName: 42, email: ['x'] }));
    expect(a.status).toBe(400);
    expect(a.body.errors.firstName).toMatch(/text/);
    expect(a.body.errors.email).toMatch(/text/);
    const b = await request(h.app)
      .post('/api/auth/register')
      .set('Content-Type', 'application/json')
      .send('{"firstName":');
    expect(b.status).toBe(400);
    expect(b.body).toEqual({ msg: 'Malformed JSON in request body' });
    const c = await request(h.app)
      .post('/api/auth/register')
      .set('Content-Type', 'application/json')
      .send('"just a string"');
    expect(c.status).toBe(400);
    expect(c.body.msg).toEqual(expect.any(String));
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password, e-mail case-insensitive', async () => {
    const u = await createUser(h.database.db, { role: 'staff' });
    const res = await request(h.app)
      .post('/api/auth/login')
      .send({ email: u.email.toUpperCase(), password: u.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token: expect.any(String), user: { id: u.id, role: 'staff' } });
    expect(JSON.stringify(res.body)).not.toMatch(/password/i);
  });

  it('refuses a wrong password or unknown e-mail with the same message', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const a = await request(h.app).post('/api/auth/login').send({ email: u.email, password: 'wrong' });
    const b = await request(h.app).post('/api/auth/login').send({ email: 'nobody@example.test', password: 'x' });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body).toEqual({ msg: 'Invalid email or password' });
    expect(b.body).toEqual(a.body);
  });

  it('requires both fields', async () => {
    const res = await request(h.app).post('/api/auth/login').send({ email: 'a@b.c' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('Email and password are required.');
    const none = await request(h.app).post('/api/auth/login');
    expect(none.status).toBe(400);
  });

  it('rate-limits repeated failures for an e-mail, also for the right password', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    for (let i = 0; i < 10; i++) {
      const r = await request(h.app)
        .post('/api/auth/login')
        .send({ email: u.email, password: `bad${i}` });
      expect(r.status).toBe(401);
    }
    const blocked = await request(h.app).post('/api/auth/login').send({ email: u.email, password: u.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.msg).toMatch(/Too many failed sign-in attempts/);
  });
});

describe('POST /api/auth/validate', () => {
  it('accepts a good token from the header or the body and returns the fresh user', async () => {
    const u = await createUser(h.database.db, { role: 'dev' });
    const a = await request(h.app).post('/api/auth/validate').set(bearer(u.token)).send({ token: u.token });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ isvalid: true, user: { id: u.id, role: 'dev' } });
    const b = await request(h.app).post('/api/auth/validate').send({ token: u.token });
    expect(b.status).toBe(200);
  });

  it('answers 401 with isvalid false for a bad, forged, expired or missing token', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const forged = jwt.sign({ sub: String(u.id), role: 'admin' }, 'another-secret-entirely');
    const expired = jwt.sign({ sub: String(u.id), role: 'member' }, TEST_JWT_SECRET, { expiresIn: -10 });
    const gone = jwt.sign({ sub: '999999', role: 'member' }, TEST_JWT_SECRET);
    for (const token of ['garbage', forged, expired, gone]) {
      const res = await request(h.app).post('/api/auth/validate').set(bearer(token)).send({ token });
      expect(res.status).toBe(401);
      expect(res.body.isvalid).toBe(false);
      expect(res.body.msg).toEqual(expect.any(String));
    }
    const none = await request(h.app).post('/api/auth/validate').send({});
    expect(none.status).toBe(401);
    expect(none.body.msg).toBe('Missing auth token');
  });
});

describe('the API as a whole', () => {
  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await request(h.app).get('/api/does/not/exist');
    expect(res.status).toBe(404);
    expect(res.body.msg).toMatch(/Not found/);
  });

  it('refuses protected routes without a token, with a bad one, and for a deleted user', async () => {
    const a = await request(h.app).get('/api/admin/users/members');
    expect(a.status).toBe(401);
    expect(a.body).toEqual({ msg: 'Authorization token is missing' });
    const b = await request(h.app).get('/api/admin/users/members').set(bearer('nope'));
    expect(b.status).toBe(401);
    const ghost = jwt.sign({ sub: '424242', role: 'admin' }, TEST_JWT_SECRET);
    const c = await request(h.app).get('/api/admin/users/members').set(bearer(ghost));
    expect(c.status).toBe(401);
  });
});
