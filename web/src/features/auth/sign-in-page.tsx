import { LOGIN_REQUIRED_MSG } from '@wa/shared';
import { type FormEvent, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FormField } from '../../components/form-field';
import { getToken } from '../../lib/cookies';
import { preloadAuth, useAuth } from './auth-context';
import { AuthLayout } from './auth-layout';
import { PasswordToggle } from './password-toggle';

/** /signin (§2 Public, §5 Login). */
export function SignInPage() {
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [shown, setShown] = useState(false);
  const [keep, setKeep] = useState(true);
  const [localError, setLocalError] = useState<string | null>(null);

  if (getToken()) return <Navigate to="/dashboard" replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setLocalError(null);
    if (!email.trim() || !password) {
      setLocalError(LOGIN_REQUIRED_MSG);
      return;
    }
    await auth.login(email.trim(), password);
  };
  const error = localError ?? auth.error;

  return (
    <AuthLayout>
      <div className="mb-8">
        <h1 className="mb-2 text-3xl font-semibold text-gray-800 dark:text-white/90">Sign In</h1>
        <p className="text-sm text-gray-500 dark:text-gray-400">Enter your email and password to sign in!</p>
      </div>
      {/* the API client loads once the user starts on the form, not with the screen (issue 23) */}
      <form onSubmit={submit} onFocus={preloadAuth} noValidate className="space-y-5">
        {error && <Alert tone="error">{error}</Alert>}
        <FormField
          label={
            <>
              Email <span className="text-red-500">*</span>
            </>
          }
          name="email"
          type="email"
          autoComplete="email"
          placeholder="info@gmail.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <FormField
          label={
            <>
              Password <span className="text-red-500">*</span>
            </>
          }
          name="password"
          type={shown ? 'text' : 'password'}
          autoComplete="current-password"
          placeholder="Enter your password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          right={<PasswordToggle shown={shown} onToggle={() => setShown((s) => !s)} />}
        />
        <div className="flex items-center justify-between">
          <label className="flex cursor-pointer items-center gap-3 text-sm text-gray-700 dark:text-gray-400">
            <input
              type="checkbox"
              checked={keep}
              onChange={(e) => setKeep(e.target.checked)}
              className="h-4 w-4 rounded border-gray-300 accent-brand-500"
            />
            Keep me logged in
          </label>
          <Link to="/reset-password" className="text-sm text-brand-500 hover:text-brand-600 dark:text-brand-400">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={auth.loading}>
          {auth.loading ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
      <p className="mt-5 text-center text-sm text-gray-700 sm:text-start dark:text-gray-400">
        Don&apos;t have an account?{' '}
        <Link to="/signup" className="text-brand-500 hover:text-brand-600 dark:text-brand-400">
          Sign Up
        </Link>
      </p>
    </AuthLayout>
  );
}
