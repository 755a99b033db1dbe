import {
  CAMPAIGN_TARGET_EXPORT,
  type CampaignDto,
  PHONE_STATUSES,
  type PhoneNumberDto,
  type PhoneStatus,
} from '@wa/shared';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import type { Column } from '../../components/data-table';
import { ExportButtons } from '../../components/export-buttons';
import { FilterSelect } from '../../components/filter-select';
import { ListTable } from '../../components/list-table';
import { Card } from '../../components/page-breadcrumb';
import { statusColumn } from '../../components/row-actions';
import { SearchFields } from '../../components/search-fields';
import { latestParams, useDelayedSearch } from '../../lib/use-delayed-search';
import { useListPage } from '../../lib/use-list-page';
import { ImportCard } from '../imports/import-card';
import { campaignsApi } from './api';
import { count, when } from './campaign-ui';

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'nonactive', label: 'Nonactive' },
  { value: 'optout', label: 'Opt-out' },
];
const statusOf = (s: string | null): PhoneStatus | undefined =>
  (PHONE_STATUSES as readonly string[]).includes(s ?? '') ? (s as PhoneStatus) : undefined;

const COLUMNS: Column<PhoneNumberDto>[] = [
  {
    header: 'Number',
    card: 'title',
    cell: (r) => <span className="font-medium text-gray-800 dark:text-white/90">{r.number}</span>,
  },
  { header: 'Name', cell: (r) => r.name || '-' },
  statusColumn(),
  { header: 'Sent', className: 'text-end', cell: (r) => count(r.count_success) },
  { header: 'Failed', className: 'text-end', cell: (r) => count(r.count_fail) },
  { header: 'Last sent', className: 'whitespace-nowrap', cell: (r) => when(r.last_sent) },
];

/** The query with `key` set (removed when empty) and the targets back on their first page. */
function withTargetParam(key: string, value: string): URLSearchParams {
  const next = latestParams();
  if (value) next.set(key, value);
  else next.delete(key);
  next.delete('tpage');
  return next;
}

/**
 * The campaign's targets: the import card (CSV or JSON, as the phone numbers' import; numbers
 * already in the campaign or opted out anywhere are skipped with their reason) until the campaign
 * is finished, and the paged list with its search (?ts=), status filter (?tstatus=), page (?tpage=)
 * and export.
 */
export function CampaignTargetsCard({ campaign }: { campaign: CampaignDto }) {
  const [params, setParams] = useSearchParams();
  const search = params.get('ts') ?? '';
  const status = statusOf(params.get('tstatus'));
  const fetchPage = useCallback(
    (page: number, s: string) => campaignsApi.targets(campaign.id, page, s, status),
    [campaign.id, status],
  );
  const list = useListPage(fetchPage, search, 'tpage');
  const box = useDelayedSearch(search, (text) => setParams(withTargetParam('ts', text)));

  return (
    <section aria-label="Targets" className="mb-6 grid grid-cols-1 gap-6 xl:grid-cols-3">
      {campaign.status !== 'finished' && (
        <div className="min-w-0">
          <ImportCard
            upload={(form) => campaignsApi.importTargets(campaign.id, form)}
            skippedUrl={(importId) => campaignsApi.skippedTargetsUrl(campaign.id, importId)}
            onImported={list.refresh}
            noun="nomor"
            keyColumn="number"
            csvColumns={CAMPAIGN_TARGET_EXPORT.columns}
            skippedFiles={{
              csv: CAMPAIGN_TARGET_EXPORT.skipped(campaign.id),
              json: `campaign_${campaign.id}_targets_skipped.json`,
            }}
            fallback="Error importing the targets"
          />
        </div>
      )}
      <Card className={`min-w-0 ${campaign.status !== 'finished' ? 'xl:col-span-2' : 'xl:col-span-3'}`}>
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">Targets</h3>
          <span className="text-sm text-gray-500 dark:text-gray-400" data-testid="target-total">
            {list.total} nomor
          </span>
        </div>
        <form onSubmit={box.submit} className="mb-4 flex flex-wrap items-center gap-2">
          <SearchFields search={box} label="Cari nomor atau nama" className="w-full sm:w-64" />
          <FilterSelect
            id="target-status-filter"
            value={status ?? ''}
            options={STATUS_OPTIONS}
            onChange={(v) => setParams(withTargetParam('tstatus', v))}
            className="w-full sm:w-40"
          />
          <ExportButtons
            total={list.total}
            empty="No targets to export."
            url={(format) => campaignsApi.targetsExportUrl(campaign.id, format)}
          />
        </form>
        <div data-testid="targets">
          <ListTable list={list} columns={COLUMNS} error={list.error} cards />
        </div>
      </Card>
    </section>
  );
}
