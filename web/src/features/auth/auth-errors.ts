import { ApiCallError } from '../../api/errors';

/** The sign-up form's fields (§5 Registration), and the terms checkbox. */
export const SIGN_UP_FIELDS = ['firstName', 'lastName', 'email', 'password', 'password2', 'referral_code'] as const;
export type SignUpField = (typeof SIGN_UP_FIELDS)[number];
const TERMS_FIELD = 'agreeToTerms';

/** Server keys that are another name of a form field (§3: affiliateCode is referral_code). */
const ALIASES: Record<string, string> = { affiliateCode: 'referral_code' };

/** A message that names a field ("Email is already registered."), for a refusal without `errors`. */
const NAMED: [RegExp, string][] = [
  [/^first ?name\b/i, 'firstName'],
  [/^last ?name\b/i, 'lastName'],
  [/^e-?mail\b/i, 'email'],
  [/^(confirm password|passwords do not match)\b/i, 'password2'],
  [/^password\b/i, 'password'],
  [/^(referral|affiliate) code\b/i, 'referral_code'],
  [/terms and conditions/i, TERMS_FIELD],
];

const known = (key: string) => (SIGN_UP_FIELDS as readonly string[]).includes(key) || key === TERMS_FIELD;

/**
 * Where a failed sign-up shows (§2 /signup: server field errors under their fields): the messages
 * by form field (`agreeToTerms` for the terms checkbox), or null when the refusal names no field
 * and belongs in the banner.
 */
export function signUpFieldErrors(err: unknown): Record<string, string> | null {
  if (!(err instanceof ApiCallError) || err.status < 400 || err.status >= 500) return null;
  const out: Record<string, string> = {};
  for (const [key, msg] of Object.entries(err.errors)) {
    const field = ALIASES[key] ?? key;
    if (known(field) && !(field in out)) out[field] = msg;
  }
  if (Object.keys(out).length === 0) {
    const named = NAMED.find(([re]) => re.test(err.message.trim()));
    if (named) out[named[1]] = err.message;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** §8 Auth: what an exception in login or registration (no answer at all) shows. */
export const AUTH_EXCEPTION_MSG = 'Internal server error';

/**
 * The banner text of a failed sign-in or sign-up (§8 Auth): a failure the server answered shows
 * its `msg` (a wrong password, too many attempts, an outage's 503 text), else the call's fallback
 * ('Error signing in', 'Failed to sign up. Please try again.'); an exception — the request got no
 * answer — shows 'Internal server error', not the general 'Network error. Please try again.'.
 */
export function authFailureText(err: unknown): string {
  if (!(err instanceof ApiCallError) || err.status === 0) return AUTH_EXCEPTION_MSG;
  return err.message;
}
