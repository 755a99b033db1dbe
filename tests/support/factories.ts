import { randomBytes } from 'node:crypto';
import type { Role } from '@wa/shared';
import type { Db } from '../../core/src/db/client';
import { signToken } from '../../server/src/auth/tokens';
import { hashPassword } from '../../server/src/modules/users/passwords';
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
    passwordHash: await hashPassword(password),
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
