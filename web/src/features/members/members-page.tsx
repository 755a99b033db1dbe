import { formatRupiah, USERS, type UserDto } from '@wa/shared';
import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import { request } from '../../api/client';
import { Badge } from '../../components/badge';
import type { Column } from '../../components/data-table';
import { inputClass } from '../../components/form-field';
import { ListTable } from '../../components/list-table';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { SearchFields } from '../../components/search-fields';
import { latestParams, useDelayedSearch, withParam } from '../../lib/use-delayed-search';
import { useListPage } from '../../lib/use-list-page';

const fetchMembers = (page: number, search: string, status: string) =>
  request(USERS.membersPerPage, { query: { page, search, status }, fallback: 'Error fetching user' });

/** 'Filter Status': a member is active while one of their accounts is connected or sending. */
const STATUS_OPTIONS = [
  { value: '', label: 'Semua' },
  { value: 'active', label: 'Aktif' },
  { value: 'inactive', label: 'Tidak Aktif' },
];

/** /member 'Daftar Member' (§2 Members): search in ?s=, status filter in ?status=, page in ?page=. */
export function MembersPage() {
  const [params, setParams] = useSearchParams();
  const s = params.get('s') ?? '';
  const status = params.get('status') ?? '';
  const fetchPage = useCallback((page: number, search: string) => fetchMembers(page, search, status), [status]);
  const list = useListPage(fetchPage, s);
  // built on the address bar's query, not this render's: a filter and a search a moment apart both stay
  const filter = (value: string) => setParams(withParam(latestParams(), 'status', value, true));
  // §2: the search shows a spinner, waits about a second, then refetches
  const search = useDelayedSearch(s, (text) => setParams(withParam(latestParams(), 's', text, true)));

  const columns: Column<UserDto>[] = [
    {
      header: 'Name',
      cell: (r) => (
        <span className="font-medium text-gray-800 dark:text-white/90">{`${r.firstname} ${r.lastname}`}</span>
      ),
    },
    { header: 'Email', cell: (r) => r.email },
    { header: 'Level', cell: (r) => (r.level ? <Badge color={r.color}>{r.level}</Badge> : <Badge>-</Badge>) },
    { header: 'Pendapatan', cell: (r) => formatRupiah(r.income) },
    {
      header: 'Tanggal Mendaftar',
      cell: (r) => (r.createdAt ? new Date(r.createdAt).toLocaleDateString('id-ID') : '-'),
    },
    {
      header: 'Whatsapps',
      cell: (r) => (
        <Link to={`/member/whatsapp?id=${r.id}`} className="text-brand-500 hover:underline">
          {r.whatsapps}
        </Link>
      ),
    },
    {
      header: 'Action',
      cell: (r) => (
        <div className="flex flex-wrap gap-2">
          <Link to={`/member/edit?id=${r.id}`} className="text-brand-500 hover:underline">
            Pengaturan
          </Link>
          <Link to={`/bonus/create?id=${r.id}`} className="text-green-600 hover:underline">
            Beri Bonus
          </Link>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageBreadcrumb title="Daftar Member" />
      <form onSubmit={search.submit} className="mb-4 flex flex-wrap items-center gap-2">
        <SearchFields search={search} label="Cari Member" className="w-full sm:w-80" />
        <select
          aria-label="Filter Status"
          value={status}
          onChange={(e) => filter(e.target.value)}
          className={`${inputClass} w-full sm:ml-auto sm:w-48`}
        >
          {STATUS_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.value ? o.label : `Filter Status: ${o.label}`}
            </option>
          ))}
        </select>
      </form>
      <ListTable list={list} columns={columns} error={list.error} />
    </>
  );
}
