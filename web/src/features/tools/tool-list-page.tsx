import { type LiveMessage, normalizeRole, TOOL_EXPORT } from '@wa/shared';
import { Download, Loader2, Pencil, Play, Search, Square, Trash2 } from 'lucide-react';
import { useCallback, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../api/client';
import { AddLink } from '../../components/add-link';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ClientId } from '../../components/client-id';
import type { Column } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { FlashCount } from '../../components/flash-count';
import { inputClass } from '../../components/form-field';
import { ListTable } from '../../components/list-table';
import { LiveDot } from '../../components/live-dot';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { RunButton } from '../../components/run-button';
import { saveFile } from '../../lib/download';
import { type LiveChange, useLiveList } from '../../lib/use-live-list';
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

const rowId = (r: { id: number }) => r.id;
const TOOL_RUN_LABELS = { start: 'Start', stop: 'Stop' };

function statusTone(row: ToolRow): 'brand' | 'success' | 'error' | 'neutral' {
  if (isRunning(row)) return 'brand';
  if (!row.state) return 'neutral';
  return row.state === 'finished' ? 'success' : 'error';
}

const STATUS_LABELS: Record<(typeof STATUS_FILTERS)[number], string> = { running: 'Running', idle: 'Idle' };
const STATUS_OPTIONS = STATUS_FILTERS.map((f) => ({ value: f, label: STATUS_LABELS[f] }));

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
  // §6: dev lists every tool, admin and staff their own
  const userFilter = role === 'dev' ? undefined : user?.id;

  const fetchPage = useCallback(
    (page: number, search: string) => api.page({ page, userId: userFilter, search: search || undefined }),
    [api, userFilter],
  );
  // live events (§4): each one patches the row of its generatorId / validatorId
  const liveChange = useCallback(
    (message: LiveMessage): LiveChange<ToolRow<T>> | null => {
      const id = toolEventId(message, kind);
      const patch = id === null ? null : toolLivePatch(message, kind);
      return id === null || !patch ? null : { key: id, patch: patch as Partial<ToolRow<T>> };
    },
    [kind],
  );
  const list = useLiveList<T, ToolRow<T>>({ fetchPage, toRow: toToolRow, liveKey: rowId, liveChange });
  // a change to a row of either tool (the generic row type cannot name its fields)
  const patch = (id: number, p: RowPatch) => list.patch(id, p as Partial<ToolRow<T>>);
  const [params] = useSearchParams();
  const statusFilter = params.get('status') ?? '';
  const [error, setError] = useState<string | null>(null);

  const run = async (row: ToolRow<T>, action: 'start' | 'stop') => {
    setError(null);
    patch(row.id, { requesting: action });
    const seq = list.eventsSeen(row.id);
    try {
      const { data } = await api.run(action, row.id);
      // a short run can finish before its answer arrives: then the events already tell the story
      if (list.eventsSeen(row.id) !== seq) patch(row.id, { requesting: null });
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
      list.removeRow(Number(res?.id ?? row.id));
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
        <RunButton
          running={running}
          requesting={r.requesting}
          labels={TOOL_RUN_LABELS}
          icon={running ? <Square size={14} /> : <Play size={14} />}
          onClick={(action) => void run(r, action)}
        />
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
      cell: (r) => (r.Whatsapp ? <ClientId clientid={r.Whatsapp.clientid} monitor={role === 'dev'} /> : '-'),
    },
    {
      header: 'Berhasil',
      cell: (r) => <FlashCount value={r.count_success} flash={r.successUpdated} tone="success" testId="tool-success" />,
    },
    {
      header: 'Gagal',
      cell: (r) => <FlashCount value={r.count_fail} flash={r.failUpdated} tone="fail" testId="tool-fail" />,
    },
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

  const visible = list.rows.filter((r) => matchesStatus(r, statusFilter));

  return (
    <>
      <PageBreadcrumb title={title} />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <AddLink to={`/${kind}/create`} />
        <RefreshButton syncing={list.syncing} onClick={list.refresh} />
        <LiveDot connected={list.connected} />
      </div>
      <div className="mb-4 flex flex-wrap items-end gap-2">
        <form onSubmit={list.search.submit} className="flex min-w-0 flex-1 basis-64 gap-2">
          <label htmlFor={`${kind}-search`} className="sr-only">
            {`Cari ${noun}`}
          </label>
          <input
            id={`${kind}-search`}
            name="search"
            type="search"
            className={inputClass}
            placeholder={`Cari ${noun}`}
            value={list.search.typed}
            onChange={(e) => list.search.setTyped(e.target.value)}
          />
          <Button type="submit" size="sm" variant="outline" disabled={list.search.searching} aria-label="Cari">
            {list.search.searching ? <Loader2 size={16} className="animate-spin" /> : <Search size={16} />}
          </Button>
        </form>
        <FilterSelect
          id={`${kind}-status-filter`}
          value={statusFilter}
          options={STATUS_OPTIONS}
          onChange={(v) => list.setParam('status', v)}
          className="w-full sm:w-48"
        />
      </div>
      <ListTable list={list} columns={columns} error={error ?? list.error} rows={visible} />
    </>
  );
}
