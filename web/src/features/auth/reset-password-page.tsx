import { Link } from 'react-router';
import { Alert } from '../../components/alert';
import { usePublicSettings } from '../settings/public-settings';
import { AuthLayout } from './auth-layout';
import { LinkedText } from './linked-text';

/**
 * /reset-password, the 'Forgot password?' link (§2 Public). Our choice: there is no self-service
 * reset (the product sends no e-mail); an admin sets a new password (PUT /admin/users/{id}), so
 * this page says whom to contact, with the contact an admin keeps in Pengaturan.
 */
export function ResetPasswordPage() {
  const { settings, error } = usePublicSettings();
  return (
    <AuthLayout>
      <div className="mb-6">
        <h1 className="mb-2 text-3xl font-semibold text-gray-800 dark:text-white/90">Forgot your password?</h1>
        <p className="text-sm text-gray-500 dark:text-gray-400">
          Passwords are reset by the admin. Contact the admin with the email address of your account and they will set a
          new password for you.
        </p>
      </div>
      {error && <Alert tone="error">{error}</Alert>}
      {settings && (
        <div className="rounded-xl border border-gray-200 p-4 dark:border-gray-800">
          <p className="mb-1 text-xs font-medium text-gray-500 uppercase dark:text-gray-400">Admin contact</p>
          <LinkedText
            text={settings.support_contact}
            className="text-sm text-gray-800 dark:text-white/90"
            testId="support-contact"
          />
        </div>
      )}
      <p className="mt-6 text-sm text-gray-700 dark:text-gray-400">
        Remembered it?{' '}
        <Link to="/signin" className="text-brand-500 hover:text-brand-600 dark:text-brand-400">
          Sign In
        </Link>
      </p>
    </AuthLayout>
  );
}
