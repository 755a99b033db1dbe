import { z } from 'zod';
import { hasNul, NUL_MSG } from './common';

/** Our own rule (the spec shows none): at least 8 characters… */
export const PASSWORD_MIN_LENGTH = 8;
/** …and at most 72 bytes, because bcrypt ignores every byte after the 72nd. */
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_SHORT_MSG = `Password must be at least ${PASSWORD_MIN_LENGTH} characters.`;
export const PASSWORD_LONG_MSG = `Password must be at most ${PASSWORD_MAX_BYTES} bytes (fewer characters with accents or emoji).`;

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

/**
 * A password being set (sign-up, password change): text, 8 characters at least, 72 bytes at most,
 * refused rather than silently cut short.
 */
export function newPassword(requiredMsg = 'Password is required.') {
  return z
    .string({ error: 'Password must be text.' })
    .min(1, requiredMsg)
    .refine((v) => v.length === 0 || v.length >= PASSWORD_MIN_LENGTH, PASSWORD_SHORT_MSG)
    .refine((v) => utf8Length(v) <= PASSWORD_MAX_BYTES, PASSWORD_LONG_MSG)
    .refine((v) => !hasNul(v), `Password ${NUL_MSG}`);
}
