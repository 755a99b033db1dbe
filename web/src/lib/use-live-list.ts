import { FLASH_MS, type LiveMessage, type Paged } from '@wa/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useLiveEvents } from '../api/use-live-events';
import { type DelayedSearch, latestParams, useDelayedSearch, withParam } from './use-delayed-search';
import { useListPage } from './use-list-page';

/** The count flags of a live row: a changed count is highlighted for 1 s (§4, §9). */
export interface FlashFlags {
  successUpdated: boolean;
  failUpdated: boolean;
}

/** A row of a live list: an id for the row actions, the flash flags, and maybe a waiting countdown. */
export type LiveRow = { id: number; waiting?: boolean; waitTime?: number } & FlashFlags;

/** What one live event changes: the row it names (by `liveKey`) and the new values. */
export interface LiveChange<R> {
  key: string | number;
  patch: Partial<R>;
}

export interface LiveListOptions<T, R extends LiveRow> {
  /** one page of the list, for ?page= and ?s= */
  fetchPage(page: number, s: string): Promise<Paged<T>>;
  /** the fetched item as a row with its transient flags off; module-level, so it stays the same */
  toRow(dto: T): R;
  /** the key a live event names its row by (an account's device id, a tool's or a number's id) */
  liveKey(row: R): string | number;
  /** what a live event changes, or null when it does not concern this list */
  liveChange(message: LiveMessage): LiveChange<R> | null;
  /** the search box's first text, from ?s= (the WhatsApp list keeps its status filter there too) */
  typedFrom?(s: string): string;
}

export interface LiveList<R> {
  rows: R[];
  page: number;
  totalPages: number;
  total: number;
  loading: boolean;
  syncing: boolean;
  error: string | null;
  setPage(page: number): void;
  /** the refresh/sync button: 1 s 'Menyinkronkan data...', then a refetch */
  refresh(): void;
  /** the realtime socket is open */
  connected: boolean;
  /** ?s= as the fetch reads it */
  s: string;
  /** sets a query parameter; `s` also goes back to page 1 */
  setParam(key: string, value: string): void;
  /** the search box: 1 s with a spinner after submit, then ?s= */
  search: DelayedSearch;
  patch(id: number, patch: Partial<R>): void;
  /** drops a row once the server confirmed its delete */
  removeRow(id: number): void;
  /**
   * Live events applied so far to the row with this key: an answer to a request sent before a
   * later event must not undo what the event said.
   */
  eventsSeen(key: string | number): number;
}

/**
 * A server-paged list whose rows follow the live events (§4): the WhatsApp accounts, the
 * generator and validator runs and the target numbers. Each event patches the row it names; a
 * changed count flashes for 1 s; a 'Waiting (Ns)...' counts down once a second; the search waits
 * 1 s with a spinner (§9). A refetch replaces the rows with fresh ones, transient flags off.
 */
export function useLiveList<T, R extends LiveRow>({
  fetchPage,
  toRow,
  liveKey,
  liveChange,
  typedFrom,
}: LiveListOptions<T, R>): LiveList<R> {
  const [params, setParams] = useSearchParams();
  const s = params.get('s') ?? '';
  // rows are made once per fetch, so a live patch and the next fetch never fight over a copy
  const fetchRows = useCallback(
    async (page: number, search: string): Promise<Paged<R>> => {
      const res = await fetchPage(page, search);
      return { ...res, data: res.data.map(toRow) };
    },
    [fetchPage, toRow],
  );
  const list = useListPage(fetchRows, s);
  const { update, remove } = list;

  const patch = useCallback(
    (id: number, p: Partial<R>) =>
      update(
        (r) => r.id === id,
        (r) => ({ ...r, ...p }),
      ),
    [update],
  );
  const removeRow = useCallback((id: number) => remove((r) => r.id === id), [remove]);

  const timers = useRowTimers();
  const seen = useRef(new Map<string | number, number>());
  const onLive = useCallback(
    (message: LiveMessage) => {
      const change = liveChange(message);
      if (!change) return;
      const { key } = change;
      seen.current.set(key, (seen.current.get(key) ?? 0) + 1);
      const named = (r: R) => liveKey(r) === key;
      update(named, (r) => ({ ...r, ...change.patch }));
      for (const flag of ['successUpdated', 'failUpdated'] as const) {
        if (!change.patch[flag]) continue;
        timers.restart(`${key}:${flag}`, () => update(named, (r) => ({ ...r, [flag]: false })), FLASH_MS);
      }
    },
    [liveChange, liveKey, update, timers],
  );
  const { connected } = useLiveEvents(onLive);

  // §4 waiting: a row's 'Waiting (Ns)...' counts down once a second to 0
  const counting = list.rows.some(isCounting);
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => update(isCounting, (r) => ({ ...r, waitTime: (r.waitTime ?? 0) - 1 })), 1000);
    return () => clearInterval(timer);
  }, [counting, update]);

  const setParam = useCallback(
    (key: string, value: string) => setParams(withParam(latestParams(), key, value, key === 's')),
    [setParams],
  );
  const search = useDelayedSearch(typedFrom ? typedFrom(s) : s, (text) => setParam('s', text));

  return {
    rows: list.rows,
    page: list.page,
    totalPages: list.totalPages,
    total: list.total,
    loading: list.loading,
    syncing: list.syncing,
    error: list.error,
    setPage: list.setPage,
    refresh: list.refresh,
    connected,
    s,
    setParam,
    search,
    patch,
    removeRow,
    eventsSeen: (key) => seen.current.get(key) ?? 0,
  };
}

const isCounting = (r: LiveRow) => Boolean(r.waiting) && (r.waitTime ?? 0) > 0;

/** One timer per key (the count flashes), each restart replacing the pending one; all cleared on unmount. */
function useRowTimers() {
  const [state] = useState(() => {
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const restart = (key: string, fn: () => void, ms: number) => {
      clearTimeout(timers.get(key));
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          fn();
        }, ms),
      );
    };
    return { timers, api: { restart } };
  });
  useEffect(() => {
    const { timers } = state;
    return () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    };
  }, [state]);
  return state.api;
}
