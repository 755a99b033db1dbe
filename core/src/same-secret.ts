import { timingSafeEqual } from 'node:crypto';

/** A constant-time comparison, so a token cannot be guessed byte by byte from response times. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
