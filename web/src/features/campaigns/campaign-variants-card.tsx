import type { CampaignDto, CampaignTemplateDto } from '@wa/shared';
import { type FormEvent, useState } from 'react';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { CardList, useNarrowScreen } from '../../components/card-list';
import { type Column, DataTable } from '../../components/data-table';
import { type Confirmation, ConfirmDialog } from '../../components/dialogs';
import { inputClass } from '../../components/form-field';
import { Card } from '../../components/page-breadcrumb';
import { StatusBadge } from '../../components/status-badge';
import { MediaPreview } from '../templates/templates-page';
import { campaignsApi } from './api';
import { VariantForm } from './variant-form';

/** A variant's weight, changed in place: the Save button shows once the number differs. */
function WeightCell({
  variant,
  disabled,
  onSave,
}: {
  variant: CampaignTemplateDto;
  disabled: boolean;
  onSave(w: string): Promise<void>;
}) {
  const [value, setValue] = useState(String(variant.weight));
  const [saving, setSaving] = useState(false);
  const changed = value !== String(variant.weight);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      await onSave(value);
    } finally {
      setSaving(false);
    }
  };
  if (disabled) return <span>{variant.weight}</span>;
  return (
    <form onSubmit={save} className="flex items-center gap-2">
      <div className="w-20 shrink-0">
        <input
          aria-label={`Weight of variant #${variant.id}`}
          name="weight"
          inputMode="numeric"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className={inputClass}
        />
      </div>
      {changed && (
        <Button type="submit" size="sm" variant="outline" disabled={saving}>
          {saving ? '...' : 'Save'}
        </Button>
      )}
    </form>
  );
}

/**
 * The campaign's message variants, oldest first: media, caption, weight (changed in place), status
 * and approval. Admins and devs approve a client's variant; whoever manages the campaign pauses,
 * resumes or deletes a variant and adds new ones until the campaign is finished.
 */
export function CampaignVariantsCard({
  campaign,
  variants,
  operator,
  onChanged,
}: {
  campaign: CampaignDto;
  variants: CampaignTemplateDto[] | null;
  operator: boolean;
  onChanged(): void;
}) {
  const narrow = useNarrowScreen();
  const [busy, setBusy] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const finished = campaign.status === 'finished';

  const act = async (v: CampaignTemplateDto, call: () => Promise<unknown>) => {
    setError(null);
    setBusy(v.id);
    try {
      await call();
      onChanged();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  };
  const setWeight = (v: CampaignTemplateDto, weight: string) =>
    act(v, () => campaignsApi.updateVariant(campaign.id, v.id, { weight }));
  const remove = (v: CampaignTemplateDto) =>
    setConfirmation({
      title: 'Apakah Anda yakin ?',
      text: `Variant #${v.id} and its media will be deleted.`,
      confirm: 'Delete',
      cancel: 'Batal',
      danger: true,
      onConfirm: () => void act(v, () => campaignsApi.removeVariant(campaign.id, v.id)),
    });

  const columns: Column<CampaignTemplateDto>[] = [
    { header: 'Variant', card: 'title', cell: (v) => <span className="font-medium">#{v.id}</span> },
    { header: 'Media', cell: (v) => <MediaPreview url={v.media} /> },
    {
      header: 'Caption',
      card: 'wide',
      className: 'max-w-md',
      cell: (v) => (
        <p className="line-clamp-3 break-words whitespace-pre-line text-gray-700 dark:text-gray-300">
          {v.text_wa || '-'}
        </p>
      ),
    },
    {
      header: 'Weight',
      cell: (v) => <WeightCell variant={v} disabled={finished} onSave={(w) => setWeight(v, w)} />,
    },
    { header: 'Status', cell: (v) => <StatusBadge status={v.status} /> },
    {
      header: 'Approval',
      card: 'title',
      cell: (v) =>
        v.approved ? <Badge tone="success">Approved</Badge> : <Badge tone="warning">Awaiting approval</Badge>,
    },
    {
      header: 'Action',
      card: 'actions',
      cell: (v) =>
        finished ? (
          '-'
        ) : (
          <div className="flex flex-wrap gap-2">
            {operator && !v.approved && (
              <Button
                size="sm"
                disabled={busy === v.id}
                onClick={() => void act(v, () => campaignsApi.approveVariant(campaign.id, v.id))}
              >
                Approve
              </Button>
            )}
            <Button
              size="sm"
              variant="outline"
              disabled={busy === v.id}
              onClick={() =>
                void act(v, () =>
                  campaignsApi.updateVariant(campaign.id, v.id, {
                    status: v.status === 'active' ? 'nonactive' : 'active',
                  }),
                )
              }
            >
              {v.status === 'active' ? 'Pause' : 'Activate'}
            </Button>
            <Button size="sm" variant="danger" disabled={busy === v.id} onClick={() => remove(v)}>
              Delete
            </Button>
          </div>
        ),
    },
  ];

  const rows = variants ?? [];
  const waiting = rows.filter((v) => !v.approved).length;
  return (
    <section aria-label="Variants" className="mb-6 min-w-0">
      <Card>
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="text-lg font-semibold text-gray-800 dark:text-white/90">Variants</h3>
          {waiting > 0 && (
            <span className="text-sm text-yellow-700 dark:text-yellow-400">
              {waiting} awaiting approval: only approved, active variants are sent.
            </span>
          )}
        </div>
        {error && (
          <div className="mb-4">
            <Alert tone="error">{error}</Alert>
          </div>
        )}
        <div data-testid="variants">
          {narrow ? (
            <CardList columns={columns} rows={rows} rowKey={(v) => v.id} loading={variants === null} />
          ) : (
            <DataTable columns={columns} rows={rows} rowKey={(v) => v.id} loading={variants === null} />
          )}
        </div>
        {!finished && (
          <div className="mt-6 border-t border-gray-100 pt-6 dark:border-white/[0.05]">
            <VariantForm campaignId={campaign.id} onSaved={onChanged} />
          </div>
        )}
        <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
      </Card>
    </section>
  );
}
