import type { Role } from '@wa/shared';
import { forbidden } from './errors';

/** Who is calling: set by `authenticate` from a valid bearer token. */
export interface Actor {
  id: number;
  role: Role;
}

/** Admin and dev may act on anyone; everybody else only on themselves. */
export function assertSelfOrStaff(actor: Actor, userId: number, staffRoles: Role[] = ['admin', 'dev']): void {
  if (actor.id !== userId && !staffRoles.includes(actor.role)) throw forbidden();
}
