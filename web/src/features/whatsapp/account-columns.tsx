import { formatRupiah, MAX_SUSPENDED_REACTIVATE, type Role, SAFETY_TEXTS } from '@wa/shared';
import { Check, X } from 'lucide-react';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ClientId } from '../../components/client-id';
import type { Column } from '../../components/data-table';
import { FlashCount } from '../../components/flash-count';
import { RunButton } from '../../components/run-button';
import type { AccountActions } from './account-actions';
import { type AccountRow, canReconnect, isCapped, rowStatusText } from './live-rows';
import { SafetyInfo, ScheduleBlast } from './safety-cell';

function stateTone(row: AccountRow): 'success' | 'warning' | 'error' | 'neutral' | 'brand' {
  if (row.state !== 'reconnecting...' && (row.attempting || row.progressing || row.waiting)) return 'brand';
  switch (row.state) {
    case 'connected':
      return 'success';
    case 'sending':
      return 'brand';
    case 'reconnecting...':
      return 'warning';
    case 'suspended':
    case 'disconnected':
    case 'loggedOut':
    case 'conflict':
      return 'error';
    default:
      return 'neutral';
  }
}

const BLAST_LABELS = { start: 'Start Blast', stop: 'Stop Blast' };
const isSuspended = (r: AccountRow) => r.suspended || r.state === 'suspended';

/** The live state, and 'Activated' for admin and dev while the account may still be reactivated (§4). */
function StatusCell({ row, privileged, actions }: { row: AccountRow; privileged: boolean; actions: AccountActions }) {
  return (
    <div className="flex min-w-32 flex-col items-start gap-1.5">
      <span data-testid="wa-state">
        <Badge tone={stateTone(row)}>{rowStatusText(row)}</Badge>
      </span>
      {isSuspended(row) && privileged && row.suspended_count < MAX_SUSPENDED_REACTIVATE && (
        <Button size="sm" variant="outline" disabled={row.activating} onClick={() => void actions.activate(row)}>
          {row.activating ? 'Activating...' : 'Activated'}
        </Button>
      )}
      <SafetyInfo row={row} privileged={privileged} actions={actions} />
    </div>
  );
}

/** Start/Stop Blast, Reconnect and the hidden Reset; a suspended account shows rule #1 to its member. */
function ActionCell({ row, role, actions }: { row: AccountRow; role: Role | null; actions: AccountActions }) {
  if (isSuspended(row)) {
    return role === 'member' ? (
      <p className="max-w-56 text-xs text-red-600 dark:text-red-400">
        Aturan #1 Jangan hapus pesan terkirim. Silahkan hubungi Admin/CS
      </p>
    ) : (
      <span className="text-gray-400">-</span>
    );
  }
  const sending = row.status === 'sending';
  return (
    <div className="flex flex-wrap items-center gap-2">
      <RunButton
        running={sending}
        requesting={row.requesting}
        labels={BLAST_LABELS}
        className={row.blastFailed ? 'ring-2 ring-red-400' : ''}
        // account safety: the day's messages are sent; a start for later may still be scheduled
        blocked={isCapped(row) ? SAFETY_TEXTS.dailyCap : null}
        onClick={(action) => actions.blast(row, action)}
      />
      {!sending && !row.requesting && <ScheduleBlast row={row} actions={actions} />}
      {canReconnect(row) && (
        <Button size="sm" variant="outline" onClick={() => actions.reconnect(row)}>
          Reconnect
        </Button>
      )}
      {/* §4: the reset action exists but is hidden in the markup */}
      <button type="button" hidden onClick={() => actions.reset(row)} className="text-sm text-red-500 hover:underline">
        Reset
      </button>
      {row.resetting && <span className="text-sm text-gray-500">Reseting..</span>}
    </div>
  );
}

/**
 * The columns of 'Daftar Whatsapp' (§2): the member's name on /member/whatsapp, the client id as a
 * monitor link for dev, and for admin a Sending mark where the others have the row actions. The
 * phone's cards (below 768 px) are made of the same columns: the account on top, the actions at the foot.
 */
export function accountColumns({
  role,
  memberView,
  actions,
}: {
  role: Role | null;
  memberView: boolean;
  actions: AccountActions;
}): Column<AccountRow>[] {
  const privileged = role === 'admin' || role === 'dev';
  return [
    {
      header: 'Akun',
      card: 'title',
      cell: (r) => (
        <div className="min-w-36">
          <p className="font-medium text-gray-800 dark:text-white/90">{r.pushname || '-'}</p>
          <p className="text-xs text-gray-500 dark:text-gray-400" data-testid="wa-number">
            {r.phonenumber || '-'}
          </p>
          {memberView && r.User && (
            <p className="text-xs text-gray-400 dark:text-gray-500">{`${r.User.firstname} ${r.User.lastname}`}</p>
          )}
        </div>
      ),
    },
    { header: 'Client ID', card: 'wide', cell: (r) => <ClientId clientid={r.clientid} monitor={role === 'dev'} /> },
    {
      header: 'Berhasil',
      cell: (r) => <FlashCount value={r.count_success} flash={r.successUpdated} tone="success" testId="wa-success" />,
    },
    {
      header: 'Gagal',
      cell: (r) => <FlashCount value={r.count_fail} flash={r.failUpdated} tone="fail" testId="wa-fail" />,
    },
    { header: 'Total Pendapatan', cell: (r) => <span className="whitespace-nowrap">{formatRupiah(r.income)}</span> },
    { header: 'Status', card: 'wide', cell: (r) => <StatusCell row={r} privileged={privileged} actions={actions} /> },
    role === 'admin'
      ? {
          header: 'Sending',
          cell: (r) =>
            r.status === 'sending' ? (
              <Check size={18} className="text-green-500" aria-label="Sending" />
            ) : (
              <X size={18} className="text-red-500" aria-label="Not sending" />
            ),
        }
      : { header: 'Action', card: 'actions', cell: (r) => <ActionCell row={r} role={role} actions={actions} /> },
  ];
}
