import type { Db } from '@wa/core/db/client';
import type { DependencyMonitor } from '@wa/core/dependencies';
import type { Logger } from '@wa/core/logger';
import type { EventBus } from '@wa/core/realtime/bus';
import { publishToAdmins } from '@wa/core/realtime/publish';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import type { AckKind } from '../drivers/types';
import { type EmitSource, emitFor, hookFor, type SessionReceiptQueue } from './live-session';
import { accountFigures, type Receipt, type ReceiptsResult, recordReceipts } from './receipts.repo';

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

/**
 * What receipts use: the database and its calendar (the day a failure counts on), the bus and the
 * webhooks they tell, the log, and the monitor whose outages they wait out. SessionRegistry builds
 * it once for every session's receipts.
 */
export interface ReceiptPorts {
  db: Db;
  timeZone: string;
  bus: EventBus;
  log: Logger;
  monitor: Pick<DependencyMonitor, 'classify' | 'whenUp'>;
  webhooks: WebhookEmitter;
}

/**
 * The receipts of the messages one session's blast sent (§4 count_synced, update_target), made by
 * the registry with the session and dropped with it: they are queued and settled on their log rows
 * in one statement per batch; when they changed the account's figures the owner's and admins'
 * lists hear `count_synced` (at most once a second per account), and when one changed a target's
 * counts the admins' phone number list hears `update_target`.
 */
export class SessionReceipts implements SessionReceiptQueue {
  private items: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private closed = false;

  /**
   * `session` is the live session itself (its account id is set when its login is saved);
   * `current` says whether it is still the one held for its device (a rebuild replaces it).
   */
  constructor(
    private readonly ports: ReceiptPorts,
    private readonly session: EmitSource,
    private readonly current: () => boolean,
  ) {}

  add(messageId: string, ack: AckKind): void {
    if (this.session.accountId === null || ack === 'server') return;
    this.enqueue({ messageId, ack, attempt: 0 });
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.timer = null;
    this.syncTimer = null;
    this.items = [];
  }

  private enqueue(item: Pending): void {
    if (this.closed) return;
    this.items.push(item);
    if (this.items.length >= BATCH_MAX) return void this.flush();
    this.arm();
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), BATCH_MS);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    const accountId = this.session.accountId;
    if (accountId === null) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const items = this.items;
    this.items = [];
    if (!items.length || !this.current()) return;
    const { db, bus, log, monitor, timeZone } = this.ports;
    try {
      const result = await recordReceipts(db, accountId, items, timeZone);
      for (const item of items) {
        if (result.changed.has(item.messageId)) continue;
        const delay = RETRY_MS[item.attempt];
        if (delay === undefined) continue;
        setTimeout(() => {
          if (this.current()) this.enqueue({ ...item, attempt: item.attempt + 1 });
        }, delay).unref();
      }
      this.tellWebhooks(result.settled);
      for (const receiver of result.receivers) await publishToAdmins(bus, 'update_target', { receiver });
      if (result.changed.size) this.scheduleSync(accountId);
    } catch (err) {
      const dep = await monitor.classify(err);
      if (!dep) {
        log.warn({ err, deviceId: this.session.deviceId, receipts: items.length }, 'receipts not recorded');
        return;
      }
      // an outage: the receipts wait for it to end and are settled then, not dropped
      await monitor.whenUp(() => !this.current());
      if (!this.current()) return;
      this.keep(items);
    }
  }

  /** Puts receipts that could not be written back in front of the batch (bounded by KEEP_MAX). */
  private keep(items: Pending[]): void {
    if (this.closed) return;
    this.items = [...items, ...this.items];
    const over = this.items.length - KEEP_MAX;
    if (over > 0) {
      this.items.splice(0, over);
      this.ports.log.warn(
        { deviceId: this.session.deviceId, dropped: over },
        'too many receipts waiting for the database; oldest dropped',
      );
    }
    this.arm();
  }

  private scheduleSync(accountId: number): void {
    if (this.syncTimer || this.closed) return;
    const { db, bus, log } = this.ports;
    const { deviceId } = this.session;
    this.syncTimer = setTimeout(() => {
      this.syncTimer = null;
      if (!this.current()) return;
      accountFigures(db, accountId)
        .then((figures) => (figures ? emitFor(bus, this.session, 'count_synced', { deviceId, ...figures }) : undefined))
        .catch((err) => log.warn({ err, deviceId }, 'count_synced not sent'));
    }, SYNC_EVERY_MS);
    this.syncTimer.unref();
  }

  /** message.delivered, message.read and message.failed for the messages a batch of receipts changed. */
  private tellWebhooks(settled: ReceiptsResult['settled']): void {
    const { webhooks } = this.ports;
    const at = new Date().toISOString();
    for (const m of settled) {
      const message = { message_id: m.messageId, target: m.target };
      if (m.status === 'failed') {
        hookFor(webhooks, this.session, 'message.failed', {
          ...message,
          target_id: m.targetId,
          error: 'WhatsApp reported the message undeliverable.',
        });
        continue;
      }
      // a read receipt may come first: the message was delivered too
      if (m.was === 'sent') hookFor(webhooks, this.session, 'message.delivered', { ...message, at });
      if (m.status === 'read') hookFor(webhooks, this.session, 'message.read', { ...message, at });
    }
  }
}
