import { formatRupiah, PAGE_SIZE, type Paged, type ReferralItem, USERS } from '@wa/shared';
import { useCallback } from 'react';
import { request } from '../../api/client';
import type { Column } from '../../components/data-table';
import { ListTable } from '../../components/list-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { useListPage } from '../../lib/use-list-page';
import { useAuth } from '../auth/auth-context';

const EMPTY: Paged<ReferralItem> = { data: [], meta: { page: 1, totalPages: 1, total: 0, pageSize: PAGE_SIZE } };

const fetchReferrals = (page: number) =>
  request(USERS.referralPerPage, { query: { page }, fallback: 'Error fetching Referral list' });

const columns: Column<ReferralItem>[] = [
  {
    header: 'First Name',
    cell: (r) => <span className="font-medium text-gray-800 dark:text-white/90">{r.firstname}</span>,
  },
  { header: 'Last Name', cell: (r) => r.lastname },
  { header: 'Email', cell: (r) => <span className="break-all">{r.email}</span> },
  // what this member's sends paid you: not their own income, so not labelled as a member's "Pendapatan"
  { header: 'Pendapatan Referal', cell: (r) => <span className="tabular-nums">{formatRupiah(r.income)}</span> },
];

/**
 * /referral 'Daftar Referal' (§2): the users who signed up with my referral code and what each one
 * has earned me. §2 fetches the list for members only; other roles see the empty table.
 */
export function ReferralPage() {
  const { user } = useAuth();
  const member = user?.role === 'member';
  const fetchPage = useCallback((page: number) => (member ? fetchReferrals(page) : Promise.resolve(EMPTY)), [member]);
  const list = useListPage(fetchPage);
  return (
    <>
      <PageBreadcrumb title="Daftar Referal" />
      <ListTable list={list} columns={columns} error={list.error} />
    </>
  );
}
