import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { publishToAdmins, publishToUser, TOKEN_VERSION_CHANNEL } from '../../core/src/realtime/publish';
import { attachHub } from '../../server/src/realtime/hub';
import { CLOSE_TOKEN_ENDED } from '../../server/src/realtime/token-versions';
import { CLOSE_TOKEN_ENDED as WEB_CLOSE_TOKEN_ENDED } from '../../web/src/api/live-reconnect';
import { apiAs } from '../support/api';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../support/factories';
import { closedWithin, type LiveSocket, useLiveHub } from '../support/live-hub';
import { until } from '../support/wait';

/**
 * Sockets whose token ends while they are open: a token-version bump (password, e-mail or role
 * change, "log out everywhere") reaches every hub over the bus, and the user's sockets opened with
 * an older token are closed with 4001, which the web treats as "check the token, do not reconnect".
 * The version check at admission: realtime-hub-access.test.ts. Across two replicas over Redis:
 * tests/redis/realtime.redis.test.ts.
 */

const live = useLiveHub();
const { h, bus, attempt, authState, wsUrl, connect, sentinel } = live;
const { memberA, dev } = live.users;

const signIn = async (u: TestUser) => {
  const res = await request(h.app).post('/api/auth/login').send({ email: u.email, password: u.password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
};

/** Whether a frame naming `mark` reached the socket. */
const heard = (s: LiveSocket, mark: string) => s.frames.some((f) => f.text.includes(mark));

describe('realtime hub: sockets whose token ends while open', () => {
  it('the web and the hub agree on the close code', () => {
    expect(CLOSE_TOKEN_ENDED).toBe(4001);
    expect(WEB_CLOSE_TOKEN_ENDED).toBe(CLOSE_TOKEN_ENDED);
  });

  it('"log out everywhere" closes every socket of the user (4001) and no other; the old token is refused, a fresh one admitted', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    const second = await signIn(u);
    const one = await connect(u);
    const two = await connect({ ...u, token: second });
    const bystander = await connect(memberA);

    const out = await apiAs(h, { ...u, token: second }).post('/auth/logout-all', {});
    expect(out.status).toBe(200);
    expect(await closedWithin(one)).toBe(CLOSE_TOKEN_ENDED);
    expect(await closedWithin(two)).toBe(CLOSE_TOKEN_ENDED);
    expect(one.reason()).toBe('token ended');
    // nothing published after the bump reaches them; the bystander's socket stays and hears its own
    await publishToUser(bus, u.id, 'error', { deviceId: 'after-logout', message: 'x' });
    await sentinel(bystander, memberA.id);
    expect(heard(one, 'after-logout') || heard(two, 'after-logout')).toBe(false);
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN);

    const again = await attempt(wsUrl(u.id, u.token));
    expect(again.opened ? 101 : again.status).toBe(401);
    const fresh = await connect({ ...u, token: await signIn(u) });
    await sentinel(fresh, u.id);
  });

  it('a demoted admin’s socket is closed and stops receiving client-admin events; signed in again, it gets a member’s', async () => {
    const a = await createUser(h.database.db, { role: 'admin' });
    const s = await connect(a);
    await publishToAdmins(bus, 'error', { deviceId: 'before-demotion', message: 'admins only' });
    await until(() => heard(s, 'before-demotion'), 'the admin event before the demotion');

    expect((await apiAs(h, dev).put(`/admin/users/${a.id}`, { role: 'member' })).status).toBe(200);
    expect(await closedWithin(s)).toBe(CLOSE_TOKEN_ENDED);
    await publishToAdmins(bus, 'error', { deviceId: 'after-demotion', message: 'admins only' });

    const again = await connect({ ...a, token: await signIn(a) });
    await publishToAdmins(bus, 'error', { deviceId: 'after-sign-in', message: 'admins only' });
    await sentinel(again, a.id);
    expect(heard(s, 'after-demotion')).toBe(false);
    expect(heard(again, 'after-demotion') || heard(again, 'after-sign-in')).toBe(false);
    // an edit that ends no token (a name) closes nothing
    const other = await createUser(h.database.db, { role: 'admin' });
    const kept = await connect(other);
    expect((await apiAs(h, dev).put(`/admin/users/${other.id}`, { firstname: 'Renamed' })).status).toBe(200);
    expect(await closedWithin(kept, 500)).toBe('still open');
    await publishToAdmins(bus, 'error', { deviceId: 'after-rename', message: 'admins only' });
    await until(() => heard(kept, 'after-rename'), 'the admin event after a rename');
  });

  it('one’s own password change closes the older sockets; the socket opened with the answer’s token stays', async () => {
    const u = await createUser(h.database.db, { role: 'staff' });
    const old = await connect(u);
    const changed = await apiAs(h, u).put(`/admin/users/${u.id}`, {
      password: 'a-brand-new-pass',
      current_password: u.password,
    });
    expect(changed.status).toBe(200);
    const fresh = await connect({ ...u, token: changed.body.token });
    expect(await closedWithin(old)).toBe(CLOSE_TOKEN_ENDED);
    expect(await closedWithin(fresh, 300)).toBe('still open');
    await sentinel(fresh, u.id);
  });

  it('a socket whose admission read the version just before the bump is closed as it opens', async () => {
    // a second hub whose read of the user is held until the bump has been announced
    let read!: () => void;
    const wasRead = new Promise<void>((r) => {
      read = r;
    });
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const slow = createServer();
    const slowHub = attachHub(slow, {
      bus,
      jwtSecret: TEST_JWT_SECRET,
      authState: async (id) => {
        const state = await authState(id);
        read();
        await held;
        return state;
      },
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
    try {
      const u = await createUser(h.database.db, { role: 'member' });
      const url = `ws://127.0.0.1:${(slow.address() as AddressInfo).port}/ws?id=${u.id}&token=${encodeURIComponent(u.token)}`;
      const opening = attempt(url);
      await wasRead;
      expect((await apiAs(h, u).post('/auth/logout-all', {})).status).toBe(200);
      release();
      const r = await opening;
      if (!r.opened) throw new Error(`refused with ${r.status}`);
      expect(await closedWithin(r.socket)).toBe(CLOSE_TOKEN_ENDED);
      await until(() => slowHub.stats().sockets === 0, 'the second hub to let go of it');
    } finally {
      release();
      await slowHub.close();
      slow.closeAllConnections();
      await new Promise((r) => slow.close(r));
    }
  });

  it('leaves the token-version channel when the hub closes', async () => {
    expect(bus.count(TOKEN_VERSION_CHANNEL)).toBe(1); // the suite's hub
    const extraHub = attachHub(createServer(), { bus, jwtSecret: TEST_JWT_SECRET, authState });
    await until(() => bus.count(TOKEN_VERSION_CHANNEL) === 2, 'the second hub to subscribe');
    await extraHub.close();
    expect(bus.count(TOKEN_VERSION_CHANNEL)).toBe(1);
  });
});
