import { formatRupiah, normalizeRole, type WithdrawDto, type WithdrawStatus } from '@wa/shared';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useCallback, useState } from 'react';
import { errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { useListPage } from '../../lib/use-list-page';
import { useAuth } from '../auth/auth-context';
import { withdrawApi } from './api';
import { requestedAt, WithdrawStatusBadge } from './withdraw-status';

/** One transfer detail; absent when the server kept it from this viewer (only admins get them). */
function Detail({ label, value }: { label: string; value?: string | null }) {
  return (
    <div>
      <dt className="text-xs text-gray-500 dark:text-gray-400">{label}</dt>
      <dd className="font-medium break-all text-gray-800 dark:text-white/90">{value || '-'}</dd>
    </div>
  );
}

/**
 * /withdraw/requested 'Permintaan Withdraw' (§2; dev, admin, staff): every request, newest first.
 * Only an admin gets Terima / Tolak / Batalkan and the transfer details (§2, §4); the server
 * refuses the others' updates too.
 */
export function WithdrawRequestedPage() {
  const { user } = useAuth();
  const admin = normalizeRole(user?.role) === 'admin';
  const fetchPage = useCallback((page: number) => withdrawApi.page(page), []);
  const list = useListPage(fetchPage);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const toggle = (id: number) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const setStatus = async (row: WithdrawDto, status: WithdrawStatus) => {
    setBusy(row.id);
    setMessage(null);
    try {
      const res = await withdrawApi.update(row.id, status);
      list.update(
        (r) => r.id === row.id,
        () => res.withdraw,
      );
      setMessage({ ok: true, text: res.msg });
    } catch (err) {
      setMessage({ ok: false, text: errorText(err) });
    } finally {
      setBusy(null);
    }
  };

  const columns: Column<WithdrawDto>[] = [
    {
      header: 'Member',
      cell: (r) =>
        admin ? (
          <button
            type="button"
            onClick={() => toggle(r.id)}
            aria-expanded={open.has(r.id)}
            aria-label={`Detail transfer ${r.User.firstname} ${r.User.lastname}`}
            className="inline-flex items-center gap-1 font-medium whitespace-nowrap text-gray-800 hover:text-brand-500 dark:text-white/90"
          >
            {open.has(r.id) ? <ChevronDown size={16} /> : <ChevronRight size={16} />}
            {`${r.User.firstname} ${r.User.lastname}`}
          </button>
        ) : (
          <span className="font-medium whitespace-nowrap text-gray-800 dark:text-white/90">{`${r.User.firstname} ${r.User.lastname}`}</span>
        ),
    },
    {
      header: 'Nominal',
      cell: (r) => <span className="font-medium whitespace-nowrap tabular-nums">{formatRupiah(r.nominal)}</span>,
    },
    { header: 'Tanggal', cell: (r) => <span className="whitespace-nowrap">{requestedAt(r.createdAt)}</span> },
    { header: 'Status', cell: (r) => <WithdrawStatusBadge status={r.status} /> },
  ];
  if (admin) {
    columns.push({
      header: 'Action',
      cell: (r) =>
        busy === r.id ? (
          <span className="text-gray-500">Memproses...</span>
        ) : r.status === 'requested' ? (
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={() => setStatus(r, 'accepted')}>
              Terima
            </Button>
            <Button size="sm" variant="danger" onClick={() => setStatus(r, 'rejected')}>
              Tolak
            </Button>
          </div>
        ) : (
          <Button size="sm" variant="outline" onClick={() => setStatus(r, 'requested')}>
            Batalkan
          </Button>
        ),
    });
  }

  return (
    <>
      <PageBreadcrumb title="Permintaan Withdraw" />
      {(message || list.error) && (
        <div className="mb-4">
          {list.error ? (
            <Alert tone="error">{list.error}</Alert>
          ) : (
            message && <Alert tone={message.ok ? 'success' : 'error'}>{message.text}</Alert>
          )}
        </div>
      )}
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.loading}
        expanded={(r) =>
          admin && open.has(r.id) ? (
            <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3" data-testid={`transfer-${r.id}`}>
              <Detail label="Bank" value={r.User.account_bank} />
              <Detail label="Nomor Rekening" value={r.User.account_number} />
              <Detail label="Nama Rekening" value={r.User.account_name} />
            </dl>
          ) : null
        }
      />
      <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
    </>
  );
}
