import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { users } from '../../core/src/db/schema/index';
import { publishLive, publishToAdmins, publishToUser } from '../../core/src/realtime/publish';
import { signToken } from '../../server/src/auth/tokens';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { createUser, TEST_JWT_SECRET } from '../support/factories';
import { useLiveHub } from '../support/live-hub';
import { until } from '../support/wait';

/**
 * The realtime hub's doors: which socket receives which event, and which upgrades it refuses. Its
 * bus subscriptions, socket health and per-user limits: realtime-hub-limits.test.ts.
 */

const live = useLiveHub();
const { h, bus, hub, attempt, wsUrl, connect, sentinel } = live;
const { memberA, memberB, admin, dev, staff } = live.users;

describe('realtime hub: who receives what', () => {
  it('delivers an event on the member’s own channel as the exact JSON text {event, payload}', async () => {
    const a = await connect(memberA);
    const payload = {
      deviceId: 'Budi ✓ "quoted"',
      value: 12,
      income: 600,
      receiver: { id: 3, count_success: 1, count_fail: 0, last_sent: null, in_use: 0 },
    };
    await publishToUser(bus, memberA.id, 'count_success', payload);
    await until(() => a.frames.length === 1, 'one frame');
    expect(a.frames[0].binary).toBe(false);
    expect(a.frames[0].text).toBe(JSON.stringify({ event: 'count_success', payload }));
    expect(JSON.parse(a.frames[0].text)).toEqual({ event: 'count_success', payload });

    await publishLive(bus, `client-${memberA.id}`, 'sending', { deviceId: 'd-3', status: 'sending' });
    await until(() => a.frames.length === 2, 'a second frame');
    expect(a.messages()[1]).toEqual({ event: 'sending', payload: { deviceId: 'd-3', status: 'sending' } });
  });

  it('never gives a member another member’s events nor client-admin events', async () => {
    const a = await connect(memberA);
    const b = await connect(memberB);
    await publishToUser(bus, memberB.id, 'qr', { deviceId: 'd-9', qr: 'secret-of-b' });
    await publishToAdmins(bus, 'count_fail', { deviceId: 'd-of-b', value: 1, income: 0 });
    const mark = await sentinel(a, memberA.id);
    expect(a.messages()).toEqual([mark]);
    await until(() => b.frames.length === 1, 'member B’s own event');
    expect(b.messages()).toEqual([{ event: 'qr', payload: { deviceId: 'd-9', qr: 'secret-of-b' } }]);
  });

  it('gives admin and dev the client-admin events and their own, but not a member’s', async () => {
    const ad = await connect(admin);
    const dv = await connect(dev);
    const counted = { deviceId: 'd-of-a', value: 5, income: 250 };
    const clientInfo = {
      phonenumber: '6281200000002',
      pushname: 'Admin',
      server: 'c.us',
      serialized: '6281200000002@c.us',
    };
    await publishToAdmins(bus, 'count_success', counted);
    await publishToUser(bus, memberA.id, 'qr', { deviceId: 'd-1', qr: 'qr-of-a' });
    await publishToUser(bus, admin.id, 'authenticated', { deviceId: 'd-2', clientInfo });
    await publishToUser(bus, dev.id, 'idle', { deviceId: 'd-4', status: 'idle' });
    const adminMark = await sentinel(ad, admin.id);
    const devMark = await sentinel(dv, dev.id);
    expect(ad.messages()).toEqual([
      { event: 'count_success', payload: counted },
      { event: 'authenticated', payload: { deviceId: 'd-2', clientInfo } },
      adminMark,
    ]);
    expect(dv.messages()).toEqual([
      { event: 'count_success', payload: counted },
      { event: 'idle', payload: { deviceId: 'd-4', status: 'idle' } },
      devMark,
    ]);
  });

  it('gives staff its own events but not client-admin events', async () => {
    const s = await connect(staff);
    await publishToAdmins(bus, 'finished', {
      deviceId: 'd-1',
      state: 'connected',
      status: 'idle',
      message: 'done',
      reason: 'finished',
    });
    await publishToUser(bus, staff.id, 'stop', { deviceId: 'd-6', status: 'idle' });
    const mark = await sentinel(s, staff.id);
    expect(s.messages()).toEqual([{ event: 'stop', payload: { deviceId: 'd-6', status: 'idle' } }, mark]);
  });

  it('reads the role fresh at connect time, not from the token', async () => {
    const promoted = await createUser(h.database.db, { role: 'member' });
    await new UsersRepo(h.database.db).update(promoted.id, { role: 'admin' });
    const s = await connect(promoted); // the token still says member
    await publishToAdmins(bus, 'count_fail', { deviceId: 'd-n', value: 1, income: 0 });
    const mark = await sentinel(s, promoted.id);
    expect(s.messages()).toEqual([{ event: 'count_fail', payload: { deviceId: 'd-n', value: 1, income: 0 } }, mark]);
  });
});

describe('realtime hub: refused upgrades', () => {
  const refused = async (url: string) => {
    const before = hub.stats();
    const r = await attempt(url);
    expect(r.opened).toBe(false);
    expect(hub.stats()).toEqual(before);
    return r.opened ? 101 : r.status;
  };

  it('answers 401 without a token, with a bad, forged or expired token, or without an id', async () => {
    expect(await refused(`${live.base}/ws?id=${memberA.id}`)).toBe(401);
    expect(await refused(`${live.base}/ws?id=${memberA.id}&token=`)).toBe(401);
    expect(await refused(wsUrl(memberA.id, 'not-a-jwt'))).toBe(401);
    expect(await refused(wsUrl(memberA.id, signToken('another-secret', { id: memberA.id, role: 'member' })))).toBe(401);
    const expired = jwt.sign(
      { sub: String(memberA.id), role: 'member', exp: Math.floor(Date.now() / 1000) - 60 },
      TEST_JWT_SECRET,
    );
    expect(await refused(wsUrl(memberA.id, expired))).toBe(401);
    expect(await refused(`${live.base}/ws?token=${encodeURIComponent(memberA.token)}`)).toBe(401);
    // the same token is accepted with the right id, so the refusals above are about the token
    expect((await attempt(wsUrl(memberA.id, memberA.token))).opened).toBe(true);
  });

  it('answers 401 for the token of a deleted user', async () => {
    const gone = await createUser(h.database.db, { role: 'admin' });
    expect((await attempt(wsUrl(gone.id, gone.token))).opened).toBe(true);
    await h.database.db.delete(users).where(eq(users.id, gone.id));
    expect(await refused(wsUrl(gone.id, gone.token))).toBe(401);
  });

  it('answers 401 for a token that "log out everywhere" ended; a fresh one is admitted', async () => {
    const u = await createUser(h.database.db, { role: 'member' });
    expect((await attempt(wsUrl(u.id, u.token))).opened).toBe(true);
    await new UsersRepo(h.database.db).bumpTokenVersion(u.id);
    expect(await refused(wsUrl(u.id, u.token))).toBe(401);
    const fresh = signToken(TEST_JWT_SECRET, { id: u.id, role: 'member', tokenVersion: 1 });
    expect((await attempt(wsUrl(u.id, fresh))).opened).toBe(true);
  });

  it('answers 401 when the id is not the token’s user', async () => {
    expect(await refused(wsUrl(memberB.id, memberA.token))).toBe(401);
    expect(await refused(wsUrl(admin.id, memberA.token))).toBe(401);
    expect(await refused(wsUrl(`${memberA.id}abc`, memberA.token))).toBe(401);
  });

  it('refuses upgrades on any other path, and plain HTTP still works', async () => {
    const q = `id=${memberA.id}&token=${encodeURIComponent(memberA.token)}`;
    expect(await refused(`${live.base}/api/health?${q}`)).toBe(404);
    expect(await refused(`${live.base}/ws/other?${q}`)).toBe(404);
    expect(await refused(`${live.base}/wss?${q}`)).toBe(404);
    const res = await fetch(`${live.base.replace('ws:', 'http:')}/api/health`);
    // the health route answers (no worker runs here, so with 503 'degraded'; see health.test.ts)
    expect(await res.json()).toMatchObject({ database: { up: true } });
  });
});
