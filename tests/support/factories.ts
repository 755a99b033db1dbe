import { randomBytes } from 'node:crypto';
import type { Role } from '@wa/shared';
import bcrypt from 'bcrypt';
import { beforeAll } from 'vitest';
import type { Db } from '../../core/src/db/client';
import { signToken } from '../../server/src/auth/tokens';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { UsersService } from '../../server/src/modules/users/users.service';

export const TEST_JWT_SECRET = 'test-secret-for-the-test-suites-only';

export interface UserInput {
  role: Role;
  email?: string;
  password?: string;
  firstname?: string;
  lastname?: string;
  referrerId?: number | null;
}

export interface TestUser {
  id: number;
  email: string;
  password: string;
  referral_code: string;
  role: Role;
  firstname: string;
  token: string;
}

let seq = 0;

/**
 * bcrypt's lowest cost for the users a test inserts: about 1 ms a hash instead of the product's 60
 * (BCRYPT_ROUNDS, which sign-up and password changes through the API still use). A sign-in still
 * runs the real bcrypt compare, which reads the cost from the hash.
 */
const TEST_BCRYPT_ROUNDS = 4;

/** Inserts a user straight into the database (no API, no rate limit) and signs a token for it. */
export async function createUser(db: Db, input: UserInput, secret = TEST_JWT_SECRET): Promise<TestUser> {
  seq += 1;
  const repo = new UsersRepo(db);
  const tag = `${input.role}${seq}${randomBytes(3).toString('hex')}`;
  const email = (input.email ?? `${tag}@example.test`).toLowerCase();
  const password = input.password ?? `pw-${tag}`;
  const firstname = input.firstname ?? `${input.role[0].toUpperCase()}${input.role.slice(1)}${seq}`;
  const referral_code = await new UsersService(repo).newReferralCode();
  const id = await repo.insert({
    firstname,
    lastname: input.lastname ?? 'Tester',
    email,
    passwordHash: await bcrypt.hash(password, TEST_BCRYPT_ROUNDS),
    role: input.role,
    referralCode: referral_code,
    referrerId: input.referrerId ?? null,
  });
  return {
    id,
    email,
    password,
    referral_code,
    role: input.role,
    firstname,
    token: signToken(secret, { id, role: input.role }),
  };
}

/** A user for useUsers: a role alone, the whole input, or an input made from the users made before it. */
export type UserSpec = Role | UserInput | ((made: Readonly<Record<string, TestUser>>) => UserInput);

/**
 * Users a suite names at module level and makes in beforeAll, one after another in the order given
 * (so ids follow it). Each returned object is filled in by the hook; `db` is read then, so it may
 * come from a harness that an earlier hook makes.
 */
export function useUsers<K extends string>(db: () => Db, specs: Record<K, UserSpec>): Record<K, TestUser> {
  const keys = Object.keys(specs) as K[];
  const users = Object.fromEntries(keys.map((k) => [k, {} as TestUser])) as Record<K, TestUser>;
  beforeAll(async () => {
    for (const k of keys) {
      const spec: UserSpec = specs[k];
      const input = typeof spec === 'string' ? { role: spec } : typeof spec === 'function' ? spec(users) : spec;
      Object.assign(users[k], await createUser(db(), input));
    }
  });
  return users;
}

/** The back-office roles, one user each: spread into useUsers ahead of a suite's own members. */
export const OFFICE_USERS = { admin: 'admin', dev: 'dev', staff: 'staff' } as const;

/** A 1×1 transparent PNG: the smallest real image an upload can carry. */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a0cf0000000049454e44ae426082',
  'hex',
);
