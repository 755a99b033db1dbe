import type { Db } from '@wa/core/db/client';
import { API_KEY_TEXTS, EMAIL_PATTERN } from '@wa/shared';
import type { AdminCommand, AdminCommandName } from './admin-cli';
import { generatePassword, insertOfficeUser } from './bootstrap';
import { hashPassword } from './modules/users/passwords';
import { UsersRepo } from './modules/users/users.repo';

/**
 * What `npm run admin` does to the database (app/src/admin.ts runs it, admin-cli.ts reads its
 * command line). The first admin's password is printed once and never again (bootstrap.ts): this
 * is the way back when it is lost, for an operator with the server's configuration.
 */

/** A command refused on its input or the database's state (unknown e-mail, one taken): exit 1. */
export class CommandRefused extends Error {}

/** What a command did: the user it was for, the password to print once, and the sessions it ended. */
export interface AdminCommandResult {
  userId: number;
  email: string;
  role: string;
  password: string;
  /** the user's token version after the reset (tokens of an older one are refused); null on create */
  tokenVersion: number | null;
  keysRevoked: number;
}

/**
 * Gives the user of `email` a new generated password and ends every session and API key of theirs
 * in the same transaction (UsersRepo.endSessions, as a password change through the API does).
 */
export async function resetPassword(db: Db, email: string): Promise<AdminCommandResult> {
  const repo = new UsersRepo(db);
  const found = await repo.findAuthByEmail(email);
  if (!found) throw new CommandRefused(`no user has the e-mail ${email}: nothing was changed.`);
  const password = generatePassword();
  const { tokenVersion, keysRevoked } = await repo.endSessions(found.id, {
    passwordHash: await hashPassword(password),
  });
  const role = (await repo.roleOf(found.id)) ?? 'member';
  return { userId: found.id, email: email.toLowerCase(), role, password, tokenVersion, keysRevoked };
}

/** Creates a user with the dev role and a generated password, as the first start creates its dev. */
export async function createDev(db: Db, rawEmail: string): Promise<AdminCommandResult> {
  const email = rawEmail.toLowerCase();
  if (email.length > 255 || email.includes('\0') || !EMAIL_PATTERN.test(email)) {
    throw new CommandRefused(`"${rawEmail}" is not an e-mail address: no user was created.`);
  }
  const repo = new UsersRepo(db);
  const taken = `a user with the e-mail ${email} exists already: no user was created (reset-password gives it a new password).`;
  if (await repo.emailTaken(email)) throw new CommandRefused(taken);
  const password = generatePassword();
  let userId: number;
  try {
    userId = await insertOfficeUser(db, 'dev', email, password);
  } catch (err) {
    // the same e-mail created this instant by a sign-up: the unique index says no
    if (isUniqueViolation(err)) throw new CommandRefused(taken);
    throw err;
  }
  return { userId, email, role: 'dev', password, tokenVersion: null, keysRevoked: 0 };
}

/** Whether a failed insert broke a unique index (23505), as the driver or drizzle's wrapper of it says. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** Runs a parsed command on the database. */
export function runAdminCommand(db: Db, command: AdminCommand): Promise<AdminCommandResult> {
  return command.name === 'reset-password' ? resetPassword(db, command.email) : createDev(db, command.email);
}

/**
 * What the operator reads on stdout: what was done, then the password on its own line
 * (`password: …`, the one place it is ever written), then that it is shown this once.
 */
export function resultLines(command: AdminCommandName, r: AdminCommandResult): string[] {
  const done =
    command === 'reset-password'
      ? `${r.email} (${r.role}) has a new password; every session of the user has ended` +
        (r.keysRevoked ? ` and ${API_KEY_TEXTS.revoked(r.keysRevoked).replace(/\.$/, '')}.` : '.')
      : `${r.email} was created with the dev role.`;
  return [
    `${command}: ${done}`,
    `password: ${r.password}`,
    'Shown this once: keep it. Sign in with it at the dashboard.',
  ];
}
