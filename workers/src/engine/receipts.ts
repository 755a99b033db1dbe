import { publishToAdmins } from '@wa/core/realtime/publish';
import type { AckKind } from '../drivers/types';
import { hookFor, type LiveSession } from './live-session';
import { accountFigures, type Receipt, type ReceiptsResult, recordReceipts } from './receipts.repo';
import type { SessionRegistry } from './session-registry';

/**
 * A receipt may overtake the outcome of its own send (the log gets the message id only when the
 * send returns): one that finds no log is tried again this many ms later, then dropped as unknown.
 */
const RETRY_MS = [250, 2000];

/** Receipts wait this long to be settled together, one statement per batch (bench/README.md). */
const BATCH_MS = 1000;
const BATCH_MAX = 500;

/**
 * Receipts a session keeps while the database is away, to settle when it is back; past this the
 * oldest go (WhatsApp's own retries and the undelivered window settle those).
 */
const KEEP_MAX = 50_000;

/** `count_synced` goes out at most once this often per account, with the figures at that time. */
const SYNC_EVERY_MS = 1000;

interface Pending extends Receipt {
  attempt: number;
}

interface Batch {
  items: Pending[];
  timer: NodeJS.Timeout | null;
}

const batches = new WeakMap<LiveSession, Batch>();
const syncTimers = new WeakMap<LiveSession, NodeJS.Timeout>();

/**
 * A receipt of a message a blast sent (§4 count_synced, update_target): queued with the session's
 * other receipts and settled on their log rows in one statement; when they changed the account's
 * figures the owner's and admins' lists hear `count_synced` (at most once a second per account),
 * and when one changed a target's counts the admins' phone number list hears `update_target`.
 */
export function onReceipt(reg: SessionRegistry, entry: LiveSession, messageId: string, ack: AckKind): void {
  if (entry.accountId === null || ack === 'server') return;
  enqueue(reg, entry, { messageId, ack, attempt: 0 });
}

function enqueue(reg: SessionRegistry, entry: LiveSession, item: Pending): void {
  let batch = batches.get(entry);
  if (!batch) {
    batch = { items: [], timer: null };
    batches.set(entry, batch);
  }
  batch.items.push(item);
  if (batch.items.length >= BATCH_MAX) return void flush(reg, entry);
  if (!batch.timer) {
    batch.timer = setTimeout(() => void flush(reg, entry), BATCH_MS);
    batch.timer.unref();
  }
}

async function flush(reg: SessionRegistry, entry: LiveSession): Promise<void> {
  const batch = batches.get(entry);
  const accountId = entry.accountId;
  if (!batch || accountId === null) return;
  if (batch.timer) clearTimeout(batch.timer);
  batch.timer = null;
  const items = batch.items;
  batch.items = [];
  if (!items.length || !reg.isCurrent(entry)) return;
  try {
    const result = await recordReceipts(reg.deps.db, accountId, items, reg.deps.timeZone);
    for (const item of items) {
      if (result.changed.has(item.messageId)) continue;
      const delay = RETRY_MS[item.attempt];
      if (delay === undefined) continue;
      setTimeout(() => {
        if (reg.isCurrent(entry)) enqueue(reg, entry, { ...item, attempt: item.attempt + 1 });
      }, delay).unref();
    }
    tellWebhooks(reg, entry, result.settled);
    for (const receiver of result.receivers) await publishToAdmins(reg.deps.bus, 'update_target', { receiver });
    if (result.changed.size) scheduleSync(reg, entry, accountId);
  } catch (err) {
    const dep = await reg.deps.monitor.classify(err);
    if (!dep) {
      reg.deps.log.warn({ err, deviceId: entry.deviceId, receipts: items.length }, 'receipts not recorded');
      return;
    }
    // an outage: the receipts wait for it to end and are settled then, not dropped
    await reg.deps.monitor.whenUp(() => !reg.isCurrent(entry));
    if (!reg.isCurrent(entry)) return;
    keep(reg, entry, items);
  }
}

/** Puts receipts that could not be written back in front of the session's batch (bounded by KEEP_MAX). */
function keep(reg: SessionRegistry, entry: LiveSession, items: Pending[]): void {
  const batch = batches.get(entry) ?? { items: [], timer: null };
  batches.set(entry, batch);
  batch.items = [...items, ...batch.items];
  const over = batch.items.length - KEEP_MAX;
  if (over > 0) {
    batch.items.splice(0, over);
    reg.deps.log.warn(
      { deviceId: entry.deviceId, dropped: over },
      'too many receipts waiting for the database; oldest dropped',
    );
  }
  if (!batch.timer) {
    batch.timer = setTimeout(() => void flush(reg, entry), BATCH_MS);
    batch.timer.unref();
  }
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

/** message.delivered, message.read and message.failed for the messages a batch of receipts changed. */
function tellWebhooks(reg: SessionRegistry, entry: LiveSession, settled: ReceiptsResult['settled']): void {
  const at = new Date().toISOString();
  for (const m of settled) {
    const message = { message_id: m.messageId, target: m.target };
    if (m.status === 'failed') {
      hookFor(reg.deps.webhooks, entry, 'message.failed', {
        ...message,
        target_id: m.targetId,
        error: 'WhatsApp reported the message undeliverable.',
      });
      continue;
    }
    // a read receipt may come first: the message was delivered too
    if (m.was === 'sent') hookFor(reg.deps.webhooks, entry, 'message.delivered', { ...message, at });
    if (m.status === 'read') hookFor(reg.deps.webhooks, entry, 'message.read', { ...message, at });
  }
}
