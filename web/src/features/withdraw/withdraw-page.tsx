import { formatRupiah, MIN_WITHDRAW, WITHDRAW_CODE_NO_BANK, type WithdrawDto, withdrawRequestBody } from '@wa/shared';
import { CircleCheck, Clock, Gift, HandCoins, Wallet } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiCallError, errorText } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import type { Column } from '../../components/data-table';
import { type Notice, NoticeDialog } from '../../components/dialogs';
import { FormField } from '../../components/form-field';
import { ListTable } from '../../components/list-table';
import { Card, PageBreadcrumb } from '../../components/page-breadcrumb';
import { StatCard } from '../../components/stat-card';
import { SuccessDialog } from '../../components/success-dialog';
import { useListPage } from '../../lib/use-list-page';
import { useAuth } from '../auth/auth-context';
import { type WithdrawSummary, withdrawApi } from './api';
import { requestedAt, WithdrawStatusBadge } from './withdraw-status';

const money = (n: number | undefined) => (n === undefined ? null : formatRupiah(n));

const columns: Column<WithdrawDto>[] = [
  { header: 'Tanggal', cell: (r) => <span className="whitespace-nowrap">{requestedAt(r.createdAt)}</span> },
  {
    header: 'Nominal',
    cell: (r) => (
      <span className="font-medium whitespace-nowrap text-gray-800 tabular-nums dark:text-white/90">
        {formatRupiah(r.nominal)}
      </span>
    ),
  },
  { header: 'Status', cell: (r) => <WithdrawStatusBadge status={r.status} /> },
  {
    header: 'Rekening',
    cell: (r) => (
      <span className="text-xs whitespace-nowrap">
        {[r.User.account_bank, r.User.account_number, r.User.account_name].filter(Boolean).join(' · ') || '-'}
      </span>
    ),
  },
];

/**
 * /withdraw (§2 Withdraw; member and dev): the balance summary, the request form (at least, and by
 * default, Rp 10.000) and the user's own requests, newest first.
 */
export function WithdrawPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const userId = user?.id;
  const fetchPage = useCallback((page: number) => withdrawApi.page(page, userId), [userId]);
  const list = useListPage(fetchPage);
  const [summary, setSummary] = useState<WithdrawSummary | null>(null);
  const [summaryTick, setSummaryTick] = useState(0);
  const [nominal, setNominal] = useState(String(MIN_WITHDRAW));
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: summaryTick asks for a refetch after a request
  useEffect(() => {
    if (!userId) return;
    let live = true;
    withdrawApi
      .summary(userId)
      .then((s) => live && setSummary(s))
      .catch((err) => live && setError(errorText(err, 'Error fetching Balance')));
    return () => {
      live = false;
    };
  }, [userId, summaryTick]);

  if (!user) return null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const parsed = withdrawRequestBody.safeParse({ nominal, userId: user.id });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Nominal is required.');
      return;
    }
    setSending(true);
    try {
      const res = await withdrawApi.request(parsed.data);
      setDone(res.msg);
      setNominal(String(MIN_WITHDRAW));
      list.refresh();
      setSummaryTick((t) => t + 1);
    } catch (err) {
      const apiErr = err instanceof ApiCallError ? err : null;
      if (apiErr?.code === WITHDRAW_CODE_NO_BANK) {
        setNotice({ tone: 'error', title: 'Gagal', text: apiErr.message });
      } else setError(apiErr?.message ?? 'Network error. Please try again.');
    } finally {
      setSending(false);
    }
  };
  const bank = [user.account_bank, user.account_number, user.account_name].filter(Boolean).join(' · ');

  return (
    <>
      <PageBreadcrumb title="Withdraw" />
      <div className="space-y-4 md:space-y-6">
        <div className="grid grid-cols-1 gap-4 md:gap-6 xl:grid-cols-5">
          <Card className="xl:col-span-2">
            <div className="mb-5 flex items-center gap-4">
              <div className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-500 dark:bg-brand-500/15 dark:text-brand-400">
                <Wallet size={24} aria-hidden="true" />
              </div>
              <div className="min-w-0">
                <span className="block text-sm text-gray-500 dark:text-gray-400">Sisa Saldo</span>
                <span
                  className="block text-2xl font-bold break-words text-gray-800 tabular-nums dark:text-white/90"
                  data-testid="balance-value"
                >
                  {money(summary?.balance) ?? '…'}
                </span>
              </div>
            </div>
            <form onSubmit={submit} noValidate className="space-y-4" aria-label="Permintaan Withdraw">
              {error && <Alert tone="error">{error}</Alert>}
              <FormField
                label="Nominal (Rp.)"
                name="nominal"
                inputMode="numeric"
                value={nominal}
                onChange={(e) => setNominal(e.target.value)}
                hint={`Minimal ${formatRupiah(MIN_WITHDRAW)}`}
              />
              <p className="text-sm text-gray-500 dark:text-gray-400">
                Rekening tujuan: <span className="text-gray-800 dark:text-white/90">{bank || '-'}</span>{' '}
                <Link to="/profile?edit=1" className="text-brand-500 hover:underline">
                  Ubah
                </Link>
              </p>
              <Button type="submit" disabled={sending} className="w-full sm:w-auto">
                {sending ? 'Mengirim...' : 'Kirim Permintaan'}
              </Button>
            </form>
          </Card>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 md:gap-6 xl:col-span-3" data-testid="withdraw-summary">
            <StatCard
              icon={HandCoins}
              label="Total Pendapatan"
              value={money(summary?.income)}
              tone="success"
              testId="income"
            />
            <StatCard icon={Gift} label="Total Bonus" value={money(summary?.bonus)} tone="success" testId="bonus" />
            <StatCard
              icon={Clock}
              label="Sedang Diproses"
              value={money(summary?.requested)}
              tone="warning"
              testId="requested"
            />
            <StatCard
              icon={CircleCheck}
              label="Sudah Ditransfer"
              value={money(summary?.accepted)}
              tone="neutral"
              testId="accepted"
            />
          </div>
        </div>
        <div>
          <h3 className="mb-3 text-lg font-semibold text-gray-800 dark:text-white/90">Riwayat Withdraw</h3>
          <ListTable list={list} columns={columns} error={list.error} />
        </div>
      </div>
      <SuccessDialog message={done} onOk={() => setDone(null)} />
      <NoticeDialog
        notice={notice}
        onClose={() => {
          setNotice(null);
          navigate('/profile?edit=1');
        }}
      />
    </>
  );
}
