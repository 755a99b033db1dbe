import type { HealthResponse } from '@wa/shared';
import { useEffect, useState } from 'react';
import { healthApi } from './api';
import { healthProblems } from './health-text';

/** How often an admin's or dev's dashboard asks GET /api/health. */
export const HEALTH_POLL_MS = 15_000;

/**
 * The latest health report, asked on mount, every HEALTH_POLL_MS while the tab is visible, and at
 * once when it becomes visible again: undefined until the first answer, null when there was none.
 */
function useHealthReport(): HealthResponse | null | undefined {
  const [report, setReport] = useState<HealthResponse | null | undefined>(undefined);
  useEffect(() => {
    let alive = true;
    let asking = false;
    const ask = async () => {
      // one request at a time: a check that hangs must not stack up behind the timer
      if (asking || document.hidden) return;
      asking = true;
      try {
        const h = await healthApi.get().catch(() => null);
        if (alive) setReport(h);
      } finally {
        asking = false;
      }
    };
    void ask();
    const timer = setInterval(() => void ask(), HEALTH_POLL_MS);
    const onVisible = () => void ask();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      alive = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
  return report;
}

const TONE = {
  degraded:
    'border-yellow-500 bg-yellow-50 text-yellow-800 dark:border-yellow-500/30 dark:bg-yellow-500/15 dark:text-yellow-400',
  down: 'border-red-500 bg-red-50 text-red-700 dark:border-red-500/30 dark:bg-red-500/15 dark:text-red-400',
};

/**
 * Admins and devs see what GET /api/health finds wrong (a database or Redis that does not answer,
 * no worker, blasts without a running loop), so a stopped blast is not discovered by a member's
 * complaint; it disappears with the next report that is ok.
 */
export function HealthBanner() {
  const report = useHealthReport();
  if (report === undefined) return null;
  const lines = healthProblems(report);
  if (!lines.length) return null;
  const tone = report === null || report.status === 'down' ? TONE.down : TONE.degraded;
  return (
    <div role="status" data-testid="health-banner" className={`mb-4 rounded-xl border p-4 text-sm ${tone}`}>
      <p className="font-medium">Sistem terganggu:</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}
