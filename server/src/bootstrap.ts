import { randomBytes } from 'node:crypto';
import type { Db } from '@wa/core/db/client';
import { settings } from '@wa/core/db/schema/index';
import type { Logger } from '@wa/core/logger';
import { DEFAULT_SETTINGS } from '@wa/shared';
import { ADMIN_COMMAND, ADMIN_COMMAND_DOCKER } from './admin-cli';
import { hashPassword } from './modules/users/passwords';
import { UsersRepo } from './modules/users/users.repo';
import { UsersService } from './modules/users/users.service';

/** Creates the one settings row with the §9 defaults when it is missing. */
export async function ensureSettings(db: Db): Promise<void> {
  await db
    .insert(settings)
    .values({
      id: 1,
      intervalMin: DEFAULT_SETTINGS.interval_min,
      intervalMax: DEFAULT_SETTINGS.interval_max,
      price: DEFAULT_SETTINGS.price,
      bankNames: DEFAULT_SETTINGS.bank_names,
      colors: DEFAULT_SETTINGS.colors,
      referralPercent: DEFAULT_SETTINGS.referral_percent,
      info: DEFAULT_SETTINGS.info,
    })
    .onConflictDoNothing();
}

export type AdminBootstrap =
  | { created: false; reason?: string }
  | { created: true; email: string; password: string; generated: boolean };

export const DEFAULT_ADMIN_EMAIL = 'admin@wablaster.local';

/**
 * A password the operator is handed once, on the terminal: the first admin's, and those of
 * `npm run admin` (admin-commands.ts). 16 URL-safe characters, 96 random bits.
 */
export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}

/** Inserts an admin or dev that no sign-up made (no referrer); returns the new user's id. */
export async function insertOfficeUser(
  db: Db,
  role: 'admin' | 'dev',
  email: string,
  password: string,
): Promise<number> {
  const repo = new UsersRepo(db);
  return repo.insert({
    firstname: role === 'admin' ? 'Admin' : 'Dev',
    lastname: 'WA Blaster',
    email,
    passwordHash: await hashPassword(password),
    role,
    referralCode: await new UsersService(repo).newReferralCode(),
    referrerId: null,
  });
}

/** Creates a user of `role` when none exists; `password` null means generate one for the caller to print. */
async function ensureRole(
  db: Db,
  role: 'admin' | 'dev',
  email: string,
  password: string | null,
): Promise<AdminBootstrap> {
  const repo = new UsersRepo(db);
  if ((await repo.countRole(role)) > 0) return { created: false };
  if (await repo.emailTaken(email)) {
    return { created: false, reason: `no ${role} exists and ${email} belongs to another user` };
  }
  const generated = !password;
  const chosen = password ?? generatePassword();
  await insertOfficeUser(db, role, email, chosen);
  return { created: true, email, password: chosen, generated };
}

/**
 * On a start with no admin, creates one from ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated
 * password that the caller prints once.
 */
export function ensureAdmin(db: Db, email: string | null, password: string | null): Promise<AdminBootstrap> {
  return ensureRole(db, 'admin', email ?? DEFAULT_ADMIN_EMAIL, password);
}

/**
 * On a start with no dev, creates one from DEV_EMAIL/DEV_PASSWORD. Only a dev may grant the dev
 * role, so this is how an installation gets its first one; without the variables there is none.
 */
export async function ensureDev(db: Db, email: string | null, password: string | null): Promise<AdminBootstrap> {
  if (!email || !password) return { created: false };
  return ensureRole(db, 'dev', email, password);
}

/** Where a start tells its operator: `print` takes the banner (a person's), `log` the JSON lines. */
export interface StartNotice {
  log: Pick<Logger, 'info' | 'warn'>;
  print(text: string): void;
}

export interface BootstrapOptions {
  adminEmail: string | null;
  adminPassword: string | null;
  devEmail: string | null;
  devPassword: string | null;
  /** where the dashboard is opened, as the banner shows it */
  url: string;
}

/**
 * What every start does before it serves (docs/ARCHITECTURE.md §1): the settings row, the first
 * admin and the first dev. On the start that creates the admin it prints the first-start banner
 * (issue 20) and logs one line without the password: a generated password is shown once, there.
 */
export async function bootstrapInstallation(
  db: Db,
  opts: BootstrapOptions,
  notice: StartNotice,
): Promise<{ admin: AdminBootstrap; dev: AdminBootstrap }> {
  await ensureSettings(db);
  const admin = await ensureAdmin(db, opts.adminEmail, opts.adminPassword);
  if (!admin.created && admin.reason) notice.log.warn(admin.reason);
  const dev = await ensureDev(db, opts.devEmail, opts.devPassword);
  if (!dev.created && dev.reason) notice.log.warn(dev.reason);
  const devEmail = dev.created ? dev.email : null;
  const devExists = dev.created || (await new UsersRepo(db).countRole('dev')) > 0;
  if (admin.created) {
    // printed before anything can fail (a port in use): a generated password lost here is lost for good
    notice.print(firstStartBanner({ admin, devEmail, devExists, url: opts.url }));
    notice.log.info(
      { email: admin.email, generated_password: admin.generated, url: opts.url },
      'first start: admin account created',
    );
  }
  if (dev.created) notice.log.info({ email: dev.email }, 'dev account created from DEV_EMAIL');
  else if (!devExists && !admin.created) {
    notice.log.info(
      'no dev account: blasts are started by members or a dev; set DEV_EMAIL and DEV_PASSWORD and restart to create one',
    );
  }
  return { admin, dev };
}

/**
 * The boxed block of the first start: how to sign in, where, that a generated password is shown
 * this once, that ADMIN_EMAIL/ADMIN_PASSWORD choose the admin (on the first start only), how to
 * reset a lost password, and who starts blasts (an admin cannot: members their own accounts, a dev
 * any), with how to get a dev when there is none.
 */
export function firstStartBanner(o: {
  admin: Extract<AdminBootstrap, { created: true }>;
  devEmail: string | null;
  devExists: boolean;
  url: string;
}): string {
  const reset = `reset-password ${o.admin.email}`;
  const lines = [
    'WA Blaster: first start, the admin account was created',
    '',
    `Open ${o.url} and sign in as the admin:`,
    `  e-mail    ${o.admin.email}`,
    o.admin.generated
      ? `  password  ${o.admin.password}   (shown this once: keep it)`
      : '  password  the one in ADMIN_PASSWORD',
    '',
    ...(o.admin.generated
      ? [
          'Copy the password now: it is shown only this once and is written to no log.',
          'To choose the admin yourself, set ADMIN_EMAIL and ADMIN_PASSWORD before the',
          'first start (once an admin exists, a start ignores them).',
        ]
      : ['ADMIN_EMAIL and ADMIN_PASSWORD set this admin (once it exists, a start ignores them).']),
    'Lost the password? This prints a new one, once, and signs the admin out everywhere:',
    `  ${ADMIN_COMMAND} ${reset}`,
    `  ${ADMIN_COMMAND_DOCKER} ${reset}`,
    '  (with the embedded database, stop the server first)',
    '',
    'Blasts are started by members (on their own accounts) or by a dev (on any);',
    'an admin connects accounts, imports targets and writes templates.',
    ...(o.devEmail
      ? [`A dev was created from DEV_EMAIL: ${o.devEmail} (password: DEV_PASSWORD).`]
      : o.devExists
        ? ['A dev account exists.']
        : [
            'There is no dev yet, and only a dev grants the dev role. To add one, run',
            `  ${ADMIN_COMMAND} create-dev <email>   (prints its password once)`,
            'or stop and start again with DEV_EMAIL and DEV_PASSWORD set.',
          ]),
    'The dashboard lists the first steps. To look around first: npm run demo.',
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '─'.repeat(width + 2);
  return `\n┌${bar}┐\n${lines.map((l) => `│ ${l.padEnd(width)} │`).join('\n')}\n└${bar}┘\n\n`;
}
