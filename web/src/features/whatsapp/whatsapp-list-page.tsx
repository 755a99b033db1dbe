import {
  FLASH_MS,
  formatRupiah,
  humanizeState,
  type LiveMessage,
  MAX_SUSPENDED_REACTIVATE,
  normalizeRole,
  REFRESH_DELAY_MS,
  WHATSAPP_FILTERS,
} from '@wa/shared';
import { Check, Loader2, Plus, Search, Send, X } from 'lucide-react';
import { type FormEvent, useCallback, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { useLiveEvents } from '../../api/use-live-events';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { type Confirmation, ConfirmDialog, type Notice, NoticeDialog } from '../../components/dialogs';
import { inputClass } from '../../components/form-field';
import { LiveDot } from '../../components/live-dot';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { useListPage } from '../../lib/use-list-page';
import { useRowTimers, useWaitingCountdown } from '../../lib/use-row-timers';
import { useAuth } from '../auth/auth-context';
import { splitS, whatsappApi } from './api';
import { type AccountRow, canReconnect, isCutOff, liveEventPatch, rowStatusText, toRow } from './live-rows';

const errorText = (err: unknown, fallback = 'Network error. Please try again.') =>
  err instanceof ApiCallError ? err.message : fallback;

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

/**
 * /whatsapp and /member/whatsapp 'Daftar Whatsapp' (§2 WhatsApp accounts, §4): the accounts with
 * live state and counts, search or status in ?s=, the member in ?id= (admin and dev), and the row
 * actions start/stop blast, reconnect, activate and (hidden) reset.
 */
export function WhatsappListPage() {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const s = params.get('s') ?? '';
  const memberView = pathname.startsWith('/member/');
  const privileged = role === 'admin' || role === 'dev';
  // §6: dev lists without a user filter, other roles pass their own id; /member/whatsapp lists
  // every member's accounts, or one member's with ?id=
  const idParam = Number(params.get('id')) || undefined;
  const userFilter = memberView && privileged ? idParam : role === 'dev' ? undefined : user?.id;

  const fetchPage = useCallback(
    (page: number, q: string) => whatsappApi.page({ page, userId: userFilter, ...splitS(q) }),
    [userFilter],
  );
  const list = useListPage(fetchPage, s);
  // the rows as fetched, then patched by live events; a new fetch replaces them in the same render
  // (an effect would show 'Kosong' for one frame between the fetch and the copy)
  const [local, setLocal] = useState(() => ({ src: list.rows, rows: list.rows.map(toRow) }));
  let rows = local.rows;
  if (local.src !== list.rows) {
    rows = list.rows.map(toRow);
    setLocal({ src: list.rows, rows });
  }
  const setRows = useCallback((update: (rs: AccountRow[]) => AccountRow[]) => {
    setLocal((l) => ({ ...l, rows: update(l.rows) }));
  }, []);

  const filter = splitS(s);
  const [typed, setTyped] = useState(filter.search ?? '');
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ notice: Notice; after?: () => void } | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);

  const patch = useCallback(
    (id: number, p: Partial<AccountRow>) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, ...p } : r))),
    [setRows],
  );

  // live events (§4): each one patches the row of its deviceId; counts flash for 1 s
  const flashTimers = useRowTimers<string>();
  const onLive = useCallback(
    (message: LiveMessage) => {
      const deviceId = message.payload?.deviceId;
      if (typeof deviceId !== 'string') return;
      const p = liveEventPatch(message);
      if (!p) return;
      setRows((rs) => rs.map((r) => (r.clientid === deviceId ? { ...r, ...p } : r)));
      for (const flag of ['successUpdated', 'failUpdated'] as const) {
        if (!p[flag]) continue;
        flashTimers.restart(
          `${deviceId}:${flag}`,
          () => setRows((rs) => rs.map((r) => (r.clientid === deviceId ? { ...r, [flag]: false } : r))),
          FLASH_MS,
        );
      }
    },
    [setRows, flashTimers],
  );
  const live = useLiveEvents(onLive);

  useWaitingCountdown(rows, setRows);

  const setS = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('s', value);
    else next.delete('s');
    next.set('page', '1');
    setParams(next);
  };
  // §2: the search waits 1 s with a spinner, then refetches
  const search = (e: FormEvent) => {
    e.preventDefault();
    setSearching(true);
    setTimeout(() => {
      setS(typed.trim());
      setSearching(false);
    }, REFRESH_DELAY_MS);
  };
  const chooseStatus = (value: string) => {
    setTyped('');
    setS(value);
  };

  const reconnectPage = (row: AccountRow) => navigate(`/whatsapp/create?r=${row.id}`);

  const runBlast = async (row: AccountRow, action: 'start' | 'stop') => {
    setError(null);
    patch(row.id, { requesting: action, blastFailed: false });
    try {
      await whatsappApi.blast(action, {
        whatsappClientId: row.clientid,
        socketClientId: `client-${user?.id}`,
        loop: true,
      });
      // the row keeps 'Starting...'/'Stopping...' until the worker's event arrives (§4)
    } catch (err) {
      patch(row.id, { requesting: null, blastFailed: true });
      setError(`${errorText(err)}! Silahkan coba lagi.`);
    }
  };

  const blast = (row: AccountRow, action: 'start' | 'stop') => {
    if (isCutOff(row.state)) {
      setNotice({
        notice: { tone: 'error', title: 'Forbidden', text: 'Sambungan terputus, silahkan sambungkan ulang!' },
        after: () => reconnectPage(row),
      });
      return;
    }
    if (action === 'stop' && row.status === 'sending') {
      setConfirmation({
        title: 'Sedang mengirim',
        text: `Whatsapp ${row.phonenumber ?? row.clientid} sedang mengirim pesan blaster.`,
        confirm: 'Stop Blast!',
        cancel: 'Tunggu Aja',
        danger: true,
        onConfirm: () => void runBlast(row, 'stop'),
      });
      return;
    }
    void runBlast(row, action);
  };

  const reconnect = (row: AccountRow) => {
    setConfirmation({
      title: 'Warning!',
      text:
        row.state === 'conflict'
          ? `Whatsapp ${row.phonenumber ?? row.clientid} dibuka di tempat lain. Sambungkan ulang di sini?`
          : `Whatsapp ${row.phonenumber ?? row.clientid} harus login ulang dengan QR code atau kode pairing.`,
      confirm: 'Ya, Reonnect.',
      cancel: 'Batal',
      onConfirm: async () => {
        if (row.state !== 'conflict') {
          reconnectPage(row);
          return;
        }
        // §4: a conflict reconnects in place
        setError(null);
        patch(row.id, { state: 'reconnecting...' });
        try {
          await whatsappApi.reconnect(row.id);
        } catch (err) {
          patch(row.id, { state: row.state });
          setError(errorText(err));
        }
      },
    });
  };

  const reset = (row: AccountRow) => {
    setConfirmation({
      title: 'Apakah Anda yakin ?',
      text: 'Jumlah pesan berhasil, gagal dan pendapatan Whatsapp ini akan direset ke 0. Total pendapatan Anda tidak ikut direset.',
      confirm: 'Ya, Reset.',
      cancel: 'Batal',
      danger: true,
      onConfirm: async () => {
        setError(null);
        patch(row.id, { resetting: true });
        try {
          const { data } = await whatsappApi.reset(row.id);
          patch(row.id, {
            resetting: false,
            count_success: data.count_success,
            count_fail: data.count_fail,
            income: data.income,
          });
        } catch (err) {
          patch(row.id, { resetting: false });
          setError(errorText(err));
        }
      },
    });
  };

  const activate = async (row: AccountRow) => {
    setError(null);
    patch(row.id, { activating: true });
    try {
      const { data } = await whatsappApi.activate(row.id);
      patch(row.id, { activating: false, suspended: data.suspended, state: data.state });
    } catch (err) {
      patch(row.id, { activating: false });
      setError(errorText(err));
    }
  };

  const statusCell = (r: AccountRow) => {
    const suspended = r.suspended || r.state === 'suspended';
    return (
      <div className="flex min-w-32 flex-col items-start gap-1.5">
        <span data-testid="wa-state">
          <Badge tone={stateTone(r)}>{rowStatusText(r)}</Badge>
        </span>
        {suspended && privileged && r.suspended_count < MAX_SUSPENDED_REACTIVATE && (
          <Button size="sm" variant="outline" disabled={r.activating} onClick={() => void activate(r)}>
            {r.activating ? 'Activating...' : 'Activated'}
          </Button>
        )}
      </div>
    );
  };

  const actionCell = (r: AccountRow) => {
    if (r.suspended || r.state === 'suspended') {
      return role === 'member' ? (
        <p className="max-w-56 text-xs text-red-600 dark:text-red-400">
          Aturan #1 Jangan hapus pesan terkirim. Silahkan hubungi Admin/CS
        </p>
      ) : (
        <span className="text-gray-400">-</span>
      );
    }
    const sending = r.status === 'sending';
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant={sending ? 'danger' : 'primary'}
          disabled={r.requesting !== null}
          onClick={() => blast(r, sending ? 'stop' : 'start')}
          className={r.blastFailed ? 'ring-2 ring-red-400' : ''}
        >
          {r.requesting === 'start'
            ? 'Starting...'
            : r.requesting === 'stop'
              ? 'Stopping...'
              : sending
                ? 'Stop Blast'
                : 'Start Blast'}
        </Button>
        {canReconnect(r) && (
          <Button size="sm" variant="outline" onClick={() => reconnect(r)}>
            Reconnect
          </Button>
        )}
        {/* §4: the reset action exists but is hidden in the markup */}
        <button type="button" hidden onClick={() => reset(r)} className="text-sm text-red-500 hover:underline">
          Reset
        </button>
        {r.resetting && <span className="text-sm text-gray-500">Reseting..</span>}
      </div>
    );
  };

  const columns: Column<AccountRow>[] = [
    {
      header: 'Akun',
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
    {
      header: 'Client ID',
      cell: (r) =>
        role === 'dev' ? (
          <a
            href={`/monitor/realtime?id=${encodeURIComponent(r.clientid)}`}
            target="_blank"
            rel="noreferrer"
            className="font-mono text-xs whitespace-nowrap text-brand-500 hover:underline"
          >
            {r.clientid}
          </a>
        ) : (
          <span className="font-mono text-xs whitespace-nowrap">{r.clientid}</span>
        ),
    },
    {
      header: 'Berhasil',
      cell: (r) => (
        <span
          data-testid="wa-success"
          className={`rounded px-1.5 py-0.5 transition-colors ${r.successUpdated ? 'bg-green-100 font-semibold text-green-700 dark:bg-green-500/20 dark:text-green-400' : ''}`}
        >
          {r.count_success}
        </span>
      ),
    },
    {
      header: 'Gagal',
      cell: (r) => (
        <span
          data-testid="wa-fail"
          className={`rounded px-1.5 py-0.5 transition-colors ${r.failUpdated ? 'bg-red-100 font-semibold text-red-700 dark:bg-red-500/20 dark:text-red-400' : ''}`}
        >
          {r.count_fail}
        </span>
      ),
    },
    { header: 'Total Pendapatan', cell: (r) => <span className="whitespace-nowrap">{formatRupiah(r.income)}</span> },
    { header: 'Status', cell: statusCell },
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
      : { header: 'Action', cell: actionCell },
  ];

  return (
    <>
      <PageBreadcrumb title="Daftar Whatsapp" />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        {role === 'member' && (
          <Link to="/whatsapp/create">
            <Button size="sm">
              <Plus size={16} /> Tambah
            </Button>
          </Link>
        )}
        {role !== 'staff' && (
          <Link to="/whatsapp/create#blaster">
            <Button size="sm" variant="outline">
              <Send size={16} /> Blaster
            </Button>
          </Link>
        )}
        <RefreshButton syncing={list.syncing} onClick={list.refresh} />
        <LiveDot connected={live.connected} />
      </div>
      <div className="mb-4 flex flex-wrap items-end gap-2">
        <form onSubmit={search} className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <div className="relative min-w-0 flex-1 sm:w-72 sm:flex-none">
            <Search size={18} className="absolute top-1/2 left-3 -translate-y-1/2 text-gray-400" />
            <input
              name="s"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              placeholder="Cari Whatsapp"
              aria-label="Cari Whatsapp"
              className={`${inputClass} pl-10`}
            />
          </div>
          <Button type="submit" size="sm" variant="outline" disabled={searching}>
            {searching ? <Loader2 size={16} className="animate-spin" /> : <Search size={16} />} Cari
          </Button>
        </form>
        <div className="w-full sm:ml-auto sm:w-56">
          <label htmlFor="wa-status-filter" className="sr-only">
            Filter Status
          </label>
          <select
            id="wa-status-filter"
            name="status"
            className={inputClass}
            value={filter.status ?? ''}
            onChange={(e) => chooseStatus(e.target.value)}
          >
            <option value="">Semua</option>
            {WHATSAPP_FILTERS.map((f) => (
              <option key={f} value={f}>
                {humanizeState(f)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {(list.error || error) && (
        <div className="mb-4">
          <Alert tone="error">{error ?? list.error}</Alert>
        </div>
      )}
      <DataTable
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        loading={list.loading}
        rowClass={(r) => (r.blastFailed ? 'bg-red-50/60 dark:bg-red-500/5' : '')}
      />
      <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
      <NoticeDialog
        notice={notice?.notice ?? null}
        onClose={() => {
          const after = notice?.after;
          setNotice(null);
          after?.();
        }}
      />
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </>
  );
}
