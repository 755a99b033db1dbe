import type { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { ALREADY_SENDING, startRefusal } from '@wa/core/accounts/blast-rules';
import type { Actor } from '@wa/core/actor';
import { AppError, badRequest, conflict, notFound } from '@wa/core/errors';
import { pageMeta, pageWindow } from '@wa/core/paging';
import { type Ability, assertCan, canForAnyone } from '@wa/core/policy';
import type { EventBus } from '@wa/core/realtime/bus';
import { monitorAccount, withMonitor } from '@wa/core/realtime/monitor-fields';
import { publishToOwnerAndAdmins } from '@wa/core/realtime/publish';
import { callDevice, NoHolderError } from '@wa/core/realtime/rpc';
import { NO_WEBHOOKS, type WebhookEmitter } from '@wa/core/webhooks/webhooks';
import {
  ALL_USERS,
  type accountIdBody,
  BLAST_TEXTS,
  type blastBody,
  type CounterUser,
  type intervalBody,
  type LiveEvent,
  type LiveEventMap,
  MAX_SUSPENDED_REACTIVATE,
  PAGE_SIZE,
  SAFETY_TEXTS,
  type statusBody,
  type WhatsappDto,
  type WhatsappState,
} from '@wa/shared';
import type { z } from 'zod';
import type { ListFilter, WhatsappRepo } from './whatsapp.repo';
import { HOLDER_TIMEOUT_MS, replyError } from './whatsapp-holder';

export type AccountIdInput = z.output<typeof accountIdBody>;
export type IntervalInput = z.output<typeof intervalBody>;
export type StatusInput = z.output<typeof statusBody>;
export type BlastInput = z.output<typeof blastBody>;

/** What the account rules read of the tables (WhatsappRepo; in memory in the unit tests). */
export type WhatsappStore = Pick<
  WhatsappRepo,
  | 'byId'
  | 'byClientId'
  | 'list'
  | 'page'
  | 'counts'
  | 'unsentReceivers'
  | 'hasActiveTemplate'
  | 'hasTargetLeft'
  | 'latestMessage'
>;

/** The state changes of an account (AccountsRepo; in memory in the unit tests). */
export type AccountSwitches = Pick<
  AccountsRepo,
  | 'resetCounts'
  | 'setInterval'
  | 'setRunStatus'
  | 'liftSuspension'
  | 'liftPause'
  | 'expireLease'
  | 'startSending'
  | 'stopSending'
>;

/**
 * The rules of saved WhatsApp accounts (§2 WhatsApp accounts, §4, §7 WhatsApp): reading them,
 * their counts and interval, suspension, reconnect and blasting. Their state changes go through
 * AccountsRepo; connecting one is WhatsappLogins', one-off sends OneOffSends'.
 */
export class WhatsappService {
  constructor(
    private readonly repo: WhatsappStore,
    private readonly accounts: AccountSwitches,
    private readonly bus: EventBus,
    private readonly webhooks: WebhookEmitter = NO_WEBHOOKS,
  ) {}

  /** What a webhook says of the account an event is about. */
  private static ref(acc: WhatsappDto) {
    return { user_id: acc.userId, account_id: acc.id, device_id: acc.clientid, phone: acc.phonenumber ?? null };
  }

  /** The account, when the actor may see it (its owner, or admin and dev). */
  async get(actor: Actor, id: number): Promise<WhatsappDto> {
    return this.account(actor, 'account.read', id);
  }

  /** The account when the actor may do `ability` to it: 404 when there is none, 403 when it is not theirs. */
  private async account(actor: Actor, ability: Ability, id: number): Promise<WhatsappDto> {
    assertCan(actor, ability);
    const acc = await this.repo.byId(id);
    if (!acc) throw notFound('WhatsApp account not found.');
    assertCan(actor, ability, { userId: acc.userId });
    return acc;
  }

  /** Tells the account's owner and the admins, with the realtime monitor's fields (§3). */
  private broadcast<E extends LiveEvent>(acc: WhatsappDto, event: E, payload: LiveEventMap[E]): Promise<void> {
    return publishToOwnerAndAdmins(this.bus, acc.userId, event, withMonitor(monitorAccount(acc), event, payload));
  }

  async listForUser(actor: Actor, userId: number, synced: boolean): Promise<{ list: WhatsappDto[] }> {
    assertCan(actor, 'account.read', { userId });
    return { list: await this.repo.list({ userId, synced }) };
  }

  async listAll(actor: Actor): Promise<{ list: WhatsappDto[] }> {
    assertCan(actor, 'account.list-all');
    return { list: await this.repo.list({}) };
  }

  /** GET count/{userId}: a user's own accounts; admin and dev anyone's, or everyone's with `all`. */
  async count(actor: Actor, userId: CounterUser) {
    // everyone's (`all`) is nobody's own: only those who read anyone's accounts
    assertCan(actor, 'account.read', { userId: userId === ALL_USERS ? null : userId });
    return this.repo.counts(userId === ALL_USERS ? null : userId);
  }

  /** list-per-page: members see their own accounts only; admin and dev may filter by user. */
  async listPerPage(
    actor: Actor,
    q: { page: number; user_id?: number; synced?: boolean; search?: string; status?: string },
  ) {
    assertCan(actor, 'account.read');
    const filter: ListFilter = { search: q.search, status: q.status, synced: q.synced };
    if (!canForAnyone(actor, 'account.read')) filter.userId = actor.id;
    else if (q.user_id !== undefined) filter.userId = q.user_id;
    const { limit, offset } = pageWindow(q.page, PAGE_SIZE);
    const { total, data } = await this.repo.page(filter, limit, offset);
    return { data, meta: pageMeta(q.page, total, PAGE_SIZE) };
  }

  /** POST reset: the account's success and fail counts and income start again (total income stays in the log). */
  async reset(actor: Actor, { id }: AccountIdInput): Promise<{ data: WhatsappDto }> {
    await this.account(actor, 'account.edit', id);
    const acc = await this.accounts.resetCounts(id);
    if (!acc) throw notFound('WhatsApp account not found.');
    await this.broadcast(acc, 'reset', {
      deviceId: acc.clientid,
      state: acc.state,
      count_success: 0,
      count_fail: 0,
      income: 0,
    });
    return { data: acc };
  }

  /** PUT interval. */
  async setInterval(actor: Actor, { id, interval }: IntervalInput): Promise<{ data: WhatsappDto }> {
    await this.account(actor, 'account.edit', id);
    const acc = await this.accounts.setInterval(id, interval);
    if (!acc) throw notFound('WhatsApp account not found.');
    return { data: acc };
  }

  /**
   * PUT status (admin and dev): sets the run status by hand. A switch that starts a blast or ends a
   * running one tells the webhooks, as a start or a stop through the API does.
   */
  async setStatus(actor: Actor, { id, status }: StatusInput): Promise<{ data: WhatsappDto }> {
    assertCan(actor, 'account.status');
    const before = await this.repo.byId(id);
    if (!before) throw notFound('WhatsApp account not found.');
    // idle through the guarded switch: of this and the loop's own end, only the one that flips it is told
    const ended = status === 'idle' ? await this.accounts.stopSending(id) : null;
    const acc = ended ?? (await this.accounts.setRunStatus(id, status));
    if (!acc) throw notFound('WhatsApp account not found.');
    if (ended) {
      const data = { ...WhatsappService.ref(ended), reason: 'stopped' as const, message: BLAST_TEXTS.stopped };
      this.webhooks.emit('blast.finished', ended.userId, data);
    }
    if (status === 'sending' && before.status !== 'sending') {
      this.webhooks.emit('blast.started', acc.userId, { ...WhatsappService.ref(acc), start_at: null });
    }
    if (status === 'sending') await this.broadcast(acc, 'sending', { deviceId: acc.clientid, status });
    else await this.broadcast(acc, 'idle', { deviceId: acc.clientid, status });
    return { data: acc };
  }

  /** POST activate (admin and dev): lifts a suspension while suspended_count is below 3 (§4, §9). */
  async activate(actor: Actor, { id }: AccountIdInput): Promise<{ data: WhatsappDto }> {
    assertCan(actor, 'account.activate');
    const acc = await this.repo.byId(id);
    if (!acc) throw notFound('WhatsApp account not found.');
    if (!acc.suspended && acc.state !== 'suspended') throw badRequest('This account is not suspended.');
    if (acc.suspended_count >= MAX_SUSPENDED_REACTIVATE) {
      throw new AppError(403, `This account was suspended ${acc.suspended_count} times and cannot be activated again.`);
    }
    await this.accounts.liftSuspension(id);
    let state: WhatsappState = 'disconnected';
    let answered = false;
    try {
      const r = await callDevice(this.bus, acc.clientid, 'activate', { privileged: true }, { timeoutMs: 2000 });
      answered = r.ok;
      if (r.ok) state = r.data.state;
    } catch {
      // no worker holds it right now: the sweep restores it and its state follows
    }
    const updated = (await this.repo.byId(id)) ?? acc;
    // a holder that answered told the webhooks itself; with none, the suspension lifted leaves it disconnected
    if (!answered) this.webhooks.emit('account.state', acc.userId, { ...WhatsappService.ref(updated), state });
    await this.broadcast(acc, 'connection.update', {
      deviceId: acc.clientid,
      state,
      suspended_count: acc.suspended_count,
    });
    return { data: { ...updated, state: updated.state } };
  }

  /** POST lift-pause (admin and dev): an account paused after ban signals may blast again. */
  async liftPause(actor: Actor, { id }: AccountIdInput): Promise<{ msg: string; data: WhatsappDto }> {
    assertCan(actor, 'account.lift-pause');
    const acc = await this.repo.byId(id);
    if (!acc) throw notFound('WhatsApp account not found.');
    if (!acc.paused_until) throw badRequest('This account is not paused.');
    const data = (await this.accounts.liftPause(id)) ?? acc;
    await this.broadcast(acc, 'paused', {
      deviceId: acc.clientid,
      paused_until: null,
      pause_reason: null,
      status: 'idle',
    });
    return { msg: SAFETY_TEXTS.pauseLifted, data };
  }

  /** POST reconnect in place (a conflict): the holder rebuilds the client from the stored session. */
  async reconnect(actor: Actor, { id }: AccountIdInput): Promise<{ data: WhatsappDto }> {
    const acc = await this.account(actor, 'account.reconnect', id);
    try {
      await callDevice(this.bus, acc.clientid, 'reconnect', { privileged: true }, { timeoutMs: 2000 });
    } catch (err) {
      if (!(err instanceof NoHolderError)) throw err;
      // nobody holds it: free its lease so a worker's sweep restores it now
      await this.accounts.expireLease(id);
    }
    await this.broadcast(acc, 'reconnecting', { deviceId: acc.clientid, state: 'reconnecting...' });
    return { data: acc };
  }

  /**
   * POST start-blasting (member for their own accounts, dev for any): the account must keep the
   * start rules (START_RULES in blast-rules.ts: not suspended, connected, idle, not paused, below
   * today's cap unless scheduled for later), with no one-off sends pending, an active template and
   * a target left. The row's
   * status becomes 'sending' (the switch the worker's blast loop reads) and its holder starts.
   */
  async startBlasting(actor: Actor, input: BlastInput): Promise<{ msg: string; data: WhatsappDto }> {
    const acc = await this.blastAccount(actor, input);
    const startAt = input.start_at;
    const name = acc.phonenumber ?? acc.clientid;
    const scheduled = startAt && startAt.getTime() > Date.now() ? startAt : null;
    // the account's own rules (blast-rules.ts): suspended, connected, idle, paused, daily cap
    const refusal = startRefusal(acc, name, scheduled !== null);
    if (refusal !== null) throw conflict(refusal);
    // one-off sends of the blaster form pace this account already; a blast waits until they are through
    if ((await this.repo.unsentReceivers(acc.id)) > 0) throw conflict(ALREADY_SENDING);
    if (!(await this.repo.hasActiveTemplate())) throw badRequest(BLAST_TEXTS.noTemplate);
    if (!(await this.repo.hasTargetLeft())) throw badRequest(BLAST_TEXTS.noTargets);
    // one start wins: the switch flips only while the row keeps the start rules (START_GUARD)
    const flipped = await this.accounts.startSending(acc.id, scheduled);
    if (!flipped) throw conflict(ALREADY_SENDING);
    // told before the holder starts, so the event comes before the blast's first message; a scheduled
    // blast is told now, with the time it will start
    const started = { ...WhatsappService.ref(flipped), start_at: scheduled?.toISOString() ?? null };
    this.webhooks.emit('blast.started', flipped.userId, started);
    try {
      const r = await callDevice(
        this.bus,
        acc.clientid,
        'blast',
        { action: 'start', privileged: true },
        {
          timeoutMs: HOLDER_TIMEOUT_MS,
        },
      );
      if (!r.ok) throw replyError(r);
    } catch (err) {
      const undone = await this.accounts.stopSending(acc.id);
      const message =
        err instanceof NoHolderError ? `${name} is disconnected` : err instanceof Error ? err.message : String(err);
      if (undone) {
        this.webhooks.emit('blast.finished', acc.userId, { ...WhatsappService.ref(undone), reason: 'error', message });
      }
      if (err instanceof NoHolderError) throw conflict(message);
      throw err;
    }
    return { msg: BLAST_TEXTS.started, data: flipped };
  }

  /** POST stop-blasting: the switch goes back to idle; the worker ends after the message in flight. */
  async stopBlasting(actor: Actor, input: BlastInput): Promise<{ msg: string; data: WhatsappDto }> {
    const acc = await this.blastAccount(actor, input);
    const ended = await this.accounts.stopSending(acc.id);
    const stopped = ended ?? acc;
    if (ended) {
      const data = { ...WhatsappService.ref(ended), reason: 'stopped' as const, message: BLAST_TEXTS.stopped };
      this.webhooks.emit('blast.finished', ended.userId, data);
    }
    await callDevice(this.bus, acc.clientid, 'blast', { action: 'stop', privileged: true }, { timeoutMs: 2000 }).catch(
      () => {},
    );
    await this.broadcast(acc, 'stop', { deviceId: acc.clientid, status: 'idle' });
    return { msg: BLAST_TEXTS.stopped, data: stopped };
  }

  /** The account a start or stop names: members only their own (§6 `account.blast`; dev any). */
  private async blastAccount(actor: Actor, { whatsappClientId }: BlastInput): Promise<WhatsappDto> {
    assertCan(actor, 'account.blast');
    const acc = await this.repo.byClientId(whatsappClientId);
    if (!acc) throw notFound('WhatsApp account not found.');
    assertCan(actor, 'account.blast', { userId: acc.userId });
    return acc;
  }

  async latestMessage(actor: Actor, id: number) {
    await this.get(actor, id);
    return { message: await this.repo.latestMessage(id) };
  }
}
