// `npm run admin -- reset-password` with REDIS_URL (the compose stack): the API processes hear on
// Redis that the user's tokens have ended, and close the live sockets opened with them, as a
// password change through the API does.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { RedisBus } from '../../core/src/realtime/bus';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { attachHub, type Hub } from '../../server/src/realtime/hub';
import { CLOSE_TOKEN_ENDED } from '../../server/src/realtime/token-versions';
import { printedPassword, useInstallation } from '../support/admin-cli';
import { createUser, TEST_JWT_SECRET } from '../support/factories';
import { TIME_SCALE, until } from '../support/wait';

const url = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
if (!url) throw new Error('the redis tier needs TEST_REDIS_URL (or REDIS_URL)');
const redisUrl: string = url;
// REDIS_PREFIX of this run: the CLI's bus and this hub's meet under it, and no other run's
const prefix = `test-admin-${randomBytes(4).toString('hex')}`;

const inst = useInstallation({ REDIS_URL: redisUrl, REDIS_PREFIX: prefix });
const server = createServer((_req, res) => {
  res.statusCode = 404;
  res.end();
});
let bus: RedisBus;
let hub: Hub;

beforeAll(async () => {
  bus = new RedisBus(redisUrl, `${prefix}:`);
  hub = attachHub(server, {
    bus,
    jwtSecret: TEST_JWT_SECRET,
    // read per admission: the database the installation has open now
    authState: (id) => new UsersRepo(inst.database.db).authState(id),
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
});

afterAll(async () => {
  await hub?.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await bus?.close();
});

it('reset-password closes the live sockets opened with the old session (4001) on the API processes', async () => {
  const admin = await createUser(inst.database.db, { role: 'admin' });
  const { port } = server.address() as AddressInfo;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?id=${admin.id}&token=${encodeURIComponent(admin.token)}`);
  const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  // an admission waits for the hub's subscription to the token versions: from here a bump is heard
  await until(() => hub.stats().sockets === 1, 'the socket admitted', 10_000);

  const run = await inst.admin('reset-password', admin.email);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  printedPassword(run);
  expect(run.stderr).toBe('');
  const code = await Promise.race([
    closed,
    new Promise<string>((r) => setTimeout(() => r('still open'), 10_000 * TIME_SCALE)),
  ]);
  expect(code).toBe(CLOSE_TOKEN_ENDED);
});
