import type { ValidatorDto } from '@wa/shared';
import { FileText } from 'lucide-react';
import type { Column } from '../../components/data-table';
import { ToolListPage } from '../tools/tool-list-page';
import { shortFileName, type ToolRow } from '../tools/tool-rows';
import { validatorApi } from './api';

/**
 * §2 Target File: links to the upload. fileUrl is the authorised download route, which a plain
 * link may open with the session cookie; the server sends it as an attachment, so no new tab.
 */
const fileColumn: Column<ToolRow<ValidatorDto>> = {
  header: 'Target File',
  cell: (r) => (
    <div className="min-w-32">
      <a
        href={r.fileUrl}
        download={r.fileName}
        title={r.fileName}
        className="inline-flex items-center gap-1 text-sm whitespace-nowrap text-brand-500 hover:underline"
      >
        <FileText size={14} />
        {shortFileName(r.fileName)}
      </a>
      <p className="text-xs text-gray-500 dark:text-gray-400">{`${r.total} nomor`}</p>
    </div>
  ),
};

/** /validator/list 'Daftar Validator' (§2): the generator's layout with a Target File column. */
export function ValidatorListPage() {
  return (
    <ToolListPage<ValidatorDto>
      kind="validator"
      title="Daftar Validator"
      noun="Validator"
      api={validatorApi}
      targetColumn={fileColumn}
    />
  );
}
