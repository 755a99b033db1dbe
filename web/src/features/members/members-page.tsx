import { formatRupiah, type Paged, type UserDto } from '@wa/shared';
import { Loader2, Search } from 'lucide-react';
import { type FormEvent, useCallback, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { type Column, DataTable, Pagination } from '../../components/data-table';
import { inputClass } from '../../components/form-field';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { useListPage } from '../../lib/use-list-page';

const fetchMembers = (page: number, search: string, status: string) =>
  call<Paged<UserDto>>(
    `/admin/users/members-per-page?page=${page}${search ? `&search=${encodeURIComponent(search)}` : ''}${
      status ? `&status=${status}` : ''
    }`,
    { fallback: 'Error fetching user' },
  );

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
  const [typed, setTyped] = useState(s);
  const [searching, setSearching] = useState(false);
  const status = params.get('status') ?? '';
  const fetchPage = useCallback((page: number, search: string) => fetchMembers(page, search, status), [status]);
  const filter = (value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set('status', value);
    else next.delete('status');
    next.set('page', '1');
    setParams(next);
  };
  const list = useListPage(fetchPage, s);

  // §2: the search shows a spinner, waits about a second, then refetches
  const search = (e: FormEvent) => {
    e.preventDefault();
    setSearching(true);
    setTimeout(() => {
      const next = new URLSearchParams(params);
      if (typed.trim()) next.set('s', typed.trim());
      else next.delete('s');
      next.set('page', '1');
      setParams(next);
      setSearching(false);
    }, 1000);
  };

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
      <form onSubmit={search} className="mb-4 flex flex-wrap items-center gap-2">
        <div className="relative w-full sm:w-80">
          <Search size={18} className="absolute top-1/2 left-3 -translate-y-1/2 text-gray-400" />
          <input
            name="s"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="Cari Member"
            aria-label="Cari Member"
            className={`${inputClass} pl-10`}
          />
        </div>
        <Button type="submit" size="sm" variant="outline" disabled={searching}>
          {searching ? <Loader2 size={16} className="animate-spin" /> : <Search size={16} />} Cari
        </Button>
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
      {list.error && (
        <div className="mb-4">
          <Alert tone="error">{list.error}</Alert>
        </div>
      )}
      <DataTable columns={columns} rows={list.rows} rowKey={(r) => r.id} loading={list.loading} />
      <Pagination page={list.page} totalPages={list.totalPages} onPage={list.setPage} />
    </>
  );
}
