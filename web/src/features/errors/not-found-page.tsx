import { Link } from 'react-router';

/** Any undefined path (§2 Not found). */
export function NotFoundPage() {
  return (
    <div className="relative flex min-h-screen flex-col items-center justify-center overflow-hidden bg-white p-6 dark:bg-gray-900">
      <div className="mx-auto w-full max-w-[472px] text-center">
        <h1 className="mb-8 text-5xl font-bold text-gray-800 dark:text-white/90">ERROR</h1>
        <p className="mt-10 mb-6 text-base text-gray-700 sm:text-lg dark:text-gray-400">
          We can't seem to find the page you are looking for!
        </p>
        <Link
          to="/"
          className="inline-flex items-center justify-center rounded-lg border border-gray-300 bg-white px-5 py-3.5 text-sm font-medium text-gray-700 shadow-xs hover:bg-gray-50 dark:border-gray-700 dark:bg-gray-800 dark:text-gray-400 dark:hover:bg-white/[0.03]"
        >
          Back to Home Page
        </Link>
      </div>
    </div>
  );
}
