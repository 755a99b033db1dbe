import {
  humanizeState,
  isProcessError,
  isToolMessage,
  type LiveMessage,
  normalizeRole,
  WHATSAPP_FILTERS,
} from '@wa/shared';
import { Send } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AddLink } from '../../components/add-link';
import { Button } from '../../components/button';
import { type Confirmation, ConfirmDialog, type Notice, NoticeDialog } from '../../components/dialogs';
import { FilterSelect } from '../../components/filter-select';
import { ListTable } from '../../components/list-table';
import { LiveDot } from '../../components/live-dot';
import { PageBreadcrumb } from '../../components/page-breadcrumb';
import { RefreshButton } from '../../components/refresh-button';
import { SearchFields } from '../../components/search-fields';
import { type LiveChange, useLiveList } from '../../lib/use-live-list';
import { useAuth } from '../auth/auth-context';
import { accountActions } from './account-actions';
import { accountColumns } from './account-columns';
import { splitS, whatsappApi } from './api';
import { type AccountRow, isCapped, liveEventPatch, toRow } from './live-rows';

/** How often a list with an account at its daily cap looks for the next day. */
const CAPPED_REFETCH_MS = 10 * 60_000;

/** Live events (§4) name their account by `payload.deviceId`, its client id. */
const clientIdOf = (r: AccountRow) => r.clientid;
function accountChange(message: LiveMessage): LiveChange<AccountRow> | null {
  // a tool's events name the account that runs it; a target number's row change and a process's failure name none
  if (isToolMessage(message) || isProcessError(message) || message.event === 'update_target') return null;
  const patch = liveEventPatch(message);
  return patch && { key: message.payload.deviceId, patch };
}
const searchOf = (s: string) => splitS(s).search ?? '';
const STATUS_OPTIONS = WHATSAPP_FILTERS.map((f) => ({ value: f, label: humanizeState(f) }));

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
  const [params] = useSearchParams();
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
  const list = useLiveList({ fetchPage, toRow, liveKey: clientIdOf, liveChange: accountChange, typedFrom: searchOf });
  const filter = splitS(list.s);
  // account safety: a capped row's Start Blast waits for the next day, whose count of 0 a fetch
  // brings; a page left open looks again every 10 minutes while a row is capped
  const anyCapped = list.rows.some(isCapped);
  const { refresh } = list;
  useEffect(() => {
    if (!anyCapped) return;
    const timer = setInterval(refresh, CAPPED_REFETCH_MS);
    return () => clearInterval(timer);
  }, [anyCapped, refresh]);

  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ notice: Notice; after?: () => void } | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const actions = accountActions({
    patch: list.patch,
    setError,
    setNotice,
    setConfirmation,
    reconnectPage: (row) => navigate(`/whatsapp/create?r=${row.id}`),
    socketClientId: `client-${user?.id}`,
  });

  const chooseStatus = (value: string) => {
    list.search.setTyped('');
    list.setParam('s', value);
  };

  return (
    <>
      <PageBreadcrumb title="Daftar Whatsapp" />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        {role === 'member' && <AddLink to="/whatsapp/create" />}
        {role !== 'staff' && (
          <Link to="/whatsapp/create#blaster">
            <Button size="sm" variant="outline">
              <Send size={16} /> Blaster
            </Button>
          </Link>
        )}
        <RefreshButton syncing={list.syncing} onClick={list.refresh} />
        <LiveDot connected={list.connected} />
      </div>
      <div className="mb-4 flex flex-wrap items-end gap-2">
        <form onSubmit={list.search.submit} className="flex w-full flex-wrap items-center gap-2 sm:w-auto">
          <SearchFields search={list.search} label="Cari Whatsapp" className="min-w-0 flex-1 sm:w-72 sm:flex-none" />
        </form>
        <FilterSelect
          id="wa-status-filter"
          value={filter.status ?? ''}
          options={STATUS_OPTIONS}
          onChange={chooseStatus}
          className="w-full sm:ml-auto sm:w-56"
        />
      </div>
      <ListTable
        list={list}
        columns={accountColumns({ role, memberView, actions })}
        error={error ?? list.error}
        cards
        rowClass={(r) => (r.blastFailed ? 'bg-red-50/60 dark:bg-red-500/5' : '')}
      />
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
