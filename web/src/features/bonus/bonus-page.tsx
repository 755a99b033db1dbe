import { type BonusDto, formatRupiah, normalizeRole } from '@wa/shared';
import { Gift } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorText } from '../../api/client';
import { AddLink } from '../../components/add-link';
import type { Column } from '../../components/data-table';
import { type Confirmation, ConfirmDialog } from '../../components/dialogs';
import { ListTable } from '../../components/list-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { actionColumn } from '../../components/row-actions';
import { StatCard } from '../../components/stat-card';
import { useListPage } from '../../lib/use-list-page';
import { useRowDelete } from '../../lib/use-row-delete';
import { useAuth } from '../auth/auth-context';
import { bonusApi } from './api';

const date = (iso: string) => new Date(iso).toLocaleString('id-ID', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * /bonus (§2 Bonus): admin and dev see every bonus with its member, a 'Kirim Bonus' button and a
 * delete action; a member sees their own bonuses, when each arrived, and the total.
 */
export function BonusPage() {
  const { user } = useAuth();
  const role = normalizeRole(user?.role);
  const gives = role === 'admin' || role === 'dev';
  const list = useListPage(bonusApi.page);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const rowDelete = useRowDelete(bonusApi.remove, (id) => list.remove((r) => r.id === id));
  const userId = user?.id;

  useEffect(() => {
    if (gives || !userId) return;
    bonusApi
      .total(userId)
      .then(setTotal)
      .catch((err) => setError(errorText(err, 'Error fetching Bonus total')));
  }, [gives, userId]);

  const askRemove = (r: BonusDto) =>
    setConfirmation({
      title: 'Apakah Anda yakin ?',
      text: `Bonus ${formatRupiah(r.nominal)} untuk ${r.User.firstname} ${r.User.lastname} akan dihapus.`,
      confirm: 'Ya, Hapus.',
      cancel: 'Batal',
      danger: true,
      onConfirm: () => void rowDelete.remove(r.id),
    });

  const nominal: Column<BonusDto> = {
    header: 'Nominal',
    cell: (r) => (
      <span className="font-medium whitespace-nowrap text-gray-800 tabular-nums dark:text-white/90">
        {formatRupiah(r.nominal)}
      </span>
    ),
  };
  const reason: Column<BonusDto> = {
    header: 'Keterangan',
    cell: (r) => <span className="break-words">{r.reason}</span>,
  };
  const columns: Column<BonusDto>[] = gives
    ? [
        {
          header: 'Member',
          cell: (r) => (
            <span className="font-medium text-gray-800 dark:text-white/90">{`${r.User.firstname} ${r.User.lastname}`}</span>
          ),
        },
        nominal,
        reason,
        { header: 'Tanggal', cell: (r) => <span className="whitespace-nowrap">{date(r.createdAt)}</span> },
        actionColumn(rowDelete, { confirm: askRemove }),
      ]
    : [
        nominal,
        reason,
        { header: 'Diterima Pada', cell: (r) => <span className="whitespace-nowrap">{date(r.createdAt)}</span> },
      ];

  return (
    <>
      <PageBreadcrumb title="Bonus" />
      {gives ? (
        <div className="mb-4">
          <AddLink to="/bonus/create" label="Kirim Bonus" />
        </div>
      ) : (
        <div className="mb-4 sm:max-w-xs">
          <StatCard
            icon={Gift}
            label="Total Bonus"
            value={total === null ? null : formatRupiah(total)}
            tone="success"
            testId="total-bonus"
          />
        </div>
      )}
      <ListTable list={list} columns={columns} error={list.error ?? rowDelete.error ?? error} />
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </>
  );
}
