import type { Logger } from '../logger';
import type { EventBus } from './bus';
import { publishToAdmins } from './publish';

/** At most one told a window: a storm of rejections is one line on the dashboard, all in the log. */
const TELL_EVERY_MS = 10_000;

/**
 * The process's handler of an unhandled rejection (a driver's stray promise, which must not end the
 * process): logged, and told to admins and devs as a live `error` of kind `unhandledRejection`, so
 * the create page shows 'unhandledRejection : …' (§8). Only the message goes out, never a stack,
 * at most once every `everyMs`; the bus may be away (best effort).
 */
export function unhandledRejectionHandler(
  log: Pick<Logger, 'error'>,
  bus: EventBus,
  everyMs = TELL_EVERY_MS,
): (err: unknown) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (err) => {
    log.error({ err }, 'unhandled rejection');
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    publishToAdmins(bus, 'error', { kind: 'unhandledRejection', message }).catch(() => {});
  };
}
