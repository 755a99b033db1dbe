import { randomBytes } from 'node:crypto';
import { DEFAULT_SETTINGS } from '@wa/shared';
import type { Db } from './db/client';
import { settings } from './db/schema';
import { UsersRepo } from './modules/users/users.repo';
import { hashPassword, UsersService } from './modules/users/users.service';

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
 * On a start with no admin, creates one from ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated
 * password that the caller prints once.
 */
export async function ensureAdmin(db: Db, email: string | null, password: string | null): Promise<AdminBootstrap> {
  const repo = new UsersRepo(db);
  if ((await repo.countAdmins()) > 0) return { created: false };
  const adminEmail = email ?? DEFAULT_ADMIN_EMAIL;
  if (await repo.emailTaken(adminEmail)) {
    return { created: false, reason: `no admin exists and ${adminEmail} belongs to a non-admin user` };
  }
  const generated = !password;
  const adminPassword = password ?? randomBytes(12).toString('base64url');
  await repo.insert({
    firstname: 'Admin',
    lastname: 'WA Blaster',
    email: adminEmail,
    passwordHash: await hashPassword(adminPassword),
    role: 'admin',
    referralCode: await new UsersService(repo).newReferralCode(),
    referrerId: null,
  });
  return { created: true, email: adminEmail, password: adminPassword, generated };
}
