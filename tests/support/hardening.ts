import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, expect } from 'vitest';
import { WebSocket } from 'ws';
import { rows } from '../../core/src/db/client';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { attachHub, type Hub } from '../../server/src/realtime/hub';
import { bearer } from './api';
import { OFFICE_USERS, TEST_JWT_SECRET, type TestUser, useUsers } from './factories';
import { connectAccount, type SavedAccount, setSimEnv, useWaHarness } from './wa-engine';

/** An active target number the suites send to. */
export const TARGET = '6287733300001';

/**
 * What the hardening suites (hardening-tokens, hardening-input) start from: an engine on the
 * simulator with the API on a real port and the realtime hub on it, admin, dev, staff and two
 * members, a connected account of the first member and of staff, and one active target number.
 * Everything is filled in by beforeAll.
 */
export function useHardeningSuite() {
  // the simulated phone pairs quickly and every send succeeds: the tests are about the rules
  setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 0, sendFailRate: 0 });
  const h = useWaHarness({ blastSecondMs: 1 });
  const users = useUsers(() => h.database.db, { ...OFFICE_USERS, member: 'member', otherMember: 'member' });
  const memberAcc = {} as SavedAccount;
  const staffAcc = {} as SavedAccount;
  const net: { server?: Server; hub?: Hub; wsBase: string } = { wsBase: '' };
  beforeAll(async () => {
    const server = createServer(h.app);
    const repo = new UsersRepo(h.database.db);
    net.server = server;
    net.hub = attachHub(server, { bus: h.bus, jwtSecret: TEST_JWT_SECRET, authState: (id) => repo.authState(id) });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    net.wsBase = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(memberAcc, (await connectAccount(h, users.member)).account);
    Object.assign(staffAcc, (await connectAccount(h, users.staff)).account);
    await h.database.db.execute(
      sql`insert into phone_numbers (number, name, status) values (${TARGET}, 'Target', 'active')`,
    );
  });
  afterAll(async () => {
    await net.hub?.close();
    net.server?.closeAllConnections();
    await new Promise((r) => net.server?.close(r));
  });

  return {
    h,
    users,
    memberAcc,
    staffAcc,
    /** calls under /api with `u`'s token */
    as: (u: { token: string }) => ({
      get: (p: string) => request(h.app).get(`/api${p}`).set(bearer(u.token)),
      post: (p: string, body: object = {}) => request(h.app).post(`/api${p}`).set(bearer(u.token)).send(body),
      put: (p: string, body: object) => request(h.app).put(`/api${p}`).set(bearer(u.token)).send(body),
    }),
    /** the same user holding another token (an older one, a forged one) */
    withToken: (u: TestUser, token: string): TestUser => ({ ...u, token }),
    /** a GET with the token in the cookie only, as the dashboard's downloads send it */
    cookieGet: (p: string, token: string) =>
      request(h.app)
        .get(`/api${p}`)
        .set('Cookie', `authToken=${encodeURIComponent(token)}`),
    /** signs in through the API; the token */
    login: async (u: TestUser) => {
      const res = await request(h.app).post('/api/auth/login').send({ email: u.email, password: u.password });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.token as string;
    },
    /** Whether the hub admits a socket for this user and token: 101 (opened) or the refusal status. */
    admission: (id: number, token: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`${net.wsBase}/ws?id=${id}&token=${encodeURIComponent(token)}`);
        ws.once('open', () => {
          ws.terminate();
          resolve(101);
        });
        ws.once('unexpected-response', (_req, res) => {
          res.resume();
          ws.terminate();
          resolve(res.statusCode ?? 0);
        });
        ws.once('error', reject);
      }),
    /** the hub's WebSocket address */
    wsBase: () => net.wsBase,
    /** A validator row of `owner` on `whatsappId` with its file in the validator folder, as create leaves it. */
    validatorOf: async (owner: TestUser, whatsappId: number): Promise<{ id: number; text: string }> => {
      const stored = `audit-${owner.id}-${Date.now()}.csv`;
      const text = `number\n62818${String(owner.id).padStart(8, '0')}\n`;
      const dir = path.join(h.dataDir, 'uploads', 'validators');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, stored), text);
      const [row] = await rows<{ id: number }>(
        h.database.db,
        sql`insert into validators (user_id, whatsapp_id, b_insert, interval_min, interval_max, file_name, file_url, total)
            values (${owner.id}, ${whatsappId}, 0, 0, 0, 'kontak.csv', ${`/uploads/validators/${stored}`}, 1) returning id`,
      );
      return { id: row?.id ?? 0, text };
    },
  };
}
