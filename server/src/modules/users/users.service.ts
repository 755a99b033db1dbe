import { randomInt } from 'node:crypto';
import type { Actor } from '@wa/core/actor';
import { AppError, badRequest, forbidden, notFound } from '@wa/core/errors';
import { pageMeta } from '@wa/core/paging';
import { assertCan, can, canForAnyone } from '@wa/core/policy';
import { AttemptLimiter } from '@wa/core/rate-limit';
import type { EventBus } from '@wa/core/realtime/bus';
import { publishTokenVersion } from '@wa/core/realtime/publish';
import {
  API_KEY_TEXTS,
  PAGE_SIZE,
  PRIVILEGED_FIELDS,
  type ReferralItem,
  type UserDto,
  type updateUserBody,
} from '@wa/shared';
import type { z } from 'zod';
import { hashPassword, verifyPassword } from './passwords';
import type { SessionsEnded, UserPatch } from './users.repo';

export { hashPassword };

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Password and e-mail changes (each checks or hashes a password) per user in 15 minutes. */
export const CREDENTIAL_CHANGES_PER_USER = 5;

export const CURRENT_PASSWORD_REQUIRED = 'Masukkan password saat ini untuk mengubah password atau email.';
export const CURRENT_PASSWORD_WRONG = 'Password saat ini salah.';

/** PUT /admin/users/{id} as the route hands it over, parsed with the shared schema. */
export type UpdateUserInput = z.output<typeof updateUserBody>;

/** What the users' rules need of the users table (UsersRepo; an in-memory one in the unit tests). */
export interface UsersStore {
  findDto(id: number): Promise<UserDto | null>;
  referralCodeTaken(code: string): Promise<boolean>;
  listMembers(): Promise<Pick<UserDto, 'id' | 'firstname' | 'lastname' | 'email'>[]>;
  membersPage(opts: {
    search?: string;
    status?: 'active' | 'inactive';
    limit: number;
    offset: number;
  }): Promise<{ total: number; data: UserDto[] }>;
  activeMembers(): Promise<number>;
  referralsPage(opts: {
    referrerId: number | null;
    limit: number;
    offset: number;
  }): Promise<{ total: number; list: ReferralItem[] }>;
  passwordHash(id: number): Promise<string | null>;
  emailTaken(email: string, exceptId?: number): Promise<boolean>;
  levelExists(id: number): Promise<boolean>;
  /** the user's token version after the update */
  update(id: number, patch: UserPatch, endTokens?: boolean): Promise<number>;
  /** bumps the token version and revokes every API key of the user, with `patch` (see UsersRepo) */
  endSessions(id: number, patch?: UserPatch): Promise<SessionsEnded>;
}

/**
 * The result of an edit; `token` replaces the caller's own when the edit ended their older tokens;
 * `api_keys_revoked` after a password change (it revokes every key of the user).
 */
export interface UpdateUserResult {
  user: UserDto;
  msg: string;
  token?: string;
  api_keys_revoked?: number;
}

/** A message, and what it did to the user's API keys when it revoked some. */
function withRevoked(msg: string, keysRevoked: number | undefined): string {
  if (!keysRevoked) return msg;
  return `${msg.endsWith('.') ? msg : `${msg}.`} ${API_KEY_TEXTS.revoked(keysRevoked)}`;
}

/** The rules of users: who may read and edit whom, and which fields. */
export class UsersService {
  private readonly credentialChanges = new AttemptLimiter(CREDENTIAL_CHANGES_PER_USER, 15 * 60_000);

  /**
   * `bus` carries the token-version bumps to every API replica's hub, which closes the user's
   * sockets opened with an older token. Only scripts that never change credentials (bootstrap,
   * the demo seed) leave it out.
   */
  constructor(
    private readonly repo: UsersStore,
    private readonly bus?: EventBus,
  ) {}

  /** A fresh, unused 8-character referral code without look-alike characters. */
  async newReferralCode(): Promise<string> {
    for (;;) {
      let code = '';
      for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      if (!(await this.repo.referralCodeTaken(code))) return code;
    }
  }

  async get(actor: Actor, id: number): Promise<{ user: UserDto; level: string | null; color: string | null }> {
    assertCan(actor, 'user.read', { userId: id });
    const user = await this.repo.findDto(id);
    if (!user) throw notFound('User not found');
    return { user, level: user.level, color: user.color };
  }

  async blastFee(actor: Actor, id: number): Promise<{ blast_fee: number }> {
    const { user } = await this.get(actor, id);
    return { blast_fee: user.blast_fee };
  }

  /** §6: only admin and dev load the member list (and its pages and the active count). */
  async members(actor: Actor) {
    assertCan(actor, 'users.list');
    return { users: await this.repo.listMembers() };
  }

  async membersPerPage(actor: Actor, page: number, search?: string, status?: 'active' | 'inactive') {
    assertCan(actor, 'users.list');
    const { total, data } = await this.repo.membersPage({
      search,
      status,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    });
    return { data, meta: pageMeta(page, total) };
  }

  async activeCount(actor: Actor) {
    assertCan(actor, 'users.list');
    return { count: await this.repo.activeMembers() };
  }

  /**
   * Members see their own referrals only; admin and dev may name anyone, and without a name see
   * every referred user.
   */
  async referralsPerPage(actor: Actor, page: number, userId?: number) {
    assertCan(actor, 'referral.read');
    let referrerId: number | null;
    if (canForAnyone(actor, 'referral.read')) referrerId = userId ?? null;
    else {
      if (userId !== undefined) assertCan(actor, 'referral.read', { userId });
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
   * - changing one's own password or e-mail needs the current password;
   * - an API key changes no password or e-mail (a leaked key must not take the account over).
   * A password, e-mail or role change ends the user's older tokens; when it is the caller's own,
   * `signFor` gives this browser a fresh one. A password change also revokes every API key of the
   * user, and says how many. The route has refused an empty body ('No Data').
   */
  async update(
    actor: Actor,
    id: number,
    input: UpdateUserInput,
    signFor?: (user: { id: number; role: string; tokenVersion: number }) => string,
  ): Promise<UpdateUserResult> {
    assertCan(actor, 'user.edit', { userId: id });
    const current = await this.repo.findDto(id);
    if (!current) throw notFound('User not found');

    const manages = can(actor, 'user.manage');
    const self = actor.id === id;
    const changedPrivileged = PRIVILEGED_FIELDS.filter(
      (f) => input[f] !== undefined && input[f] !== current[f as keyof UserDto],
    );
    if (changedPrivileged.length && (!manages || self)) {
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
    if (actor.apiKey && (passwordChanged || emailChanged)) throw forbidden(API_KEY_TEXTS.noCredentials);
    if (roleChanged && (input.role === 'dev' || current.role === 'dev')) assertCan(actor, 'user.grant-dev');
    if (!can(actor, 'user.credentials', { userId: id, role: current.role })) {
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
    if (manages && !self) {
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
    let keysRevoked: number | undefined;
    if (passwordChanged) {
      ({ tokenVersion, keysRevoked } = await this.repo.endSessions(id, patch));
    } else if (Object.keys(patch).length) tokenVersion = await this.repo.update(id, patch, endTokens);
    if (endTokens && tokenVersion !== null) await this.tokensEnded(id, tokenVersion);
    const user = await this.repo.findDto(id);
    if (!user) throw notFound('User not found');
    const token =
      endTokens && self && signFor && tokenVersion !== null
        ? signFor({ id, role: user.role, tokenVersion })
        : undefined;
    return {
      user,
      msg: withRevoked('User updated', keysRevoked),
      ...(token ? { token } : {}),
      ...(keysRevoked === undefined ? {} : { api_keys_revoked: keysRevoked }),
    };
  }

  /**
   * "Log out everywhere": every token of the user stops working, this browser's too, and every API
   * key of the user is revoked. A session only (the route refuses a key).
   */
  async logoutEverywhere(actor: Actor): Promise<{ msg: string; api_keys_revoked: number }> {
    if (actor.apiKey) throw forbidden(API_KEY_TEXTS.noSignOutEverywhere);
    const { tokenVersion, keysRevoked } = await this.repo.endSessions(actor.id);
    await this.tokensEnded(actor.id, tokenVersion);
    return { msg: withRevoked('Signed out on every device.', keysRevoked), api_keys_revoked: keysRevoked };
  }

  /**
   * The API refuses the older tokens from now on (the version is read per request); the live
   * sockets opened with them are closed by the hubs, on every replica, hearing it on the bus.
   */
  private async tokensEnded(userId: number, tokenVersion: number): Promise<void> {
    if (this.bus) await publishTokenVersion(this.bus, userId, tokenVersion);
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
