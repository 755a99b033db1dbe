import type { PublicSettingsDto } from '@wa/shared';
import { Link } from 'react-router';
import { Alert } from '../../components/alert';
import { usePublicSettings } from '../settings/public-settings';
import { AuthLayout } from './auth-layout';
import { LinkedText } from './linked-text';

const PAGES = {
  terms: { title: 'Terms and Conditions', field: 'terms_text' },
  privacy: { title: 'Privacy Policy', field: 'privacy_text' },
} as const satisfies Record<string, { title: string; field: keyof PublicSettingsDto }>;

/** /terms and /privacy-policy (§2 Public): the text an admin keeps in Pengaturan, for anyone. */
export function PublicTextPage({ kind }: { kind: keyof typeof PAGES }) {
  const { settings, error } = usePublicSettings();
  const page = PAGES[kind];
  return (
    <AuthLayout>
      <h1 className="mb-6 text-3xl font-semibold text-gray-800 dark:text-white/90">{page.title}</h1>
      {error && <Alert tone="error">{error}</Alert>}
      {settings ? (
        <LinkedText
          text={settings[page.field]}
          className="text-sm leading-relaxed text-gray-700 dark:text-gray-300"
          testId="public-text"
        />
      ) : (
        !error && <p className="text-sm text-gray-500">Loading...</p>
      )}
      <p className="mt-8 text-sm text-gray-700 dark:text-gray-400">
        <Link to="/signup" className="text-brand-500 hover:text-brand-600 dark:text-brand-400">
          Sign Up
        </Link>
        {' · '}
        <Link to="/signin" className="text-brand-500 hover:text-brand-600 dark:text-brand-400">
          Sign In
        </Link>
      </p>
    </AuthLayout>
  );
}
