/**
 * The errors of the API calls, apart from client.ts: that one holds the route declarations and
 * their zod schemas, which the sign-in screen loads only when it first calls (issue 23).
 */

/** A failed call: the server's `msg` (or a fallback), its status and per-field messages. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly errors: Record<string, string> = {},
    /** the server's `code`, where the screen reacts to it (withdraw: 1 = bank details missing) */
    public readonly code?: number,
  ) {
    super(message);
  }
}

/** The message of a failed call (the server's `msg`), or `fallback` for anything else (§8). */
export function errorText(err: unknown, fallback = 'Network error. Please try again.'): string {
  return err instanceof ApiCallError ? err.message : fallback;
}
