import { type Paged, REFRESH_DELAY_MS } from '@wa/shared';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorText } from '../api/client';
import { latestParams } from './use-delayed-search';

/**
 * A server-paged list whose page lives in ?page= (§9), or in ?{pageParam}= when a screen pages two
 * lists. `refresh` waits the spec's 1 s while showing the syncing flag, then refetches; `remove`
 * drops a row once the server confirmed it; `update` patches rows in place. `response` is the last
 * answer whole, for lists that carry more than rows (the report's totals).
 */
export function useListPage<R extends Paged<unknown>>(
  fetchPage: (page: number, search: string) => Promise<R>,
  search = '',
  pageParam = 'page',
) {
  type T = R['data'][number];
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get(pageParam)) || 1);
  const [response, setResponse] = useState<R | null>(null);
  const [rows, setRows] = useState<T[]>([]);
  const [totalPages, setTotalPages] = useState(1);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [syncing, setSyncing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: tick asks for a refetch
  useEffect(() => {
    let live = true;
    setLoading(true);
    fetchPage(page, search)
      .then((res) => {
        if (!live) return;
        setResponse(res);
        setRows(res.data);
        setTotalPages(res.meta.totalPages);
        setTotal(res.meta.total);
        setError(null);
      })
      .catch((err) => live && setError(errorText(err, 'Internal server error')))
      .finally(() => {
        if (!live) return;
        setLoading(false);
        setSyncing(false);
      });
    return () => {
      live = false;
    };
  }, [page, search, tick, fetchPage]);

  const setPage = useCallback(
    (p: number) => {
      // the address bar's query, not this render's: a filter changed a moment before stays
      const next = latestParams();
      next.set(pageParam, String(p));
      setParams(next);
    },
    [setParams, pageParam],
  );
  const refresh = useCallback(() => {
    setSyncing(true);
    setTimeout(() => setTick((t) => t + 1), REFRESH_DELAY_MS);
  }, []);
  const remove = useCallback((match: (row: T) => boolean) => {
    setRows((rs) => rs.filter((r) => !match(r)));
    setTotal((t) => Math.max(0, t - 1));
  }, []);

  /** patches the rows that match (live events) */
  const update = useCallback((match: (row: T) => boolean, patch: (row: T) => T) => {
    setRows((rs) => rs.map((r) => (match(r) ? patch(r) : r)));
  }, []);
  return { page, rows, totalPages, total, loading, syncing, error, response, setPage, refresh, remove, update };
}
