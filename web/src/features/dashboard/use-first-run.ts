import type { FirstRunDto, LiveMessage } from '@wa/shared';
import { useCallback, useEffect, useState } from 'react';
import { useLiveRefresh } from '../../lib/use-live-refresh';
import { dashboardApi } from './api';
import { STEP_EVENTS, STEP_REFRESH_MS } from './refetch-rules';

export interface FirstRun {
  /** the figures; undefined until the first answer, null when it failed (the checklist then hides) */
  data: FirstRunDto | null | undefined;
  /** hand it the page's live messages: a step taken elsewhere ticks a few seconds later */
  onLive(message: LiveMessage): void;
}

/**
 * The first-run checklist's figures (issue 20): asked when the dashboard opens (coming back from a
 * step's screen opens it again) and after live events that may tick a step. Once every step is
 * done it is not asked again until the dashboard is opened anew.
 */
export function useFirstRun(): FirstRun {
  const [data, setData] = useState<FirstRunDto | null | undefined>(undefined);
  const refresh = useCallback(async () => {
    const fresh = await dashboardApi.firstRun().catch(() => null);
    // a failed refresh keeps what was shown; a failed first ask shows nothing (the checklist is a help, not a figure)
    setData((shown) => fresh ?? shown ?? null);
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  const onLiveRefresh = useLiveRefresh(STEP_EVENTS, STEP_REFRESH_MS, () => void refresh());
  const onLive = useCallback(
    (message: LiveMessage) => {
      if (!data?.done) onLiveRefresh(message);
    },
    [data?.done, onLiveRefresh],
  );
  return { data, onLive };
}
