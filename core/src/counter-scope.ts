import { ALL_USERS, type CounterUser } from '@wa/shared';
import type { Actor } from './actor';
import { forbidden, notFound } from './errors';

/** Whose rows a dashboard counter sums: one user's, or everybody's. */
export type CounterScope = { userId: number } | typeof ALL_USERS;

/**
 * Who may read a dashboard counter (balance, income, counts): a member only their own; admin and
 * dev anyone's, and the global figure (`all`) of their own dashboard; staff nobody's, since their
 * dashboard is the withdrawal list. A user id that names nobody is a 404 rather than a row of zeros.
 */
export async function counterScope(
  actor: Actor,
  userId: CounterUser,
  roleOf: (id: number) => Promise<string | null>,
): Promise<CounterScope> {
  if (actor.role === 'member') {
    if (userId !== actor.id) throw forbidden();
    return { userId };
  }
  if (actor.role !== 'admin' && actor.role !== 'dev') throw forbidden();
  if (userId === ALL_USERS) return ALL_USERS;
  if (userId !== actor.id && (await roleOf(userId)) === null) throw notFound('User not found');
  return { userId };
}
