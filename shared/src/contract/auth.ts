import { z } from 'zod';
import { EMAIL_PATTERN } from '../format';
import { LOGIN_REQUIRED_MSG, TERMS_MSG } from './auth-messages';
import { hasNul, NUL_MSG, requiredText } from './common';
import { newPassword } from './passwords';
import { type UserDto, userDto } from './users';

export { LOGIN_REQUIRED_MSG, TERMS_MSG };

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

/** POST /auth/login and /auth/register (201): the session token and the user. */
export const authResponse = z.object({
  token: z.string().describe('the bearer token'),
  user: userDto,
  msg: z.string(),
});

/** POST /auth/validate: 200 with the user when the token is good, 401 with `err` when not. */
export const validateResponse = z.object({
  isvalid: z.boolean(),
  msg: z.string(),
  err: z.string().optional(),
  user: userDto.optional(),
});

/**
 * POST /auth/validate reads `token` from the body when no bearer token is sent. A `token` that is
 * not text counts as none (the answer is then the 401 of a missing token, not a 400).
 */
export const validateBody = z.object({ token: z.string().optional().catch(undefined) });
