import { publishToAdmins } from '@wa/core/realtime/publish';
import type { AckKind } from '../drivers/types';
import type { LiveSession } from './live-session';
import { accountFigures, recordReceipt } from './receipts.repo';
import type { SessionRegistry } from './session-registry';

/**
 * A receipt may overtake the outcome of its own send (the log gets the message id only when the
 * send returns): one that finds no log is tried again this many ms later, then dropped as unknown.
 */
const RETRY_MS = [250, 2000];

/** `count_synced` goes out at most once this often per account, with the figures at that time. */
const SYNC_EVERY_MS = 1000;

const syncTimers = new WeakMap<LiveSession, NodeJS.Timeout>();

/**
 * A receipt of a message a blast sent (§4 count_synced, update_target): settled on its log row;
 * when it changed the account's figures the owner's and admins' lists hear `count_synced` (at most
 * once a second per account), and when it changed a target's counts the admins' phone number list
 * hears `update_target`.
 */
export async function onReceipt(
  reg: SessionRegistry,
  entry: LiveSession,
  messageId: string,
  ack: AckKind,
  attempt = 0,
): Promise<void> {
  const accountId = entry.accountId;
  if (accountId === null) return;
  const result = await recordReceipt(reg.deps.db, accountId, messageId, ack, reg.deps.timeZone);
  if (!result.changed) {
    const delay = RETRY_MS[attempt];
    if (ack !== 'server' && delay !== undefined) {
      const timer = setTimeout(() => {
        if (!reg.isCurrent(entry)) return;
        onReceipt(reg, entry, messageId, ack, attempt + 1).catch((err) =>
          reg.deps.log.warn({ err, deviceId: entry.deviceId }, 'receipt not recorded'),
        );
      }, delay);
      timer.unref();
    }
    return;
  }
  if (result.receiver) await publishToAdmins(reg.deps.bus, 'update_target', { receiver: result.receiver });
  scheduleSync(reg, entry, accountId);
}

function scheduleSync(reg: SessionRegistry, entry: LiveSession, accountId: number): void {
  if (syncTimers.has(entry)) return;
  const timer = setTimeout(() => {
    syncTimers.delete(entry);
    if (!reg.isCurrent(entry)) return;
    accountFigures(reg.deps.db, accountId)
      .then((figures) =>
        figures ? reg.emit(entry, 'count_synced', { deviceId: entry.deviceId, ...figures }) : undefined,
      )
      .catch((err) => reg.deps.log.warn({ err, deviceId: entry.deviceId }, 'count_synced not sent'));
  }, SYNC_EVERY_MS);
  timer.unref();
  syncTimers.set(entry, timer);
}
