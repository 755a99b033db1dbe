import { Writable } from 'node:stream';
import type { FirstRunDto } from '@wa/shared';
import pino from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  bootstrapInstallation,
  DEFAULT_ADMIN_EMAIL,
  firstStartBanner,
  type StartNotice,
} from '../../server/src/bootstrap';
import { bearer, multipart, useApi } from '../support/api';
import { type TestUser, useUsers } from '../support/factories';
import { connectAccount, setSimEnv, useWaHarness, waApi } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Issue 20, the first run: GET /api/admin/first-run counts the four first steps (an account, target
 * numbers, an active template, a blast message sent) as a newcomer takes them, for admin and dev
 * only; and the start that creates the admin prints one banner with how to sign in and who blasts,
 * its password in the banner alone, and never again.
 */

describe('GET /api/admin/first-run', () => {
  setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
  const h = useWaHarness({ blastSecondMs: 2 });
  const { admin, dev, member, staff } = useUsers(() => h.database.db, {
    admin: 'admin',
    dev: 'dev',
    member: 'member',
    staff: 'staff',
  });
  const firstRun = async (u: TestUser): Promise<FirstRunDto> => {
    const res = await request(h.app).get('/api/admin/first-run').set(bearer(u.token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('refuses a member and staff (403) and a caller without a token (401)', async () => {
    for (const u of [member, staff]) {
      const res = await request(h.app).get('/api/admin/first-run').set(bearer(u.token));
      expect(res.status, u.role).toBe(403);
      expect(res.body.msg).toBe('You are not allowed to do this.');
    }
    expect((await request(h.app).get('/api/admin/first-run')).status).toBe(401);
  });

  it('counts each step as it is taken through the API, and is done once all four are', async () => {
    const none = { accounts: 0, targets: 0, templates: 0, messages: 0, done: false };
    expect(await firstRun(admin)).toEqual(none);
    expect(await firstRun(dev)).toEqual(none);

    // 1. a member connects an account (the simulator's phone scans the QR)
    const { account } = await connectAccount(h, member);
    expect(await firstRun(admin)).toEqual({ ...none, accounts: 1 });

    // 2. the admin imports target numbers
    const imported = await request(h.app)
      .post('/api/admin/phonenumber/import')
      .set(bearer(admin.token))
      .attach('file', Buffer.from('number,name\n081277770001,Ani\n081277770002,Budi\n'), 'targets.csv');
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(await firstRun(admin)).toEqual({ ...none, accounts: 1, targets: 2 });

    // 3. a template counts once it is active: a draft (nonactive) does not tick the step
    const create = (status: string) =>
      multipart(request(h.app).post('/api/admin/message/create').set(bearer(admin.token)), {
        text: '<p>Halo <b>{name}</b></p>',
        status,
      });
    expect((await create('nonactive')).status).toBe(201);
    expect((await firstRun(dev)).templates).toBe(0);
    expect((await create('active')).status).toBe(201);
    expect(await firstRun(dev)).toEqual({ ...none, accounts: 1, targets: 2, templates: 1 });

    // 4. the member starts a blast: done once WhatsApp accepted its first message
    const started = await waApi(h, member).post('/start-blasting', { whatsappClientId: account.clientid });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await until(async () => (await firstRun(admin)).messages > 0, 'the first blast message', 15_000);
    await until(async () => (await firstRun(admin)).messages === 2, 'both targets sent', 15_000);
    expect(await firstRun(admin)).toEqual({ accounts: 1, targets: 2, templates: 1, messages: 2, done: true });
    expect((await firstRun(dev)).done).toBe(true);
  });
});

/** A start's notice, captured: what it printed, and its JSON log lines as written. */
function captureNotice(): StartNotice & { printed: string[]; logged: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const printed: string[] = [];
  return {
    log: pino({ level: 'info', base: undefined }, stream),
    print: (text) => printed.push(text),
    printed,
    logged: () => chunks.join(''),
  };
}

describe('the first-start banner', () => {
  const api = useApi();
  const URL = 'http://localhost:3000';
  const noEnv = { adminEmail: null, adminPassword: null, devEmail: null, devPassword: null, url: URL };
  const login = (email: string, password: string) => request(api.app).post('/api/auth/login').send({ email, password });

  it('shows once the admin to sign in as (a password that works), the URL and how to get a dev; a later start no password', async () => {
    const first = captureNotice();
    const { admin } = await bootstrapInstallation(api.database.db, noEnv, first);
    if (!admin.created) throw new Error('the first start creates the admin');
    expect(first.printed).toHaveLength(1);
    const banner = first.printed[0];
    // a box: every line between the top and the bottom edge is as wide as they are
    const lines = banner.trim().split('\n');
    expect(lines[0]).toMatch(/^┌─+┐$/);
    expect(lines.at(-1)).toMatch(/^└─+┘$/);
    for (const line of lines.slice(1, -1))
      expect([line.length, line.at(0), line.at(-1)]).toEqual([lines[0].length, '│', '│']);
    expect(banner).toContain(`Open ${URL}`);
    expect(banner).toContain(DEFAULT_ADMIN_EMAIL);
    const password = /password {2}(\S+)/.exec(banner)?.[1] ?? '';
    expect(password).toBe(admin.password);
    expect(password.length).toBeGreaterThanOrEqual(12);
    // the printed password signs the printed e-mail in, as the admin
    const signedIn = await login(DEFAULT_ADMIN_EMAIL, password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.role).toBe('admin');
    // the password is shown this once; ADMIN_EMAIL/ADMIN_PASSWORD choose it; the way back when it is lost
    expect(banner).toContain('shown only this once');
    expect(banner).toContain('set ADMIN_EMAIL and ADMIN_PASSWORD before the');
    expect(banner).toContain(`  npm run admin -- reset-password ${DEFAULT_ADMIN_EMAIL}`);
    expect(banner).toContain(`  docker compose exec api npm run admin -- reset-password ${DEFAULT_ADMIN_EMAIL}`);
    expect(banner).toContain('stop the server first');
    // who blasts, and the way to a dev when there is none
    expect(banner).toContain('Blasts are started by members');
    expect(banner).toContain('There is no dev yet');
    expect(banner).toContain('DEV_EMAIL');
    expect(banner).toContain('npm run admin -- create-dev <email>');
    // the JSON log says what happened, without the password; the password is in the banner once
    const log = first.logged();
    expect(log).toContain('first start: admin account created');
    expect(log).toContain(DEFAULT_ADMIN_EMAIL);
    expect(log).not.toContain(password);
    expect(banner.split(password)).toHaveLength(2);

    // a second start: the admin exists, nothing is printed, no password anywhere; the log says how to get a dev
    const second = captureNotice();
    expect((await bootstrapInstallation(api.database.db, noEnv, second)).admin.created).toBe(false);
    expect(second.printed).toEqual([]);
    expect(second.logged()).not.toContain(password);
    expect(second.logged()).toContain('DEV_EMAIL');

    // a start with DEV_EMAIL set creates the dev, who signs in; no banner and no password again
    const third = captureNotice();
    const devEnv = { ...noEnv, devEmail: 'dev@first-run.test', devPassword: 'dev-password-1' };
    expect((await bootstrapInstallation(api.database.db, devEnv, third)).dev.created).toBe(true);
    expect(third.printed).toEqual([]);
    expect(third.logged()).toContain('dev@first-run.test');
    expect(third.logged()).not.toContain('dev-password-1');
    expect((await login('dev@first-run.test', 'dev-password-1')).body.user.role).toBe('dev');
    const fourth = captureNotice();
    await bootstrapInstallation(api.database.db, devEnv, fourth);
    expect(fourth.printed).toEqual([]);
    expect(fourth.logged()).not.toContain('DEV_EMAIL');
  });
});

describe('the first-start banner with ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  it('says they set the admin, shows no password, and how to reset it for that e-mail', () => {
    const banner = firstStartBanner({
      admin: { created: true, email: 'boss@example.test', password: 'chosen-by-the-operator', generated: false },
      devEmail: null,
      devExists: true,
      url: 'http://localhost:3000',
    });
    expect(banner).not.toContain('chosen-by-the-operator');
    expect(banner).toContain('  password  the one in ADMIN_PASSWORD');
    expect(banner).toContain('ADMIN_EMAIL and ADMIN_PASSWORD set this admin (once it exists, a start ignores them)');
    expect(banner).toContain('  npm run admin -- reset-password boss@example.test');
    expect(banner).toContain('  docker compose exec api npm run admin -- reset-password boss@example.test');
    expect(banner).not.toContain('shown only this once');
  });
});
