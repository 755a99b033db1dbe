import type { CampaignDto, CampaignStatus } from '@wa/shared';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type Confirmation, ConfirmDialog } from '../../components/dialogs';
import { Card } from '../../components/page-breadcrumb';
import { campaignsApi } from './api';
import { CampaignStatusBadge, stopReasonText } from './campaign-status';
import { deletable, type Move, movesFor, when } from './campaign-ui';

/**
 * The campaign's head: its name, status and why it stopped, its client (for admins and devs), and
 * the moves the viewer may make as buttons: submit, back to draft, approve (admin and dev), pause,
 * resume, finish, and delete while draft or pending. Finish and delete ask first.
 */
export function CampaignHeader({
  campaign: c,
  operator,
  onChanged,
}: {
  campaign: CampaignDto;
  operator: boolean;
  onChanged(c: CampaignDto): void;
}) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState<CampaignStatus | 'delete' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);

  const run = async (what: CampaignStatus | 'delete', call: () => Promise<void>) => {
    setError(null);
    setBusy(what);
    try {
      await call();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(null);
    }
  };
  const move = (m: Move) => {
    const go = () => void run(m.to, async () => onChanged((await campaignsApi.move(c.id, m.to)).data));
    if (!m.confirm) return go();
    setConfirmation({
      title: 'Apakah Anda yakin ?',
      text: m.confirm,
      confirm: m.label,
      cancel: 'Batal',
      danger: true,
      onConfirm: go,
    });
  };
  const remove = () =>
    setConfirmation({
      title: 'Apakah Anda yakin ?',
      text: `The campaign "${c.name}", its targets and its variants will be deleted.`,
      confirm: 'Delete',
      cancel: 'Batal',
      danger: true,
      onConfirm: () =>
        void run('delete', async () => {
          await campaignsApi.remove(c.id);
          navigate('/campaigns');
        }),
    });

  const stopped = stopReasonText(c);
  return (
    <Card className="mb-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 space-y-2">
          <div className="flex flex-wrap items-center gap-3">
            <h3
              className="text-lg font-semibold break-words text-gray-800 dark:text-white/90"
              data-testid="campaign-name"
            >
              {c.name}
            </h3>
            <span data-testid="campaign-status">
              <CampaignStatusBadge status={c.status} />
            </span>
          </div>
          <p className="text-sm text-gray-500 dark:text-gray-400">
            {operator && <>Client: {c.client_name || `#${c.client_id}`} · </>}
            Created {when(c.created_at)}
          </p>
          {c.status === 'pending' && !operator && (
            <p className="text-sm text-yellow-700 dark:text-yellow-400">
              Submitted: an admin reviews it and its variants before it sends.
            </p>
          )}
          {stopped && (
            <p className="text-sm text-gray-700 dark:text-gray-300" data-testid="stop-reason">
              {stopped}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2" data-testid="campaign-moves">
          {movesFor(c.status, operator).map((m) => (
            <Button key={m.to} size="sm" variant={m.tone} disabled={busy !== null} onClick={() => move(m)}>
              {busy === m.to ? 'Saving...' : m.label}
            </Button>
          ))}
          {deletable(c.status) && (
            <Button size="sm" variant="outline" disabled={busy !== null} onClick={remove}>
              <Trash2 size={16} /> {busy === 'delete' ? 'Deleting...' : 'Delete'}
            </Button>
          )}
        </div>
      </div>
      {error && (
        <div className="mt-4">
          <Alert tone="error">{error}</Alert>
        </div>
      )}
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </Card>
  );
}
