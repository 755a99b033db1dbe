import {
  type Answer,
  type CAMPAIGNS,
  type CampaignDto,
  type CampaignTopupDto,
  campaignTopupBody,
  formatRupiah,
} from '@wa/shared';
import { type FormEvent, useState } from 'react';
import { Alert } from '../../components/alert';
import { CardList, useNarrowScreen } from '../../components/card-list';
import { type Column, DataTable } from '../../components/data-table';
import { FormField } from '../../components/form-field';
import { Card } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { useSubmit } from '../../lib/use-submit';
import { campaignsApi } from './api';
import { when } from './campaign-ui';

const COLUMNS: Column<CampaignTopupDto>[] = [
  { header: 'Date', card: 'title', className: 'whitespace-nowrap', cell: (t) => when(t.created_at) },
  {
    header: 'Amount',
    card: 'title',
    className: 'whitespace-nowrap text-end',
    cell: (t) => <span className="font-medium">{formatRupiah(t.amount)}</span>,
  },
  { header: 'Note', card: 'wide', cell: (t) => <span className="break-words">{t.note || '-'}</span> },
];

/** An admin's or dev's record of a payment: it adds to the campaign's rupiah budget. */
function TopupForm({ campaignId, onRecorded }: { campaignId: number; onRecorded(c: CampaignDto): void }) {
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const submit = useSubmit();
  const save = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    void submit.submit(campaignTopupBody, { amount, note: note.trim() || undefined }, async (body) => {
      const res = await campaignsApi.topup(campaignId, body);
      setAmount('');
      setNote('');
      setDone(res.msg);
      onRecorded(res.data);
    });
  };
  return (
    <form onSubmit={save} noValidate className="mt-6 space-y-4" data-testid="topup-form">
      <h4 className="text-sm font-semibold text-gray-800 dark:text-white/90">Record a top-up</h4>
      {submit.error && <Alert tone="error">{submit.error}</Alert>}
      {done && <Alert tone="success">{done}</Alert>}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField
          label="Amount (Rp)"
          name="amount"
          inputMode="numeric"
          value={amount}
          error={submit.errors.amount}
          onChange={(e) => {
            setAmount(e.target.value);
            submit.clearError('amount');
          }}
        />
        <FormField
          label="Note"
          name="note"
          value={note}
          error={submit.errors.note}
          placeholder="e.g. Transfer BCA"
          onChange={(e) => {
            setNote(e.target.value);
            submit.clearError('note');
          }}
        />
      </div>
      <SaveButton saving={submit.saving} label="Record top-up" busyLabel="Saving..." />
    </form>
  );
}

/**
 * The campaign's top-ups, newest first, with their total: the client's payment history. An admin
 * or dev records a new one here (it adds to the rupiah budget, and reopens a campaign its budget
 * had finished as paused).
 */
export function CampaignTopupsCard({
  campaign,
  topups,
  operator,
  onRecorded,
}: {
  campaign: CampaignDto;
  topups: Answer<typeof CAMPAIGNS.topups> | null;
  operator: boolean;
  onRecorded(c: CampaignDto): void;
}) {
  const narrow = useNarrowScreen();
  const open = campaign.status !== 'finished' || campaign.stop_reason === 'budget';
  const rows = topups?.data ?? [];
  return (
    <section aria-label="Top-ups" className="min-w-0">
      <Card>
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">Top-ups</h3>
          <span className="text-sm text-gray-500 dark:text-gray-400" data-testid="topup-total">
            Total {formatRupiah(topups?.total ?? 0)}
          </span>
        </div>
        <div data-testid="topups">
          {narrow ? (
            <CardList columns={COLUMNS} rows={rows} rowKey={(t) => t.id} loading={topups === null} />
          ) : (
            <DataTable columns={COLUMNS} rows={rows} rowKey={(t) => t.id} loading={topups === null} />
          )}
        </div>
        {operator && open && <TopupForm campaignId={campaign.id} onRecorded={onRecorded} />}
      </Card>
    </section>
  );
}
