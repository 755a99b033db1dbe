import { ChevronRight } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';

/** Every page's title with a Home breadcrumb (§2); also the document title. */
export function PageBreadcrumb({ title }: { title: string }) {
  useEffect(() => {
    document.title = `${title} | WA Blaster`;
  }, [title]);
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h2 className="text-xl font-semibold text-gray-800 dark:text-white/90" data-testid="page-title">
        {title}
      </h2>
      <nav aria-label="Breadcrumb">
        <ol className="flex items-center gap-1.5 text-sm">
          <li>
            <Link
              to="/"
              className="inline-flex items-center gap-1.5 text-gray-500 hover:text-brand-500 dark:text-gray-400"
            >
              Home
              <ChevronRight size={14} />
            </Link>
          </li>
          <li className="text-gray-800 dark:text-white/90">{title}</li>
        </ol>
      </nav>
    </div>
  );
}

/** A white card, the page's content block. */
export function Card({ children, className = '' }: { children: React.ReactNode; className?: string }) {
  return (
    <div
      className={`rounded-2xl border border-gray-200 bg-white p-5 lg:p-6 dark:border-gray-800 dark:bg-white/[0.03] ${className}`}
    >
      {children}
    </div>
  );
}
