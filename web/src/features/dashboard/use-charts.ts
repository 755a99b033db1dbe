import type { ChartsResponse, LiveMessage } from '@wa/shared';
import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../../api/client';
import { useLiveRefresh } from '../../lib/use-live-refresh';
import { dashboardApi } from './api';
import { CHART_EVENTS, CHARTS_REFRESH_MS } from './refetch-rules';

export interface Charts {
  /** null until the first answer */
  data: ChartsResponse | null;
  error: string | null;
  /** hand it the page's live messages */
  onLive(message: LiveMessage): void;
}

/** The dashboards' charts (GET /admin/report/charts): fetched on open, then again after sends and receipts. */
export function useCharts(): Charts {
  const [data, setData] = useState<ChartsResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setData(await dashboardApi.charts());
      setError(null);
    } catch (err) {
      setError(errorText(err, 'Internal server error'));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  const onLive = useLiveRefresh(CHART_EVENTS, CHARTS_REFRESH_MS, () => void load());
  return { data, error, onLive };
}
