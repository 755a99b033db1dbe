import type { LiveEvent } from '@wa/shared';

/**
 * When the dashboard's parts refetch (issue 23): each once, its delay after the first of its live
 * events, however many arrive meanwhile (useLiveRefresh). Plain data, so bench/dashboards.ts plays
 * the same screens from them.
 */

/** The figures (one counters call): after account events that may move them. */
export const MOVING_EVENTS: ReadonlySet<LiveEvent> = new Set([
  'count_success',
  'count_fail',
  // receipts move the income and the counts (issue 11)
  'count_synced',
  'connection.update',
  'authenticated',
  'suspended',
  'reset',
]);
export const LIVE_REFRESH_MS = 3_000;

/** The charts: after sends and receipts, at most this often however busy the accounts are. */
export const CHART_EVENTS: ReadonlySet<LiveEvent> = new Set(['count_success', 'count_fail', 'count_synced']);
export const CHARTS_REFRESH_MS = 5_000;

/** The first-steps checklist (admin and dev): after an account is authenticated or a message sent. */
export const STEP_EVENTS: ReadonlySet<LiveEvent> = new Set(['authenticated', 'count_success']);
export const STEP_REFRESH_MS = 3_000;
