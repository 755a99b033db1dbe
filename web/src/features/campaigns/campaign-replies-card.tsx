import type { CampaignReplyDto } from '@wa/shared';
import { Download } from 'lucide-react';
import { useCallback } from 'react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import type { Column } from '../../components/data-table';
import { ListTable } from '../../components/list-table';
import { Card } from '../../components/page-breadcrumb';
import { streamDownload } from '../../lib/download';
import { useListPage } from '../../lib/use-list-page';
import { usePoll } from '../../lib/use-poll';
import { campaignsApi } from './api';
import { CAMPAIGN_POLL_MS, variantLabel, when } from './campaign-ui';

const COLUMNS: Column<CampaignReplyDto>[] = [
  { header: 'Time', card: 'title', className: 'whitespace-nowrap', cell: (r) => when(r.at) },
  {
    header: 'Number',
    card: 'title',
    cell: (r) => <span className="font-medium text-gray-800 dark:text-white/90">{r.target}</span>,
  },
  { header: 'Name', cell: (r) => r.name || '-' },
  { header: 'Variant', cell: (r) => variantLabel(r.variant_id) },
  { header: 'Opt-out', cell: (r) => (r.optout ? <Badge tone="error">Opted out</Badge> : '-') },
  {
    header: 'Reply',
    card: 'wide',
    className: 'min-w-48',
    cell: (r) => <p className="break-words whitespace-pre-line">{r.text || '-'}</p>,
  },
];

/**
 * The replies to the campaign's messages, newest first (?rpage=), asked again every 5 s: the
 * number, its name in the list, the variant it answered and what it said. 'Download leads' saves
 * the numbers that replied and did not opt out as CSV.
 */
export function CampaignRepliesCard({ campaignId }: { campaignId: number }) {
  const fetchPage = useCallback((page: number) => campaignsApi.replies(campaignId, page), [campaignId]);
  const list = useListPage(fetchPage, '', 'rpage');
  usePoll(list.refresh, CAMPAIGN_POLL_MS);
  return (
    <section aria-label="Replies" className="mb-6 min-w-0">
      <Card>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">
            Replies <span className="text-sm font-normal text-gray-500 dark:text-gray-400">({list.total})</span>
          </h3>
          <Button size="sm" variant="outline" onClick={() => streamDownload(campaignsApi.leadsUrl(campaignId))}>
            <Download size={16} /> Download leads
          </Button>
        </div>
        <div data-testid="replies">
          <ListTable list={list} columns={COLUMNS} error={list.error} cards />
        </div>
      </Card>
    </section>
  );
}
