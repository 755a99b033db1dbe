import { randomBytes } from 'node:crypto';
import type { Db } from '@wa/core/db/client';
import { settings } from '@wa/core/db/schema/index';
import { DEFAULT_SETTINGS } from '@wa/shared';
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
  const chosen = password ?? randomBytes(12).toString('base64url');
  await repo.insert({
    firstname: role === 'admin' ? 'Admin' : 'Dev',
    lastname: 'WA Blaster',
    email,
    passwordHash: await hashPassword(chosen),
    role,
    referralCode: await new UsersService(repo).newReferralCode(),
    referrerId: null,
  });
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
