// Issue 24, "Auth edges a second security probe found": API keys and stolen sessions, the sign-in
// lockout under a burst, TRUST_PROXY and the client's own X-Forwarded-For, the socket's origin.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_KEY_TEXTS } from '@wa/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientOptions, WebSocket } from 'ws';
import { loadConfig } from '../../core/src/config';
import { createLogger } from '../../core/src/logger';
import { InProcessBus } from '../../core/src/realtime/bus';
import { createApp } from '../../server/src/app';
import { KEY_PASSWORD_FAILS } from '../../server/src/modules/apikeys/apikeys.service';
import { LOGIN_FAILS_PER_EMAIL, REGISTRATIONS_PER_IP } from '../../server/src/modules/auth/auth.service';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { attachHub, type Hub } from '../../server/src/realtime/hub';
import { bearer, useApi } from '../support/api';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';

let ipSeq = 0;
/** a client address of its own: what the reverse proxy saw, and appends to the client's X-Forwarded-For */
const freshIp = () => `203.0.113.${++ipSeq}`;
/** what a client sends through one proxy: its own (forged) X-Forwarded-For, then the proxy's entry */
const forwarded = (real: string, forged = `198.18.${ipSeq}.${Math.floor(Math.random() * 250)}`) => `${forged}, ${real}`;

// the README's example for one reverse proxy in front: TRUST_PROXY=1
const h = useApi({ trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy });
const bus = new InProcessBus();
afterAll(() => bus.close());

const user = (role: TestUser['role'] = 'member') => createUser(h.database.db, { role });
const withKey = (key: string) => ({ 'X-API-Key': key });
const makeKey = (u: TestUser, body: object = { name: 'script', current_password: u.password }) =>
  request(h.app).post('/api/admin/apikeys').set(bearer(u.token)).send(body);
const readMe = (u: TestUser, headers: Record<string, string>) =>
  request(h.app).get(`/api/admin/users/${u.id}`).set(headers);
const login = (email: string, password: string, xff: string) =>
  request(h.app).post('/api/auth/login').set('X-Forwarded-For', xff).send({ email, password });

describe('API keys and a stolen session', () => {
  it('creating a key needs the current password: absent or wrong is a 400 on current_password', async () => {
    const u = await user();
    const none = await makeKey(u, { name: 'no password' });
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual({ current_password: API_KEY_TEXTS.passwordRequired });
    const wrong = await makeKey(u, { name: 'wrong password', current_password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ current_password: API_KEY_TEXTS.passwordWrong });
    expect((await request(h.app).get('/api/admin/apikeys').set(bearer(u.token))).body.data).toEqual([]);
    const made = await makeKey(u);
    expect(made.status).toBe(201);
    expect((await readMe(u, withKey(made.body.key))).status).toBe(200);
  });

  it('refuses a current password that is empty, of the wrong type, too long or holds a NUL byte, never a 500', async () => {
    const u = await user();
    const cases: Array<[unknown, string]> = [
      ['', API_KEY_TEXTS.passwordRequired],
      [12345678, API_KEY_TEXTS.passwordRequired],
      [null, API_KEY_TEXTS.passwordRequired],
      ['x'.repeat(1025), 'Current password is too long.'],
      [`${u.password}\u0000`, 'must not contain a NUL character (\\0).'],
    ];
    for (const [current_password, msg] of cases) {
      const res = await makeKey(u, { name: 'bad input', current_password });
      expect(res.status, JSON.stringify(current_password).slice(0, 40)).toBe(400);
      expect(res.body.errors).toEqual({ current_password: msg });
    }
    expect((await request(h.app).get('/api/admin/apikeys').set(bearer(u.token))).body.data).toEqual([]);
  });

  it(`a session guessing the password for a key is stopped after ${KEY_PASSWORD_FAILS} wrong tries (429), the right one too`, async () => {
    const u = await user();
    const tries = await Promise.all(
      Array.from({ length: 8 }, (_, i) => makeKey(u, { name: `guess ${i}`, current_password: `guess-${i}` })),
    );
    expect(tries.filter((r) => r.status === 400)).toHaveLength(KEY_PASSWORD_FAILS);
    expect(tries.filter((r) => r.status === 429)).toHaveLength(8 - KEY_PASSWORD_FAILS);
    const right = await makeKey(u);
    expect(right.status).toBe(429);
    expect(right.body.msg).toMatch(/Too many wrong passwords/);
  });

  it('a password change revokes every key of the user, and the answer says so', async () => {
    const u = await user();
    const a = (await makeKey(u)).body.key as string;
    const b = (await makeKey(u, { name: 'second', current_password: u.password })).body.key as string;
    const changed = await request(h.app)
      .put(`/api/admin/users/${u.id}`)
      .set(bearer(u.token))
      .send({ password: 'a-brand-new-secret', current_password: u.password });
    expect(changed.status).toBe(200);
    expect(changed.body.api_keys_revoked).toBe(2);
    expect(changed.body.msg).toContain(API_KEY_TEXTS.revoked(2));
    for (const key of [a, b]) {
      const refused = await readMe(u, withKey(key));
      expect(refused.status).toBe(401);
      expect(refused.body.msg).toBe(API_KEY_TEXTS.invalid);
    }
    const fresh = bearer(changed.body.token);
    expect((await request(h.app).get('/api/admin/apikeys').set(fresh)).body.data).toEqual([]);

    // an admin resetting a member's password revokes the member's keys too
    const admin = await user('admin');
    const member = await user();
    const memberKey = (await makeKey(member)).body.key as string;
    const reset = await request(h.app)
      .put(`/api/admin/users/${member.id}`)
      .set(bearer(admin.token))
      .send({ password: 'reset-by-the-admin' });
    expect(reset.status).toBe(200);
    expect(reset.body.api_keys_revoked).toBe(1);
    expect((await readMe(member, withKey(memberKey))).status).toBe(401);

    // a change that leaves the password alone leaves the keys alone
    const kept = (await makeKey(admin)).body.key as string;
    const renamed = await request(h.app).put(`/api/admin/users/${admin.id}`).set(bearer(admin.token)).send({
      firstname: 'Renamed',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.api_keys_revoked).toBeUndefined();
    expect((await readMe(admin, withKey(kept))).status).toBe(200);
  });

  it('"sign out everywhere" revokes every key of the user, and the answer says so', async () => {
    const u = await user();
    const key = (await makeKey(u)).body.key as string;
    const out = await request(h.app).post('/api/auth/logout-all').set(bearer(u.token));
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ msg: `Signed out on every device. ${API_KEY_TEXTS.revoked(1)}`, api_keys_revoked: 1 });
    expect((await readMe(u, withKey(key))).status).toBe(401);
    expect((await readMe(u, bearer(u.token))).status).toBe(401);
  });

  it('a key cannot change the password or e-mail, sign out everywhere, make keys or get a session', async () => {
    const admin = await user('admin');
    const member = await user();
    const key = (await makeKey(admin)).body.key as string;
    const asKey = (r: request.Test) => r.set(withKey(key));
    const refusals = [
      await asKey(request(h.app).put(`/api/admin/users/${admin.id}`)).send({
        password: 'taken-over-by-key',
        current_password: admin.password,
      }),
      await asKey(request(h.app).put(`/api/admin/users/${admin.id}`)).send({
        email: 'attacker@example.test',
        current_password: admin.password,
      }),
      // nor another user's, with an admin's key
      await asKey(request(h.app).put(`/api/admin/users/${member.id}`)).send({ password: 'taken-over-by-key' }),
      await asKey(request(h.app).post('/api/auth/logout-all')),
      // refused before the body is read: no 400 tells a key holder what the form wants
      await asKey(request(h.app).post('/api/admin/apikeys')).send({}),
      await request(h.app)
        .post('/api/admin/apikeys')
        .set(bearer(key))
        .send({ name: 'another', current_password: admin.password }),
    ];
    expect(refusals.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403]);
    for (const r of refusals) expect(r.body.token).toBeUndefined();
    expect(refusals[0].body.msg).toBe(API_KEY_TEXTS.noCredentials);
    expect(refusals[3].body.msg).toBe(API_KEY_TEXTS.noSignOutEverywhere);
    expect(refusals[4].body.msg).toBe(API_KEY_TEXTS.noKeysWithKeys);
    // a key is no session token: validate says no, and the socket does not take it either (below)
    expect((await request(h.app).post('/api/auth/validate').set(bearer(key))).status).toBe(401);
    // the passwords are as they were, and the key still does what keys may
    expect((await login(admin.email, admin.password, freshIp())).status).toBe(200);
    expect((await login(member.email, member.password, freshIp())).status).toBe(200);
    const edit = await asKey(request(h.app).put(`/api/admin/users/${admin.id}`)).send({ firstname: 'Scripted' });
    expect(edit.status).toBe(200);
    expect(edit.body.token).toBeUndefined();
  });
});

describe('the sign-in lockout under a burst', () => {
  it(`40 wrong passwords at once: at most ${LOGIN_FAILS_PER_EMAIL} are checked, the rest 429, and the right one stays locked out`, async () => {
    const u = await user();
    const ip = freshIp();
    const burst = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(u.email, `wrong-password-${i}`, forwarded(ip))),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_FAILS_PER_EMAIL);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - LOGIN_FAILS_PER_EMAIL);
    const locked = await login(u.email, u.password, forwarded(ip));
    expect(locked.status).toBe(429);
    expect(locked.body.msg).toMatch(/Too many failed sign-in attempts/);
    // the lock is the address's: the owner signs in from elsewhere
    expect((await login(u.email, u.password, freshIp())).status).toBe(200);
  });

  it('a right password is no failure: counted first, it is taken back and the count starts over', async () => {
    const u = await user();
    const ip = freshIp();
    for (let i = 0; i < LOGIN_FAILS_PER_EMAIL - 1; i++)
      expect((await login(u.email, 'wrong-password', ip)).status).toBe(401);
    // nine failures, then a success: the count starts over
    expect((await login(u.email, u.password, ip)).status).toBe(200);
    expect((await login(u.email, 'wrong-password', ip)).status).toBe(401);
    expect((await login(u.email, u.password, ip)).status).toBe(200);
  });
});

describe('TRUST_PROXY and the client’s own X-Forwarded-For', () => {
  it('TRUST_PROXY=true (believe every X-Forwarded-For) stops the start, naming the safe forms', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true .*TRUST_PROXY=1.*loopback/s);
    expect(() => loadConfig({ TRUST_PROXY: '0.0.0.0/0' })).toThrow(/TRUST_PROXY/);
  });

  it('with a hop count the right-most address is the client: forging X-Forwarded-For escapes no lock', async () => {
    const u = await user();
    const ip = freshIp();
    for (let i = 0; i < LOGIN_FAILS_PER_EMAIL; i++)
      expect((await login(u.email, 'wrong-password', forwarded(ip))).status).toBe(401);
    const locked = await login(u.email, u.password, forwarded(ip, '192.0.2.200'));
    expect(locked.status).toBe(429);
  });

  it('nor with the proxies named by address: the right-most address that is not theirs is the client', async () => {
    // an app of its own (its own counters) over the same database, behind a proxy on this host
    const app = createApp({
      db: h.database.db,
      jwtSecret: TEST_JWT_SECRET,
      logger: createLogger('silent'),
      dataDir: h.dataDir,
      trustProxy: loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy,
    });
    const u = await user();
    const ip = freshIp();
    const attempt = (password: string, forged: string) =>
      request(app)
        .post('/api/auth/login')
        .set('X-Forwarded-For', forwarded(ip, forged))
        .send({ email: u.email, password });
    for (let i = 0; i < LOGIN_FAILS_PER_EMAIL; i++)
      expect((await attempt('wrong-password', `192.0.2.${i}`)).status).toBe(401);
    expect((await attempt(u.password, '192.0.2.99')).status).toBe(429);
  });

  it('nor the sign-up limit: a burst of sign-ups with forged addresses gets 30 through, the rest 429', async () => {
    const ip = freshIp();
    const signUp = (i: number) =>
      request(h.app)
        .post('/api/auth/register')
        .set('X-Forwarded-For', forwarded(ip, `198.19.0.${i}`))
        .send({
          firstName: 'Budi',
          lastName: 'S',
          email: `edge-${ip}-${i}@example.test`,
          password: 'rahasia123',
          password2: 'rahasia123',
          agreeToTerms: true,
        });
    const burst = await Promise.all(Array.from({ length: REGISTRATIONS_PER_IP + 5 }, (_, i) => signUp(i)));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(REGISTRATIONS_PER_IP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  }, 60_000);
});

describe('the socket checks the page’s origin', () => {
  /** a hub on a server of its own over the API's app, with these PUBLIC_URL origins */
  async function hubOn(origins?: string[]): Promise<{ server: Server; hub: Hub; base: string; port: number }> {
    const server = createServer(h.app);
    const hub = attachHub(server, {
      bus,
      jwtSecret: TEST_JWT_SECRET,
      authState: (id) => new UsersRepo(h.database.db).authState(id),
      origins,
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    return { server, hub, base: `ws://127.0.0.1:${port}`, port };
  }
  let same: Awaited<ReturnType<typeof hubOn>>;
  let configured: Awaited<ReturnType<typeof hubOn>>;
  let member: TestUser;
  beforeAll(async () => {
    [same, configured, member] = await Promise.all([hubOn(), hubOn(['https://blast.example.com']), user()]);
  });
  afterAll(async () => {
    for (const { server, hub } of [same, configured]) {
      await hub.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  /** 'open', or the HTTP status the upgrade was refused with */
  const attempt = (base: string, token: string, options: ClientOptions = {}) =>
    new Promise<number | 'open'>((resolve, reject) => {
      const ws = new WebSocket(`${base}/ws?id=${member.id}&token=${encodeURIComponent(token)}`, options);
      ws.once('open', () => {
        resolve('open');
        ws.terminate();
      });
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        ws.terminate();
      });
      ws.once('error', reject);
    });

  it('without PUBLIC_URL: a page of the host it connects to is let in, another origin is refused (403)', async () => {
    expect(await attempt(same.base, member.token, { origin: `http://127.0.0.1:${same.port}` })).toBe('open');
    expect(await attempt(same.base, member.token, { origin: 'https://evil.example' })).toBe(403);
    expect(await attempt(same.base, member.token, { origin: `http://127.0.0.1:${same.port + 1}` })).toBe(403);
    expect(await attempt(same.base, member.token, { origin: 'null' })).toBe(403);
    // a script without an Origin header (not a browser) keeps working
    expect(await attempt(same.base, member.token)).toBe('open');
  });

  it('with PUBLIC_URL: only its origin, whatever the Host says', async () => {
    expect(await attempt(configured.base, member.token, { origin: 'https://blast.example.com' })).toBe('open');
    expect(await attempt(configured.base, member.token, { origin: `http://127.0.0.1:${configured.port}` })).toBe(403);
    expect(await attempt(configured.base, member.token, { origin: 'http://blast.example.com' })).toBe(403);
    expect(await attempt(configured.base, member.token)).toBe('open');
  });

  it('an API key opens no socket', async () => {
    const key = (await makeKey(member)).body.key as string;
    expect(await attempt(same.base, key)).toBe(401);
  });
});
