import type { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { Db } from '@wa/core/db/client';
import type { Logger } from '@wa/core/logger';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import { type LiveEvent, type LiveEventMap, SAFETY_TEXTS } from '@wa/shared';
import type { DriverEvent } from '../drivers/types';
import type { AccountEventData, AccountWebhookEvent } from './live-session';
import { logIncoming, markRevoked, safetySettings } from './safety.repo';

/** Why a webhook says an account was suspended by rule #1 (the API's texts are the spec's; this one is ours). */
const RULE1_REASON = 'A message the blast sent was deleted for everyone (rule #1).';

/** A session that drops this many times within DROP_WINDOW_MINUTES is paused. */
export const DROP_LIMIT = 3;
export const DROP_WINDOW_MINUTES = 30;

/** What the safety rules need of the session they guard. */
export interface GuardedAccount {
  deviceId: string;
  accountId: number;
  userId: number;
  /** ends the account's blast loop now (its row is idle already) */
  stopBlast(): Promise<void>;
  emit<E extends LiveEvent>(event: E, payload: LiveEventMap[E]): Promise<void>;
  /** tells the webhooks an event about this account */
  webhook<E extends AccountWebhookEvent>(event: E, data: AccountEventData<E>): void;
}

export interface SafetyDeps {
  db: Db;
  accounts: AccountsRepo;
  log: Logger;
  /** APP_TIMEZONE: the ledger's day an opt-out counts on */
  timeZone: string;
  /** tells client-admin (an opted-out target's row: update_target) */
  emitAdmins<E extends LiveEvent>(event: E, payload: LiveEventMap[E]): Promise<void>;
  /** tells a campaign's client of a reply (message.replied): not an account's event */
  webhooks?: WebhookEmitter;
}

/**
 * The account-safety rules that react to what WhatsApp reports (docs/PRODUCT.md "Account
 * safety"): rule #1 suspends an account whose member deleted a blast message for everyone; a
 * target who asks to stop is opted out; ban signals pause the account for settings' pause_hours.
 * The blast's own signals (a failure streak, a rate limit) come through `pause` from the blast.
 */
export class AccountSafety {
  constructor(private readonly deps: SafetyDeps) {}

  /** Rule #1 (§4 Suspension): a revoke of a message the blast sent suspends the account. */
  async onRevoke(account: GuardedAccount, messageId: string): Promise<void> {
    const { db, accounts, log } = this.deps;
    if (!(await markRevoked(db, account.accountId, messageId))) return;
    // the guarded switch decides who tells a blast's end (one blast.finished per run; see pause)
    const ended = await accounts.stopSending(account.accountId);
    const count = await accounts.suspendForRule1(account.accountId);
    if (count === null) return;
    log.warn({ deviceId: account.deviceId, messageId, suspended_count: count }, 'rule #1: a sent message was deleted');
    await account.stopBlast();
    await account.emit('suspended', { deviceId: account.deviceId, suspended_count: count, state: 'suspended' });
    account.webhook('account.state', { state: 'suspended' });
    account.webhook('account.suspended', { kind: 'suspended', suspended_count: count, reason: RULE1_REASON });
    if (ended) account.webhook('blast.finished', { reason: 'suspended', message: RULE1_REASON });
  }

  /**
   * A message to the account: logged, and a stop keyword or stop button opts its sender out; an
   * answer to a campaign's message is recorded as a reply of that campaign.
   */
  async onMessage(account: GuardedAccount, m: Extract<DriverEvent, { type: 'message' }>): Promise<void> {
    const { db, log } = this.deps;
    const { optoutKeywords } = await safetySettings(db);
    const r = await logIncoming(
      db,
      { accountId: account.accountId, from: m.from, text: m.text, buttonId: m.buttonId ?? null },
      optoutKeywords,
      this.deps.timeZone,
    );
    // a reply to a campaign's message is the campaign's: its client hears it, without the account
    if (r.reply) {
      const { clientId, ...reply } = r.reply;
      this.deps.webhooks?.emit('message.replied', clientId, { ...reply, client_id: clientId });
    }
    if (!r.optout) return;
    log.info({ deviceId: account.deviceId, target: r.target?.id ?? null }, 'a target opted out');
    account.webhook('optout', { target: m.from, target_id: r.target?.id ?? null });
    if (r.target) await this.deps.emitAdmins('update_target', { receiver: r.target });
  }

  /** WhatsApp restricted the account (a temporary ban, a terms-of-service block). */
  async onRestricted(account: GuardedAccount, reason: string): Promise<void> {
    await this.pause(account, SAFETY_TEXTS.restricted(reason));
  }

  /** The session dropped: the third drop within 30 minutes pauses the account. */
  async onDrop(account: GuardedAccount): Promise<void> {
    const drops = await this.deps.accounts.countDrop(account.accountId, DROP_WINDOW_MINUTES);
    if (drops >= DROP_LIMIT) await this.pause(account, SAFETY_TEXTS.drops(drops, DROP_WINDOW_MINUTES));
  }

  /** Pauses the account for settings' pause_hours with `reason`: its blast ends and the lists hear it. */
  async pause(account: GuardedAccount, reason: string): Promise<void> {
    const { db, accounts, log } = this.deps;
    const { pauseHours } = await safetySettings(db);
    // the blast ends through the guarded switch first: of this pause, another one (a ban heard while
    // the blast's own send was refused), the loop's own end, a lost session and a stop, only the
    // call that flips it tells the webhooks, so a run has one blast.finished
    const ended = await accounts.stopSending(account.accountId);
    const row = await accounts.pause(account.accountId, pauseHours, reason);
    if (!row) return;
    log.warn({ deviceId: account.deviceId, reason, until: row.paused_until }, 'account paused');
    await account.stopBlast();
    await account.emit('paused', {
      deviceId: account.deviceId,
      paused_until: row.paused_until,
      pause_reason: row.pause_reason,
      status: 'idle',
    });
    account.webhook('account.suspended', { kind: 'paused', paused_until: row.paused_until, reason: row.pause_reason });
    if (ended) account.webhook('blast.finished', { reason: 'paused', message: reason });
  }
}
