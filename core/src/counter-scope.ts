import { ALL_USERS, type CounterUser } from '@wa/shared';
import type { Actor } from './actor';
import { forbidden, notFound } from './errors';
import { assertCan, canForAnyone } from './policy';

/** Whose rows a dashboard counter sums: one user's, or everybody's. */
export type CounterScope = { userId: number } | typeof ALL_USERS;

/** What the counters need of the users: a user's role, or null when there is no such user. */
export interface UserRoles {
  roleOf(id: number): Promise<string | null>;
}

/**
 * Who may read a dashboard counter (balance, income, counts), by the policy's `counters.read`: a
 * member only their own; admin and dev anyone's, and the global figure (`all`) of their own
 * dashboard; staff nobody's, since their dashboard is the withdrawal list. A user id that names
 * nobody is a 404 rather than a row of zeros.
 */
export async function counterScope(actor: Actor, userId: CounterUser, users: UserRoles): Promise<CounterScope> {
  if (userId === ALL_USERS) {
    if (!canForAnyone(actor, 'counters.read')) throw forbidden();
    return ALL_USERS;
  }
  assertCan(actor, 'counters.read', { userId });
  if (userId !== actor.id && (await users.roleOf(userId)) === null) throw notFound('User not found');
  return { userId };
}
