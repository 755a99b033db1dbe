import type { LiveEvent, LiveMessage } from '@wa/shared';
import { useCallback, useEffect, useRef } from 'react';

/**
 * A live-message handler that calls `refresh` once, `delayMs` after the first of `events`, however
 * many arrive meanwhile: a burst of sends costs one refetch, and refetches come at most every
 * `delayMs`. Several such handlers can share one socket (useLiveEvents opens one per call).
 */
export function useLiveRefresh(
  events: ReadonlySet<LiveEvent>,
  delayMs: number,
  refresh: () => void,
): (message: LiveMessage) => void {
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(
    () => () => {
      if (pending.current) clearTimeout(pending.current);
      pending.current = null;
    },
    [],
  );
  return useCallback(
    (message: LiveMessage) => {
      if (!events.has(message.event) || pending.current) return;
      pending.current = setTimeout(() => {
        pending.current = null;
        latest.current();
      }, delayMs);
    },
    [events, delayMs],
  );
}
