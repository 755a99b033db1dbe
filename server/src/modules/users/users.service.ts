import { randomInt } from 'node:crypto';
import { type Actor, assertSelfOrStaff } from '@wa/core/actor';
import { AppError, badRequest, forbidden, notFound } from '@wa/core/errors';
import { pageMeta } from '@wa/core/paging';
import { AttemptLimiter } from '@wa/core/rate-limit';
import { parse } from '@wa/core/validate';
import { PAGE_SIZE, PRIVILEGED_FIELDS, type UpdateUserBody, type UserDto, updateUserBody } from '@wa/shared';
import { hashPassword, verifyPassword } from './passwords';
import type { UserPatch, UsersRepo } from './users.repo';

export { hashPassword };

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Password and e-mail changes (each checks or hashes a password) per user in 15 minutes. */
export const CREDENTIAL_CHANGES_PER_USER = 5;

export const CURRENT_PASSWORD_REQUIRED = 'Masukkan password saat ini untuk mengubah password atau email.';
export const CURRENT_PASSWORD_WRONG = 'Password saat ini salah.';

/** The result of an edit; `token` replaces the caller's own when the edit ended their older tokens. */
export interface UpdateUserResult {
  user: UserDto;
  msg: string;
  token?: string;
}

/** The rules of users: who may read and edit whom, and which fields. */
export class UsersService {
  private readonly credentialChanges = new AttemptLimiter(CREDENTIAL_CHANGES_PER_USER, 15 * 60_000);

  constructor(private readonly repo: UsersRepo) {}

  /** A fresh, unused 8-character referral code without look-alike characters. */
  async newReferralCode(): Promise<string> {
    for (;;) {
      let code = '';
      for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      if (!(await this.repo.referralCodeTaken(code))) return code;
    }
  }

  async get(actor: Actor, id: number): Promise<{ user: UserDto; level: string | null; color: string | null }> {
    assertSelfOrStaff(actor, id);
    const user = await this.repo.findDto(id);
    if (!user) throw notFound('User not found');
    return { user, level: user.level, color: user.color };
  }

  async blastFee(actor: Actor, id: number): Promise<{ blast_fee: number }> {
    const { user } = await this.get(actor, id);
    return { blast_fee: user.blast_fee };
  }

  async members() {
    return { users: await this.repo.listMembers() };
  }

  async membersPerPage(page: number, search?: string, status?: 'active' | 'inactive') {
    const { total, data } = await this.repo.membersPage({
      search,
      status,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    });
    return { data, meta: pageMeta(page, total) };
  }

  async activeCount() {
    return { count: await this.repo.activeMembers() };
  }

  /**
   * Members see their own referrals only; admin and dev may name anyone, and without a name see
   * every referred user.
   */
  async referralsPerPage(actor: Actor, page: number, userId?: number) {
    let referrerId: number | null;
    if (actor.role === 'admin' || actor.role === 'dev') referrerId = userId ?? null;
    else {
      if (userId !== undefined && userId !== actor.id) throw forbidden();
      referrerId = actor.id;
    }
    const { total, list } = await this.repo.referralsPage({
      referrerId,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    });
    return { list, data: list, total, meta: pageMeta(page, total) };
  }

  /**
   * Everybody edits their own profile; admin and dev edit anyone's, including role, level, fee and
   * intervals, but nobody changes those on themselves. Who may touch credentials (§6 gives admins
   * everything but the monitors; the dev role is the operator's):
   * - only a dev grants or removes the dev role;
   * - an admin does not change another admin's or a dev's password, e-mail or role;
   * - changing one's own password or e-mail needs the current password.
   * A password, e-mail or role change ends the user's older tokens; when it is the caller's own,
   * `signFor` gives this browser a fresh one.
   */
  async update(
    actor: Actor,
    id: number,
    body: unknown,
    signFor?: (user: { id: number; role: string; tokenVersion: number }) => string,
  ): Promise<UpdateUserResult> {
    if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length === 0) {
      throw badRequest('No Data');
    }
    assertSelfOrStaff(actor, id);
    const input = parse(updateUserBody, body);
    const current = await this.repo.findDto(id);
    if (!current) throw notFound('User not found');

    const staff = actor.role === 'admin' || actor.role === 'dev';
    const self = actor.id === id;
    const changedPrivileged = PRIVILEGED_FIELDS.filter(
      (f) => input[f] !== undefined && input[f] !== current[f as keyof UserDto],
    );
    if (changedPrivileged.length && (!staff || self)) {
      throw forbidden(
        self
          ? `You cannot change your own ${changedPrivileged.join(', ')}.`
          : `Only admin and dev may change ${changedPrivileged.join(', ')}.`,
      );
    }
    const email = input.email?.toLowerCase();
    const emailChanged = email !== undefined && email !== current.email.toLowerCase();
    const roleChanged = input.role !== undefined && input.role !== current.role;
    const passwordChanged = input.password !== undefined;
    if (roleChanged && actor.role !== 'dev' && (input.role === 'dev' || current.role === 'dev')) {
      throw forbidden('Only a dev may grant or remove the dev role.');
    }
    if (!self && actor.role === 'admin' && (current.role === 'admin' || current.role === 'dev')) {
      const touched = [passwordChanged && 'password', emailChanged && 'email', roleChanged && 'role'].filter(Boolean);
      if (touched.length) {
        throw forbidden(`An admin may not change the ${touched.join(', ')} of another admin or a dev.`);
      }
    }
    const min = input.blast_interval_min ?? current.blast_interval_min;
    const max = input.blast_interval_max ?? current.blast_interval_max;
    if (min > max) {
      throw badRequest('Interval minimal harus lebih kecil dari interval maksimal', {
        blast_interval_min: 'Interval minimal harus lebih kecil dari interval maksimal',
      });
    }
    if (passwordChanged || emailChanged) this.credentialAttempt(actor.id);
    if (self && (passwordChanged || emailChanged)) {
      if (input.current_password === undefined) {
        throw badRequest(CURRENT_PASSWORD_REQUIRED, { current_password: CURRENT_PASSWORD_REQUIRED });
      }
      if (!(await verifyPassword(input.current_password, await this.repo.passwordHash(id)))) {
        throw badRequest(CURRENT_PASSWORD_WRONG, { current_password: CURRENT_PASSWORD_WRONG });
      }
    }
    if (emailChanged && (await this.repo.emailTaken(email, id))) {
      throw new AppError(409, 'Email is already registered.', { email: 'Email is already registered.' });
    }
    if (input.level_id && !(await this.repo.levelExists(input.level_id))) {
      throw badRequest('Level not found.', { level_id: 'Level not found.' });
    }

    const patch: UserPatch = {};
    if (input.firstname !== undefined) patch.firstname = input.firstname;
    if (input.lastname !== undefined) patch.lastname = input.lastname;
    if (emailChanged) patch.email = email;
    if (passwordChanged) patch.passwordHash = await hashPassword(input.password as string);
    if (input.account_name !== undefined) patch.accountName = input.account_name || null;
    if (input.account_bank !== undefined) patch.accountBank = input.account_bank || null;
    if (input.account_number !== undefined) patch.accountNumber = input.account_number || null;
    if (staff && !self) {
      if (roleChanged) patch.role = input.role;
      if (input.level_id !== undefined) patch.levelId = input.level_id;
      if (input.blast_fee !== undefined && input.blast_fee !== current.blast_fee) patch.blastFee = input.blast_fee;
      if (input.blast_interval_min !== undefined && input.blast_interval_min !== current.blast_interval_min)
        patch.blastIntervalMin = input.blast_interval_min;
      if (input.blast_interval_max !== undefined && input.blast_interval_max !== current.blast_interval_max)
        patch.blastIntervalMax = input.blast_interval_max;
    }
    const endTokens = passwordChanged || emailChanged || (roleChanged && patch.role !== undefined);
    let tokenVersion: number | null = null;
    if (Object.keys(patch).length) tokenVersion = await this.repo.update(id, patch, endTokens);
    const user = await this.repo.findDto(id);
    if (!user) throw notFound('User not found');
    const token =
      endTokens && self && signFor && tokenVersion !== null
        ? signFor({ id, role: user.role, tokenVersion })
        : undefined;
    return { user, msg: 'User updated', ...(token ? { token } : {}) };
  }

  /** "Log out everywhere": every token of the user stops working, this browser's too. */
  async logoutEverywhere(actor: Actor): Promise<{ msg: string }> {
    await this.repo.bumpTokenVersion(actor.id);
    return { msg: 'Signed out on every device.' };
  }

  /** Counts a password or e-mail change (or a try at one) against the user's budget. */
  private credentialAttempt(userId: number): void {
    const key = String(userId);
    const wait = this.credentialChanges.retryAfter(key);
    if (wait) {
      throw new AppError(429, `Too many password or e-mail changes. Please try again in ${wait} seconds.`);
    }
    this.credentialChanges.hit(key);
  }
}

export type { UpdateUserBody };
