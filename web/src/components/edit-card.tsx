import type { ReactNode } from 'react';
import { Alert } from './alert';
import { Card, PageBreadcrumb } from './page-breadcrumb';

/** An edit page (§2 phone number, proxy): its title, the error line, and the form once loaded. */
export function EditCard({ title, error, children }: { title: string; error: string | null; children: ReactNode }) {
  return (
    <>
      <PageBreadcrumb title={title} />
      <Card className="max-w-xl">
        {error && (
          <div className="mb-4">
            <Alert tone="error">{error}</Alert>
          </div>
        )}
        {children}
      </Card>
    </>
  );
}
