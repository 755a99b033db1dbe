import { describe, expect, it } from 'vitest';
import { loginBody, registerBody } from './auth';
import { fieldErrors } from './common';

describe('registerBody', () => {
  it('accepts a complete form and reads the terms flag', () => {
    const r = registerBody.parse({
      firstName: ' Ani ',
      lastName: 'B',
      email: 'ani@example.test',
      password: 'rahasia1',
      password2: 'rahasia1',
      referral_code: '',
      agreeToTerms: 'on',
    });
    expect(r).toMatchObject({ firstName: 'Ani', agreeToTerms: true, referral_code: undefined });
  });

  it('gives the spec texts per field', () => {
    const r = registerBody.safeParse({ email: 'a b@c.d', password: 'rahasia1', password2: 'rahasia2' });
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(fieldErrors(r.error)).toEqual({
        firstName: 'First name is required.',
        lastName: 'Last name is required.',
        email: 'Invalid email format.',
        password2: 'Passwords do not match.',
      });
    }
  });
});

describe('loginBody', () => {
  it('requires both fields with one message', () => {
    const r = loginBody.safeParse({ email: '', password: 'x' });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0].message).toBe('Email and password are required.');
  });
});
