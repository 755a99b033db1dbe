import { fieldErrors, REFERRAL_STORAGE_KEY, registerBody, TERMS_MSG } from '@wa/shared';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { getToken } from '../../lib/cookies';
import { useAuth } from './auth-context';
import type { SignUpField } from './auth-errors';
import { AuthLayout } from './auth-layout';
import { PasswordToggle } from './password-toggle';

type Field = SignUpField;

function initialReferral(param: string | null): string {
  if (param) return param;
  try {
    return localStorage.getItem(REFERRAL_STORAGE_KEY) ?? '';
  } catch {
    return '';
  }
}

/** /signup (§2 Public, §5 Registration). */
export function SignUpPage() {
  const auth = useAuth();
  const [params] = useSearchParams();
  const [form, setForm] = useState<Record<Field, string>>(() => ({
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    password2: '',
    referral_code: initialReferral(params.get('referral')),
  }));
  const [agree, setAgree] = useState(false);
  const [shown, setShown] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [termsError, setTermsError] = useState<string | null>(null);

  if (getToken()) return <Navigate to="/dashboard" replace />;

  const edit = (field: Field, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setErrors((e) => {
      if (!(field in e)) return e;
      const next = { ...e };
      delete next[field];
      return next;
    });
    auth.clearFieldError(field);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTermsError(null);
    const parsed = registerBody.safeParse({ ...form, agreeToTerms: agree });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error));
      return;
    }
    setErrors({});
    if (!agree) {
      setTermsError(TERMS_MSG);
      return;
    }
    await auth.register({ ...form, agreeToTerms: agree });
  };

  const err = (f: Field) => errors[f] ?? auth.fieldErrors[f] ?? null;
  // the server's refusal of the terms shows where the form's own terms message does
  const terms = termsError ?? auth.fieldErrors.agreeToTerms ?? null;
  const required = (text: string) => (
    <>
      {text} <span className="text-red-500">*</span>
    </>
  );

  return (
    <AuthLayout>
      <div className="mb-8">
        <h1 className="mb-2 text-3xl font-semibold text-gray-800 dark:text-white/90">Sign Up</h1>
        <p className="text-sm text-gray-500 dark:text-gray-400">Enter your details to create your account!</p>
      </div>
      <form onSubmit={submit} noValidate className="space-y-5">
        {terms && <Alert tone="error">{terms}</Alert>}
        {auth.error && !terms && <Alert tone="error">{auth.error}</Alert>}
        <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          <FormField
            label={required('First Name')}
            name="firstName"
            autoComplete="given-name"
            placeholder="Enter your first name"
            value={form.firstName}
            onChange={(e) => edit('firstName', e.target.value)}
            error={err('firstName')}
          />
          <FormField
            label={required('Last Name')}
            name="lastName"
            autoComplete="family-name"
            placeholder="Enter your last name"
            value={form.lastName}
            onChange={(e) => edit('lastName', e.target.value)}
            error={err('lastName')}
          />
        </div>
        <FormField
          label={required('Email')}
          name="email"
          type="email"
          autoComplete="email"
          placeholder="Enter your email"
          value={form.email}
          onChange={(e) => edit('email', e.target.value)}
          error={err('email')}
        />
        <FormField
          label={required('Password')}
          name="password"
          type={shown ? 'text' : 'password'}
          autoComplete="new-password"
          placeholder="Enter your password"
          value={form.password}
          onChange={(e) => edit('password', e.target.value)}
          error={err('password')}
          right={<PasswordToggle shown={shown} onToggle={() => setShown((s) => !s)} />}
        />
        <FormField
          label={required('Confirm Password')}
          name="password2"
          type={shown ? 'text' : 'password'}
          autoComplete="new-password"
          placeholder="Confirm your password"
          value={form.password2}
          onChange={(e) => edit('password2', e.target.value)}
          error={err('password2')}
        />
        <FormField
          label="Referral Code"
          name="referral_code"
          placeholder="Referral code (optional)"
          value={form.referral_code}
          onChange={(e) => edit('referral_code', e.target.value)}
          error={err('referral_code')}
        />
        <label className="flex cursor-pointer items-start gap-3 text-sm text-gray-500 dark:text-gray-400">
          <input
            type="checkbox"
            name="agreeToTerms"
            checked={agree}
            onChange={(e) => {
              setAgree(e.target.checked);
              setTermsError(null);
              auth.clearFieldError('agreeToTerms');
            }}
            className="mt-0.5 h-4 w-4 rounded border-gray-300 accent-brand-500"
          />
          <span>
            By creating an account you agree to the{' '}
            <a href="/terms" target="_blank" rel="noreferrer" className="text-gray-800 underline dark:text-white/90">
              Terms and Conditions
            </a>{' '}
            and our{' '}
            <a
              href="/privacy-policy"
              target="_blank"
              rel="noreferrer"
              className="text-gray-800 underline dark:text-white"
            >
              Privacy Policy
            </a>
          </span>
        </label>
        <Button type="submit" className="w-full" disabled={auth.loading}>
          {auth.loading ? 'Signing Up...' : 'Sign Up'}
        </Button>
      </form>
      <p className="mt-5 text-center text-sm text-gray-700 sm:text-start dark:text-gray-400">
        Already have an account?{' '}
        <Link to="/signin" className="text-brand-500 hover:text-brand-600 dark:text-brand-400">
          Sign In
        </Link>
      </p>
    </AuthLayout>
  );
}
