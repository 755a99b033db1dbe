import type { GeneratorDto } from '@wa/shared';
import type { Column } from '../../components/data-table';
import { ToolListPage } from '../tools/tool-list-page';
import type { ToolRow } from '../tools/tool-rows';
import { generatorApi } from './api';

const rangeColumn: Column<ToolRow<GeneratorDto>> = {
  header: 'Range Nomor',
  cell: (r) => (
    <div className="min-w-36">
      <p className="font-mono text-xs whitespace-nowrap">{`${r.start_number}-${r.end_number}`}</p>
      <p className="text-xs text-gray-500 dark:text-gray-400" data-testid="tool-current">
        {r.current_number ?? '-'}
      </p>
    </div>
  ),
};

/** /generator/list 'Daftar Generator' (§2). */
export function GeneratorListPage() {
  return (
    <ToolListPage<GeneratorDto>
      kind="generator"
      title="Daftar Generator"
      noun="Generator"
      api={generatorApi}
      targetColumn={rangeColumn}
    />
  );
}
