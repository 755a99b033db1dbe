import { useEffect, useState } from 'react';

export interface RowTimers<K> {
  /** runs `fn` after `ms`, replacing the row's pending timer */
  restart(key: K, fn: () => void, ms: number): void;
}

/** One timer per row key (the 1 s count flashes), all cleared when the page goes away; stable. */
export function useRowTimers<K>(): RowTimers<K> {
  const [state] = useState(() => {
    const timers = new Map<K, ReturnType<typeof setTimeout>>();
    return {
      timers,
      api: {
        restart(key: K, fn: () => void, ms: number) {
          clearTimeout(timers.get(key));
          timers.set(
            key,
            setTimeout(() => {
              timers.delete(key);
              fn();
            }, ms),
          );
        },
      } satisfies RowTimers<K>,
    };
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

/** §4 waiting: a row's 'Waiting (Ns)...' counts down once a second to 0. */
export function useWaitingCountdown<R extends { waiting: boolean; waitTime: number }>(
  rows: R[],
  setRows: (update: (rs: R[]) => R[]) => void,
) {
  const anyWaiting = rows.some((r) => r.waiting && r.waitTime > 0);
  useEffect(() => {
    if (!anyWaiting) return;
    const timer = setInterval(() => {
      setRows((rs) => rs.map((r) => (r.waiting && r.waitTime > 0 ? { ...r, waitTime: r.waitTime - 1 } : r)));
    }, 1000);
    return () => clearInterval(timer);
  }, [anyWaiting, setRows]);
}
