import { randomInt } from 'node:crypto';
import { PAGE_SIZE, PRIVILEGED_FIELDS, type UpdateUserBody, type UserDto, updateUserBody } from '@wa/shared';
import bcrypt from 'bcryptjs';
import { type Actor, assertSelfOrStaff } from '../../http/auth';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors';
import { pageMeta } from '../../http/paging';
import { parse } from '../../http/validate';
import type { UserPatch, UsersRepo } from './users.repo';

export const BCRYPT_ROUNDS = 10;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Hashes a password with bcrypt. */
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS);
}

/** The rules of users: who may read and edit whom, and which fields. */
export class UsersService {
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
   * Everybody edits their own profile; admin and dev edit anyone, including role, level, fee and
   * intervals, but nobody changes those on themselves.
   */
  async update(actor: Actor, id: number, body: unknown): Promise<{ user: UserDto; msg: string }> {
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
    const min = input.blast_interval_min ?? current.blast_interval_min;
    const max = input.blast_interval_max ?? current.blast_interval_max;
    if (min > max) {
      throw badRequest('Interval minimal harus lebih kecil dari interval maksimal', {
        blast_interval_min: 'Interval minimal harus lebih kecil dari interval maksimal',
      });
    }
    if (input.email && (await this.repo.emailTaken(input.email, id))) {
      throw new AppError(409, 'Email is already registered.', { email: 'Email is already registered.' });
    }
    if (input.level_id && !(await this.repo.levelExists(input.level_id))) {
      throw badRequest('Level not found.', { level_id: 'Level not found.' });
    }

    const patch: UserPatch = {};
    if (input.firstname !== undefined) patch.firstname = input.firstname;
    if (input.lastname !== undefined) patch.lastname = input.lastname;
    if (input.email !== undefined) patch.email = input.email.toLowerCase();
    if (input.password !== undefined) patch.passwordHash = await hashPassword(input.password);
    if (input.account_name !== undefined) patch.accountName = input.account_name || null;
    if (input.account_bank !== undefined) patch.accountBank = input.account_bank || null;
    if (input.account_number !== undefined) patch.accountNumber = input.account_number || null;
    if (staff && !self) {
      if (input.role !== undefined) patch.role = input.role;
      if (input.level_id !== undefined) patch.levelId = input.level_id;
      if (input.blast_fee !== undefined && input.blast_fee !== current.blast_fee) patch.blastFee = input.blast_fee;
      if (input.blast_interval_min !== undefined && input.blast_interval_min !== current.blast_interval_min)
        patch.blastIntervalMin = input.blast_interval_min;
      if (input.blast_interval_max !== undefined && input.blast_interval_max !== current.blast_interval_max)
        patch.blastIntervalMax = input.blast_interval_max;
    }
    if (Object.keys(patch).length) await this.repo.update(id, patch);
    const user = await this.repo.findDto(id);
    if (!user) throw notFound('User not found');
    return { user, msg: 'User updated' };
  }
}

export type { UpdateUserBody };
