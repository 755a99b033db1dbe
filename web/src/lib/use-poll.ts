import { useEffect, useRef } from 'react';

/**
 * Calls `tick` every `ms` while the tab is visible, and at once when it becomes visible again: a
 * screen without live events of its own keeps its figures fresh this way. `tick` may change
 * between renders; the latest one is called.
 */
export function usePoll(tick: () => void, ms: number, enabled = true): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!enabled) return;
    const run = () => {
      if (!document.hidden) latest.current();
    };
    const timer = setInterval(run, ms);
    document.addEventListener('visibilitychange', run);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', run);
    };
  }, [ms, enabled]);
}
