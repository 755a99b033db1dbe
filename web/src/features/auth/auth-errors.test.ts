import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../../api/client';
import { authFailureText, signUpFieldErrors } from './auth-errors';

describe('signUpFieldErrors', () => {
  it("puts the server's field errors under the form's fields", () => {
    const err = new ApiCallError('Email is already registered.', 409, { email: 'Email is already registered.' });
    expect(signUpFieldErrors(err)).toEqual({ email: 'Email is already registered.' });
    // affiliateCode is referral_code's other name; the terms refusal goes to the checkbox
    expect(signUpFieldErrors(new ApiCallError('x', 400, { affiliateCode: 'Referral code not found.' }))).toEqual({
      referral_code: 'Referral code not found.',
    });
    expect(signUpFieldErrors(new ApiCallError('t', 400, { agreeToTerms: 'You must agree.' }))).toEqual({
      agreeToTerms: 'You must agree.',
    });
  });

  it('finds the field a {msg} alone names', () => {
    const named = (msg: string) => signUpFieldErrors(new ApiCallError(msg, 400));
    expect(named('Email is already registered.')).toEqual({ email: 'Email is already registered.' });
    expect(named('Referral code not found.')).toEqual({ referral_code: 'Referral code not found.' });
    expect(named('Passwords do not match.')).toEqual({ password2: 'Passwords do not match.' });
    expect(named('Password must be at least 8 characters.')).toEqual({
      password: 'Password must be at least 8 characters.',
    });
  });

  it('leaves refusals that name no field, unknown keys and failures to the banner', () => {
    expect(signUpFieldErrors(new ApiCallError('Too many sign-ups from this address.', 429))).toBeNull();
    expect(signUpFieldErrors(new ApiCallError('Bad', 400, { _: 'Bad' }))).toBeNull();
    expect(signUpFieldErrors(new ApiCallError('Email service down', 500))).toBeNull();
    expect(signUpFieldErrors(new Error('boom'))).toBeNull();
  });
});

describe('authFailureText', () => {
  it("says 'Internal server error' when no answer came (§8 Auth), the server's text or the fallback otherwise", () => {
    expect(authFailureText(new ApiCallError('Network error. Please try again.', 0))).toBe('Internal server error');
    expect(authFailureText(new TypeError('Failed to fetch'))).toBe('Internal server error');
    expect(authFailureText(new ApiCallError('Internal server error', 500))).toBe('Internal server error');
    // a proxy's 502 without a body: the call's fallback
    expect(authFailureText(new ApiCallError('Error signing in', 502))).toBe('Error signing in');
    expect(authFailureText(new ApiCallError('Invalid email or password', 401))).toBe('Invalid email or password');
    // an outage says which dependency is away and to try again shortly
    const outage = 'Database sedang tidak dapat dihubungi. Silakan coba lagi sebentar lagi.';
    expect(authFailureText(new ApiCallError(outage, 503))).toBe(outage);
  });
});
