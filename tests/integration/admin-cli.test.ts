// `npm run admin -- reset-password <email>` and `create-dev <email>`, run as an operator runs them
// (a child process on the server's DATA_DIR or DATABASE_URL): the way back to a lost admin password.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_KEY_TEXTS } from '@wa/shared';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { type CliRun, printedPassword, runAdminCli, useInstallation } from '../support/admin-cli';
import { bearer } from '../support/api';
import { createUser, type TestUser } from '../support/factories';

const inst = useInstallation();

const login = (email: string, password: string) => request(inst.app).post('/api/auth/login').send({ email, password });
const readSelf = (u: TestUser, headers: Record<string, string>) =>
  request(inst.app).get(`/api/admin/users/${u.id}`).set(headers);
const withKey = (key: string) => ({ 'X-API-Key': key });
const usersWithEmail = async (email: string) =>
  rows<{ role: string }>(inst.database.db, sql`select role from users where lower(email) = ${email.toLowerCase()}`);

/** A refusal: the exit code, one line on stderr saying `what`, and no password anywhere. */
function expectRefused(run: CliRun, what: RegExp): void {
  expect(run.code, run.stdout + run.stderr).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(what);
  expect(run.stdout).not.toMatch(/^password:/m);
}

describe('npm run admin -- reset-password <email>', () => {
  it('prints a new password once, which signs in; the old password, an old session and an old API key get 401', async () => {
    const admin = await createUser(inst.database.db, { role: 'admin' });
    const member = await createUser(inst.database.db, { role: 'member' });
    const made = await request(inst.app)
      .post('/api/admin/apikeys')
      .set(bearer(admin.token))
      .send({ name: 'script', current_password: admin.password });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = made.body.key as string;
    const session = await login(admin.email, admin.password);
    expect(session.status).toBe(200);
    const oldToken = session.body.token as string;
    for (const headers of [bearer(oldToken), bearer(admin.token), withKey(key)]) {
      expect((await readSelf(admin, headers)).status).toBe(200);
    }

    // the e-mail as the operator remembers it: its case does not matter
    const run = await inst.admin('reset-password', admin.email.toUpperCase());
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const password = printedPassword(run);
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(password).not.toBe(admin.password);
    // the password is written once, on its line, and nowhere else
    expect(run.stdout.split(password)).toHaveLength(2);
    expect(run.stderr).not.toContain(password);
    expect(run.stdout).toContain(`${admin.email} (admin) has a new password`);
    expect(run.stdout).toContain('1 API key was revoked');

    const signedIn = await login(admin.email, password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.role).toBe('admin');
    expect((await login(admin.email, admin.password)).status).toBe(401);
    for (const headers of [bearer(oldToken), bearer(admin.token)]) {
      expect((await readSelf(admin, headers)).status).toBe(401);
    }
    const byKey = await readSelf(admin, withKey(key));
    expect(byKey.status).toBe(401);
    expect(byKey.body.msg).toBe(API_KEY_TEXTS.invalid);
    // the new session works, and nobody else was signed out
    expect((await readSelf(admin, bearer(signedIn.body.token))).status).toBe(200);
    expect((await readSelf(member, bearer(member.token))).status).toBe(200);
    expect((await login(member.email, member.password)).status).toBe(200);
  });

  it('refuses an e-mail no user has (exit 1, one line on stderr) and changes nothing', async () => {
    const member = await createUser(inst.database.db, { role: 'member' });
    const run = await inst.admin('reset-password', 'nobody-here@example.test');
    expectRefused(run, /^reset-password: no user has the e-mail nobody-here@example\.test: nothing was changed\.$/);
    expect((await readSelf(member, bearer(member.token))).status).toBe(200);
    expect((await login(member.email, member.password)).status).toBe(200);
  });
});

describe('npm run admin -- create-dev <email>', () => {
  it('creates a dev who signs in with the printed password', async () => {
    const run = await inst.admin('create-dev', 'New.Dev@Example.test');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const password = printedPassword(run);
    expect(password.length).toBeGreaterThanOrEqual(16);
    expect(run.stdout.split(password)).toHaveLength(2);
    expect(run.stderr).not.toContain(password);
    expect(run.stdout).toContain('new.dev@example.test was created with the dev role');
    const signedIn = await login('new.dev@example.test', password);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: 'new.dev@example.test', role: 'dev' });
  });

  it('refuses an e-mail a user has already, in any case, and leaves that user as it was', async () => {
    const member = await createUser(inst.database.db, { role: 'member' });
    const run = await inst.admin('create-dev', member.email.toUpperCase());
    expectRefused(run, /^create-dev: a user with the e-mail \S+ exists already: no user was created/);
    expect(await usersWithEmail(member.email)).toEqual([{ role: 'member' }]);
    expect((await login(member.email, member.password)).status).toBe(200);
  });

  it('refuses what is not an e-mail address, and creates nobody', async () => {
    const run = await inst.admin('create-dev', 'not-an-email');
    expectRefused(run, /^create-dev: "not-an-email" is not an e-mail address: no user was created\.$/);
    expect(await usersWithEmail('not-an-email')).toEqual([]);
  });
});

describe('npm run admin: usage', () => {
  it('a command line it does not take: says why, prints the usage (stop the server first) and exits 2', async () => {
    const cases: Array<[string[], string]> = [
      [[], 'no command given'],
      [['frobnicate', 'a@example.test'], 'unknown command "frobnicate"'],
      [['reset-password'], "reset-password needs the user's e-mail"],
      [['create-dev'], "create-dev needs the user's e-mail"],
    ];
    const runs = await Promise.all(cases.map(([args]) => runAdminCli(args, inst.env)));
    for (const [i, run] of runs.entries()) {
      const [args, why] = cases[i];
      expect(run.code, `${JSON.stringify(args)}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(
        `npm run admin: ${why}\nusage: npm run admin -- reset-password <email> | create-dev <email>`,
      );
      expect(run.stderr).toContain('stop the server first');
      expect(run.stdout).not.toMatch(/^password:/m);
    }
  });
});

describe.runIf(inst.kind === 'pglite')('npm run admin on the embedded database', () => {
  it('refuses while a server has the database open, saying to stop it first; nothing is changed', async () => {
    const admin = await createUser(inst.database.db, { role: 'admin' });
    const run = await inst.adminWhileRunning('reset-password', admin.email);
    expectRefused(run, /in use by a running server: stop the server first, then run this again/);
    expect((await login(admin.email, admin.password)).status).toBe(200);
    expect((await readSelf(admin, bearer(admin.token))).status).toBe(200);
  });

  it('refuses a DATA_DIR that holds no database, and makes none there', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'wa-admin-empty-'));
    try {
      const run = await runAdminCli(['reset-password', 'admin@wablaster.local'], { ...inst.env, DATA_DIR: empty });
      expectRefused(run, /^reset-password: no embedded database in .*: set DATA_DIR to the server's data directory/);
      expect(existsSync(path.join(empty, 'pglite', 'PG_VERSION'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
