import { Link } from 'react-router';

/** Where a role that may not open a screen is sent (§2 route table). */
export function NotAuthorizedPage() {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-white p-6 text-center dark:bg-gray-900">
      <h1 className="mb-4 text-4xl font-bold text-gray-800 dark:text-white/90">Not Authorized</h1>
      <p className="mb-6 text-gray-600 dark:text-gray-400">Your role may not open this page.</p>
      <Link
        to="/"
        className="inline-flex items-center justify-center rounded-lg bg-brand-500 px-5 py-3 text-sm font-medium text-white hover:bg-brand-600"
      >
        Back to Home Page
      </Link>
    </div>
  );
}
