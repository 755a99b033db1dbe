import type { Role } from '@wa/shared';
import type { Actor } from '../actor';
import { AppError } from '../errors';

/** An actor for the service unit tests: who calls, and with which role. */
export const as = (id: number, role: Role): Actor => ({ id, role });

/**
 * What a service's refusal says: its status, message and code (when it has one). Fails the test when the call succeeds or
 * throws something other than an AppError, so a test of a refusal cannot pass by accident.
 */
export async function refused(work: Promise<unknown>): Promise<{ status: number; msg: string; code?: number }> {
  try {
    await work;
  } catch (err) {
    if (err instanceof AppError)
      return { status: err.status, msg: err.message, ...(err.code ? { code: err.code } : {}) };
    throw err;
  }
  throw new Error('expected a refusal');
}
