import type { ReactNode } from 'react';
import { Card, PageBreadcrumb } from './page-breadcrumb';

/** A create page with an 'Input Manual' card beside an upload card (§2 phone numbers, proxies). */
export function ManualEntry({ title, upload, children }: { title: string; upload: ReactNode; children: ReactNode }) {
  return (
    <>
      <PageBreadcrumb title={title} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <Card>
          <h3 className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">Input Manual</h3>
          {children}
        </Card>
        {upload}
      </div>
    </>
  );
}
