import { FLASH_MS, type LiveMessage, normalizeRole, REFRESH_DELAY_MS, TOOL_EXPORT } from '@wa/shared';
import { Download, Loader2, Pencil, Play, Plus, Search, Square, Trash2 } from 'lucide-react';
import { type FormEvent, useCallback, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiCallError } from '../../api/client';
import { useLiveEvents } from '../../api/use-live-events';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { inputClass } from '../../components/form-field';
import { LiveDot } from '../../components/live-dot';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { saveFile } from '../../lib/download';
import { useListPage } from '../../lib/use-list-page';
import { useRowTimers, useWaitingCountdown } from '../../lib/use-row-timers';
import { useAuth } from '../auth/auth-context';
import type { ToolApi } from './api';
import {
  formatProgress,
  isRunning,
  matchesStatus,
  type RowPatch,
  resultsCsv,
  STATUS_FILTERS,
  type ToolDto,
  type ToolKind,
  type ToolRow,
  toolEventId,
  toolLivePatch,
  toolStatusText,
  toToolRow,
} from './tool-rows';

const errorText = (err: unknown, fallback = 'Network error. Please try again.') =>
  err instanceof ApiCallError ? err.message : fallback;

const FLASH = {
  successUpdated: 'bg-green-100 font-semibold text-green-700 dark:bg-green-500/20 dark:text-green-400',
  failUpdated: 'bg-red-100 font-semibold text-red-700 dark:bg-red-500/20 dark:text-red-400',
};

function statusTone(row: ToolRow): 'brand' | 'success' | 'error' | 'neutral' {
  if (isRunning(row)) return 'brand';
  if (!row.state) return 'neutral';
  return row.state === 'finished' ? 'success' : 'error';
}

const STATUS_LABELS: Record<(typeof STATUS_FILTERS)[number], string> = { running: 'Running', idle: 'Idle' };

export interface ToolListPageProps<T extends ToolDto> {
  kind: ToolKind;
  /** 'Daftar Generator' / 'Daftar Validator' */
  title: string;
  /** 'Generator' / 'Validator', for the search placeholder */
  noun: string;
  api: ToolApi<T>;
  /** the tool's own column after Gagal: Range Nomor or Target File (§2) */
  targetColumn: Column<ToolRow<T>>;
}

/**
 * /generator/list and /validator/list (§2 Generator and validator): the tools with live counts,
 * progress and status, search in ?s=, the status filter in ?status= (applied to the loaded page:
 * the list route has no status parameter), paging in ?page=, and Start/Stop, Download, Delete, Edit.
 */
export function ToolListPage<T extends ToolDto>({ kind, title, noun, api, targetColumn }: ToolListPageProps<T>) {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  const [params, setParams] = useSearchParams();
  const s = params.get('s') ?? '';
  const statusFilter = params.get('status') ?? '';
  // §6: dev lists every tool, admin and staff their own
  const userFilter = role === 'dev' ? undefined : user?.id;

  const fetchPage = useCallback(
    (page: number, search: string) => api.page({ page, userId: userFilter, search: search || undefined }),
    [api, userFilter],
  );
  const list = useListPage<T>(fetchPage, s);
  // the fetched rows, then patched by live events; a new fetch replaces them in the same render
  const [local, setLocal] = useState(() => ({ src: list.rows, rows: list.rows.map(toToolRow) }));
  let rows = local.rows;
  if (local.src !== list.rows) {
    rows = list.rows.map(toToolRow);
    setLocal({ src: list.rows, rows });
  }
  const setRows = useCallback((update: (rs: ToolRow<T>[]) => ToolRow<T>[]) => {
    setLocal((l) => ({ ...l, rows: update(l.rows) }));
  }, []);
  const patch = useCallback(
    (id: number, p: RowPatch) => setRows((rs) => rs.map((r) => (r.id === id ? ({ ...r, ...p } as ToolRow<T>) : r))),
    [setRows],
  );

  const [typed, setTyped] = useState(s);
  const [searching, setSearching] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // live events (§4): each one patches the row of its generatorId / validatorId; counts flash 1 s
  const flashTimers = useRowTimers<string>();
  // live events seen per row: a Start/Stop answer older than an event must not undo it
  const liveSeq = useRef(new Map<number, number>());
  const onLive = useCallback(
    (message: LiveMessage) => {
      const id = toolEventId(message, kind);
      const p = id === null ? null : toolLivePatch(message, kind);
      if (id === null || !p) return;
      liveSeq.current.set(id, (liveSeq.current.get(id) ?? 0) + 1);
      patch(id, p);
      for (const flag of ['successUpdated', 'failUpdated'] as const) {
        if (!p[flag]) continue;
        flashTimers.restart(`${id}:${flag}`, () => patch(id, { [flag]: false }), FLASH_MS);
      }
    },
    [kind, patch, flashTimers],
  );
  const live = useLiveEvents(onLive);

  useWaitingCountdown(rows, setRows);

  const setParam = (key: 's' | 'status', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key === 's') next.set('page', '1');
    setParams(next);
  };
  // §9: the search waits 1 s with a spinner, then refetches
  const search = (e: FormEvent) => {
    e.preventDefault();
    setSearching(true);
    setTimeout(() => {
      setParam('s', typed.trim());
      setSearching(false);
    }, REFRESH_DELAY_MS);
  };

  const run = async (row: ToolRow<T>, action: 'start' | 'stop') => {
    setError(null);
    patch(row.id, { requesting: action });
    const seq = liveSeq.current.get(row.id) ?? 0;
    try {
      const { data } = await api.run(action, row.id);
      // a short run can finish before its answer arrives: then the events already tell the story
      if ((liveSeq.current.get(row.id) ?? 0) !== seq) patch(row.id, { requesting: null });
      else patch(row.id, { ...data, requesting: null, ...(isRunning(data) ? {} : { waiting: false, waitTime: 0 }) });
    } catch (err) {
      patch(row.id, { requesting: null });
      setError(errorText(err));
    }
  };

  const remove = async (row: ToolRow<T>) => {
    setError(null);
    patch(row.id, { deleting: true });
    try {
      const res = await api.remove(row.id);
      const gone = Number(res?.id ?? row.id);
      // only the local rows: the fetched ones would bring back the other rows without their live changes
      setRows((rs) => rs.filter((r) => r.id !== gone));
    } catch (err) {
      patch(row.id, { deleting: false });
      setError(errorText(err));
    }
  };

  const download = async (row: ToolRow<T>) => {
    setError(null);
    patch(row.id, { downloading: true });
    try {
      const csv = resultsCsv(await api.results(row.id));
      if (csv === null) window.alert('No phone numbers to export.');
      else saveFile(kind === 'generator' ? TOOL_EXPORT.generated : TOOL_EXPORT.validated, csv, 'text/csv');
    } catch (err) {
      setError(errorText(err, 'Internal server error'));
    } finally {
      patch(row.id, { downloading: false });
    }
  };

  const actionCell = (r: ToolRow<T>) => {
    if (r.deleting) return <span className="text-sm whitespace-nowrap text-gray-500">Deleting...</span>;
    const running = isRunning(r);
    return (
      <div className="flex min-w-52 flex-wrap items-center gap-2">
        <Button
          size="sm"
          variant={running ? 'danger' : 'primary'}
          disabled={r.requesting !== null}
          onClick={() => void run(r, running ? 'stop' : 'start')}
        >
          {running ? <Square size={14} /> : <Play size={14} />}
          {r.requesting === 'start'
            ? 'Starting...'
            : r.requesting === 'stop'
              ? 'Stopping...'
              : running
                ? 'Stop'
                : 'Start'}
        </Button>
        <Button size="sm" variant="outline" disabled={r.downloading} onClick={() => void download(r)}>
          {r.downloading ? <Loader2 size={14} className="animate-spin" /> : <Download size={14} />}
          Download
        </Button>
        <Link
          to={`/${kind}/create?id=${r.id}`}
          className="inline-flex items-center gap-1 text-sm text-brand-500 hover:underline"
        >
          <Pencil size={14} /> Edit
        </Link>
        <button
          type="button"
          onClick={() => void remove(r)}
          className="inline-flex items-center gap-1 text-sm text-red-500 hover:underline"
        >
          <Trash2 size={14} /> Delete
        </button>
      </div>
    );
  };

  const count = (r: ToolRow<T>, field: 'count_success' | 'count_fail', flag: keyof typeof FLASH, testId: string) => (
    <span data-testid={testId} className={`rounded px-1.5 py-0.5 transition-colors ${r[flag] ? FLASH[flag] : ''}`}>
      {r[field]}
    </span>
  );

  const columns: Column<ToolRow<T>>[] = [
    {
      header: 'Akun',
      cell: (r) => (
        <div className="min-w-32">
          <p className="font-medium text-gray-800 dark:text-white/90">{r.Whatsapp?.pushname || '-'}</p>
          <p className="text-xs text-gray-500 dark:text-gray-400">{r.Whatsapp?.phonenumber || '-'}</p>
        </div>
      ),
    },
    {
      header: 'Client ID',
      cell: (r) =>
        !r.Whatsapp ? (
          '-'
        ) : role === 'dev' ? (
          <a
            href={`/monitor/realtime?id=${encodeURIComponent(r.Whatsapp.clientid)}`}
            target="_blank"
            rel="noreferrer"
            className="font-mono text-xs whitespace-nowrap text-brand-500 hover:underline"
          >
            {r.Whatsapp.clientid}
          </a>
        ) : (
          <span className="font-mono text-xs whitespace-nowrap">{r.Whatsapp.clientid}</span>
        ),
    },
    { header: 'Berhasil', cell: (r) => count(r, 'count_success', 'successUpdated', 'tool-success') },
    { header: 'Gagal', cell: (r) => count(r, 'count_fail', 'failUpdated', 'tool-fail') },
    targetColumn,
    {
      header: 'Progress',
      cell: (r) => (
        <div className="min-w-24">
          <span data-testid="tool-progress" className="font-medium whitespace-nowrap">
            {formatProgress(r.progress)}
          </span>
          <div className="mt-1 h-1.5 w-full overflow-hidden rounded-full bg-gray-100 dark:bg-white/5">
            <div
              className="h-full rounded-full bg-brand-500 transition-[width]"
              style={{ width: `${Math.min(100, Math.max(0, Number(r.progress) || 0))}%` }}
            />
          </div>
        </div>
      ),
    },
    {
      header: 'Status',
      cell: (r) => (
        <span data-testid="tool-status" className="inline-block min-w-32 max-w-56 break-words">
          <Badge tone={statusTone(r)}>{toolStatusText(r, kind)}</Badge>
        </span>
      ),
    },
  ];
  // §6: the Action column is for admin, staff and dev
  if (role === 'admin' || role === 'staff' || role === 'dev') columns.push({ header: 'Action', cell: actionCell });

  const visible = rows.filter((r) => matchesStatus(r, statusFilter));

  return (
    <>
      <PageBreadcrumb title={title} />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <Link to={`/${kind}/create`}>
          <Button size="sm">
            <Plus size={16} /> Tambah
          </Button>
        </Link>
        <RefreshButton syncing={list.syncing} onClick={list.refresh} />
        <LiveDot connected={live.connected} />
      </div>
      <div className="mb-4 flex flex-wrap items-end gap-2">
        <form onSubmit={search} className="flex min-w-0 flex-1 basis-64 gap-2">
          <label htmlFor={`${kind}-search`} className="sr-only">
            {`Cari ${noun}`}
          </label>
          <input
            id={`${kind}-search`}
            name="search"
            type="search"
            className={inputClass}
            placeholder={`Cari ${noun}`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          <Button type="submit" size="sm" variant="outline" disabled={searching} aria-label="Cari">
            {searching ? <Loader2 size={16} className="animate-spin" /> : <Search size={16} />}
          </Button>
        </form>
        <div className="w-full sm:w-48">
          <label htmlFor={`${kind}-status-filter`} className="sr-only">
            Filter Status
          </label>
          <select
            id={`${kind}-status-filter`}
            name="status"
            className={inputClass}
            value={statusFilter}
            onChange={(e) => setParam('status', e.target.value)}
          >
            <option value="">Semua</option>
            {STATUS_FILTERS.map((f) => (
              <option key={f} value={f}>
                {STATUS_LABELS[f]}
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
      <DataTable columns={columns} rows={visible} rowKey={(r) => r.id} loading={list.loading} />
      <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
    </>
  );
}
