import { z } from 'zod';
import { EMAIL_PATTERN } from '../format';
import { hasNul, NUL_MSG, requiredText } from './common';
import type { UserDto } from './users';

/** §5 login rule: both fields are required, checked before any request. */
export const LOGIN_REQUIRED_MSG = 'Email and password are required.';
export const TERMS_MSG = 'You must agree to the terms and conditions.';

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

/** Login: absent fields say the §5 text; a field of the wrong type says so. */
export const loginBody = z.object({
  email: z.preprocess(
    (v) => v ?? '',
    z
      .string({ error: 'Email must be text.' })
      .trim()
      .min(1, LOGIN_REQUIRED_MSG)
      .max(255, 'Email is too long.')
      .refine((v) => !hasNul(v), `Email ${NUL_MSG}`),
  ),
  password: z.preprocess(
    (v) => v ?? '',
    z.string({ error: 'Password must be text.' }).min(1, LOGIN_REQUIRED_MSG).max(1024, 'Password is too long.'),
  ),
});
export type LoginBody = z.infer<typeof loginBody>;

const truthy = (v: unknown) => v === true || v === 'true' || v === 'on' || v === 1 || v === '1';

/**
 * The registration form of §5 with its exact texts. `affiliateCode` is the alternate name of
 * `referral_code` (§3). The terms rule is separate because the form checks it only after every
 * field error is gone.
 */
export const registerBody = z
  .object({
    firstName: requiredText('First name is required.', 100),
    lastName: requiredText('Last name is required.', 100),
    email: requiredText('Email is required.', 255).pipe(z.string().regex(EMAIL_PATTERN, 'Invalid email format.')),
    password: z.preprocess((v) => v ?? '', newPassword()),
    password2: z.preprocess(
      (v) => v ?? '',
      z.string({ error: 'Confirm password must be text.' }).min(1, 'Please confirm your password.'),
    ),
    referral_code: z.preprocess(
      (v) => (v === null || v === '' ? undefined : v),
      z
        .string({ error: 'Referral code must be text.' })
        .trim()
        .max(64, 'Referral code is too long.')
        .refine((v) => !hasNul(v), `Referral code ${NUL_MSG}`)
        .optional(),
    ),
    affiliateCode: z.preprocess(
      (v) => (v === null || v === '' ? undefined : v),
      z
        .string({ error: 'Referral code must be text.' })
        .trim()
        .max(64, 'Referral code is too long.')
        .refine((v) => !hasNul(v), `Referral code ${NUL_MSG}`)
        .optional(),
    ),
    agreeToTerms: z.unknown().optional().transform(truthy),
  })
  .superRefine((v, ctx) => {
    if (v.password && v.password2 && v.password !== v.password2) {
      ctx.addIssue({ code: 'custom', path: ['password2'], message: 'Passwords do not match.' });
    }
  });
export type RegisterBody = z.input<typeof registerBody>;

export interface AuthResponse {
  token: string;
  user: UserDto;
  msg: string;
}

export interface ValidateResponse {
  isvalid: boolean;
  msg: string;
  err?: string;
  user?: UserDto;
}
