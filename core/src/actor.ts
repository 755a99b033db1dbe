import type { Role } from '@wa/shared';

/**
 * Who is calling: set by `authenticate` from a valid bearer token. What an actor may do is the
 * policy table's (core/src/policy.ts) to say.
 */
export interface Actor {
  id: number;
  role: Role;
  /** set when the caller came with an API key instead of a dashboard session */
  apiKey?: { id: number; readOnly: boolean };
}
