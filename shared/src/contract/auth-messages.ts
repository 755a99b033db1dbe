/**
 * The auth rules' texts, apart from their schemas in auth.ts: the sign-in screen shows them
 * without loading zod (issue 23).
 */

/** §5 login rule: both fields are required, checked before any request. */
export const LOGIN_REQUIRED_MSG = 'Email and password are required.';
export const TERMS_MSG = 'You must agree to the terms and conditions.';
