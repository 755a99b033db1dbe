import { CAMPAIGN_STATUSES, type CampaignDto, type CampaignStatus, formatRupiah, normalizeRole } from '@wa/shared';
import { Plus } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/button';
import type { Column } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { ListTable } from '../../components/list-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { latestParams, withParam } from '../../lib/use-delayed-search';
import { useListPage } from '../../lib/use-list-page';
import { useAuth } from '../auth/auth-context';
import { campaignsApi } from './api';
import { BudgetBars } from './budget-bar';
import { CampaignStatusBadge } from './campaign-status';
import { count, isOperator, STATUS_LABELS } from './campaign-ui';
import { NewCampaignCard } from './new-campaign-card';

const STATUS_OPTIONS = CAMPAIGN_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));
const statusOf = (s: string | null): CampaignStatus | undefined =>
  (CAMPAIGN_STATUSES as readonly string[]).includes(s ?? '') ? (s as CampaignStatus) : undefined;

function columns(operator: boolean): Column<CampaignDto>[] {
  return [
    {
      header: 'Name',
      card: 'title',
      cell: (c) => (
        <Link to={`/campaigns/${c.id}`} className="font-medium text-brand-500 hover:underline">
          {c.name}
        </Link>
      ),
    },
    ...(operator ? [{ header: 'Client', cell: (c: CampaignDto) => c.client_name || `#${c.client_id}` }] : []),
    { header: 'Status', card: 'title', cell: (c) => <CampaignStatusBadge status={c.status} /> },
    { header: 'Priority', className: 'text-end', cell: (c) => c.priority },
    {
      header: 'Sent / Delivered / Replied',
      className: 'whitespace-nowrap',
      cell: (c) => (
        <span data-testid="campaign-figures">
          {count(c.sent)} / {count(c.delivered)} / {count(c.replied)}
        </span>
      ),
    },
    { header: 'Spent', className: 'whitespace-nowrap', cell: (c) => formatRupiah(c.spent) },
    { header: 'Budget use', card: 'wide', cell: (c) => <BudgetBars campaign={c} compact /> },
  ];
}

/**
 * /campaigns (issue 22): a client's own campaigns, every client's for admins and devs (with the
 * client's name), newest first, filtered by status in ?status=; 'New campaign' makes a draft.
 */
export function CampaignsPage() {
  const { user } = useAuth();
  const operator = isOperator(normalizeRole(user?.role));
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get('status'));
  const [creating, setCreating] = useState(false);
  const fetchPage = useCallback((page: number) => campaignsApi.list(page, status), [status]);
  const list = useListPage(fetchPage);

  return (
    <>
      <PageBreadcrumb title="Campaigns" />
      {creating && <NewCampaignCard operator={operator} onClose={() => setCreating(false)} />}
      <div className="mb-4 flex flex-wrap items-center gap-2">
        {!creating && (
          <Button size="sm" onClick={() => setCreating(true)}>
            <Plus size={16} /> New campaign
          </Button>
        )}
        <RefreshButton syncing={list.syncing} onClick={list.refresh} />
        <FilterSelect
          id="campaign-status-filter"
          value={status ?? ''}
          options={STATUS_OPTIONS}
          onChange={(v) => setParams(withParam(latestParams(), 'status', v, true))}
          className="w-full sm:w-52"
        />
        <span className="ml-auto text-sm text-gray-500 dark:text-gray-400">{list.total} campaigns</span>
      </div>
      <ListTable list={list} columns={columns(operator)} error={list.error} cards />
    </>
  );
}
