import type { ProxyDto } from '@wa/shared';

/** The texts of the Cek column (the workers' proxy health check). */
export const PROXY_CHECK_TEXTS = {
  header: 'Cek',
  never: 'Belum dicek',
  failed: 'Gagal',
  checkedAt: 'Dicek',
  unknownError: 'Tanpa keterangan',
} as const;

/** How long a failure reason may be under the badge before it is cut (the full text goes in `title`). */
export const CHECK_REASON_MAX = 60;

/** What the Cek cell shows: nothing checked yet (muted), the latency (green), or a failure with its reason (red). */
export type ProxyCheckView =
  | { kind: 'never'; text: string }
  | { kind: 'ok'; text: string; tone: 'success'; title: string }
  | { kind: 'failed'; text: string; tone: 'error'; title: string; reason: string; reasonTitle: string };

/** A check time on a row: the day and the hour in the browser's zone. */
export const checkTime = (iso: string) =>
  new Date(iso).toLocaleString('id-ID', { dateStyle: 'short', timeStyle: 'short' });

/** Cuts a long text to `max` characters with an ellipsis. */
export function truncate(text: string, max = CHECK_REASON_MAX): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * Picks the Cek cell of a proxy: never checked when `checked_at` is null; failed when the last
 * check left an error; else the latency of the last check, with its time as the tooltip.
 */
export function proxyCheckView(
  p: Pick<ProxyDto, 'checked_at' | 'latency_ms' | 'check_error'>,
  formatTime: (iso: string) => string = checkTime,
): ProxyCheckView {
  if (!p.checked_at) return { kind: 'never', text: PROXY_CHECK_TEXTS.never };
  const title = `${PROXY_CHECK_TEXTS.checkedAt} ${formatTime(p.checked_at)}`;
  const error = p.check_error?.trim();
  if (error !== undefined) {
    const full = error || PROXY_CHECK_TEXTS.unknownError;
    return {
      kind: 'failed',
      text: PROXY_CHECK_TEXTS.failed,
      tone: 'error',
      title,
      reason: truncate(full),
      reasonTitle: full,
    };
  }
  const text = p.latency_ms === null ? 'OK' : `${Math.round(p.latency_ms)} ms`;
  return { kind: 'ok', text, tone: 'success', title };
}
