import { type CampaignDto, formatRupiah, updateCampaignBody } from '@wa/shared';
import { type FormEvent, useEffect, useState } from 'react';
import { Alert } from '../../components/alert';
import { Card } from '../../components/page-breadcrumb';
import { SaveButton } from '../../components/save-button';
import { useSubmit } from '../../lib/use-submit';
import { campaignsApi } from './api';
import { TermsFields, type TermsValues, termsInput, termsOf } from './campaign-terms';
import { count, termsEditable, when } from './campaign-ui';

function Term({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-gray-500 dark:text-gray-400">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words text-gray-800 dark:text-white/90">{value}</dd>
    </div>
  );
}

/** The terms as they stand, for a campaign the viewer may not change now. */
function TermsSummary({ campaign: c, operator }: { campaign: CampaignDto; operator: boolean }) {
  return (
    <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2" data-testid="campaign-terms">
      <Term label="Start" value={c.start_at ? when(c.start_at) : 'As soon as it is approved'} />
      <Term label="End" value={c.end_at ? when(c.end_at) : 'Until targets or budget run out'} />
      <Term
        label="Send window"
        value={c.window_start && c.window_end ? `${c.window_start}–${c.window_end}` : "The service's"}
      />
      <Term label="Budget (messages)" value={c.budget_messages === null ? 'No cap' : count(c.budget_messages)} />
      <Term label="Budget (Rp)" value={c.budget_amount === null ? 'No cap' : formatRupiah(c.budget_amount)} />
      <Term label="Price per delivered" value={formatRupiah(c.price_per_delivered)} />
      {operator && <Term label="Priority" value={String(c.priority)} />}
    </dl>
  );
}

/**
 * The campaign's terms: a form while the viewer may change them (a client while draft, pending or
 * paused; an admin or dev until finished; price and priority only for them), else what they are.
 * The form keeps what is typed while the page refreshes; an untouched form follows the campaign.
 */
export function CampaignTermsCard({
  campaign,
  operator,
  onSaved,
}: {
  campaign: CampaignDto;
  operator: boolean;
  onSaved(c: CampaignDto): void;
}) {
  const [values, setValues] = useState<TermsValues>(() => termsOf(campaign));
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState(false);
  const submit = useSubmit();
  const editable = termsEditable(campaign.status, operator);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of the campaign (updated_at) refills an untouched form
  useEffect(() => {
    if (!dirty) setValues(termsOf(campaign));
  }, [campaign.updated_at, dirty]);

  const edit = (field: keyof TermsValues, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setDirty(true);
    setSaved(false);
    submit.clearError(field);
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    void submit.submit(updateCampaignBody, termsInput(values, operator, null), async (body) => {
      const { data } = await campaignsApi.update(campaign.id, body);
      setValues(termsOf(data));
      setDirty(false);
      setSaved(true);
      onSaved(data);
    });
  };

  return (
    <section aria-label="Terms" className="min-w-0">
      <Card>
        <h3 className="mb-4 text-lg font-semibold text-gray-800 dark:text-white/90">Terms</h3>
        {editable ? (
          <form onSubmit={save} noValidate className="space-y-4" data-testid="terms-form">
            {submit.error && <Alert tone="error">{submit.error}</Alert>}
            {saved && <Alert tone="success">Terms saved.</Alert>}
            <TermsFields values={values} onChange={edit} errors={submit.errors} operator={operator} />
            {!operator && (
              <p className="text-sm text-gray-500 dark:text-gray-400">
                Price per delivered message: {formatRupiah(campaign.price_per_delivered)} (set by the operator)
              </p>
            )}
            <SaveButton saving={submit.saving} label="Save terms" busyLabel="Saving..." />
          </form>
        ) : (
          <>
            <TermsSummary campaign={campaign} operator={operator} />
            {campaign.status === 'active' && !operator && (
              <p className="mt-4 text-sm text-gray-500 dark:text-gray-400">Pause the campaign to change its terms.</p>
            )}
          </>
        )}
      </Card>
    </section>
  );
}
