import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { Actor } from '@wa/core/actor';
import type { Db } from '@wa/core/db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '@wa/core/errors';
import type { JobQueue } from '@wa/core/jobs/queue';
import { pageMeta, pageWindow } from '@wa/core/paging';
import type { EventBus } from '@wa/core/realtime/bus';
import { publishToOwnerAndAdmins } from '@wa/core/realtime/publish';
import { callDevice, NoHolderError } from '@wa/core/realtime/rpc';
import { parse } from '@wa/core/validate';
import {
  ALL_USERS,
  accountIdBody,
  BLAST_TEXTS,
  blastBody,
  type CounterUser,
  intervalBody,
  type LiveEvent,
  type LiveEventMap,
  PAGE_SIZE,
  statusBody,
  type WhatsappDto,
  type WhatsappState,
} from '@wa/shared';
import { type ListFilter, WhatsappRepo } from './whatsapp.repo';
import { HOLDER_TIMEOUT_MS, isPrivileged, replyError } from './whatsapp-holder';
import { WhatsappLogins } from './whatsapp-login.service';
import { OneOffSends } from './whatsapp-send.service';

/**
 * The rules of saved WhatsApp accounts (§2 WhatsApp accounts, §4, §7 WhatsApp): reading them,
 * their counts and interval, suspension, reconnect and blasting. Their state changes go through
 * AccountsRepo; connecting one is WhatsappLogins' (`logins`), one-off sends OneOffSends' (`sends`).
 */
export class WhatsappService {
  readonly repo: WhatsappRepo;
  private readonly accounts: AccountsRepo;
  /** new-client, qr-new-client, client-state, remove-client and save */
  readonly logins: WhatsappLogins;
  /** send-message/1, the blaster form's one-off sends */
  readonly sends: OneOffSends;

  constructor(
    db: Db,
    queue: JobQueue,
    private readonly bus: EventBus,
    opts: { qrTimeoutMs?: number } = {},
  ) {
    this.repo = new WhatsappRepo(db);
    this.accounts = new AccountsRepo(db);
    this.logins = new WhatsappLogins(db, queue, bus, opts);
    this.sends = new OneOffSends(db, queue);
  }

  /** The account, when the actor may see it (its owner, or admin and dev). */
  async get(actor: Actor, id: number): Promise<WhatsappDto> {
    const acc = await this.repo.byId(id);
    if (!acc) throw notFound('WhatsApp account not found.');
    if (acc.userId !== actor.id && !isPrivileged(actor)) throw forbidden();
    return acc;
  }

  private broadcast<E extends LiveEvent>(userId: number, event: E, payload: LiveEventMap[E]): Promise<void> {
    return publishToOwnerAndAdmins(this.bus, userId, event, payload);
  }

  async listForUser(actor: Actor, userId: number, synced: boolean): Promise<{ list: WhatsappDto[] }> {
    if (userId !== actor.id && !isPrivileged(actor)) throw forbidden();
    return { list: await this.repo.list({ userId, synced }) };
  }

  async listAll(): Promise<{ list: WhatsappDto[] }> {
    return { list: await this.repo.list({}) };
  }

  /** GET count/{userId}: a user's own accounts; admin and dev anyone's, or everyone's with `all`. */
  async count(actor: Actor, userId: CounterUser) {
    if (userId !== actor.id && !isPrivileged(actor)) throw forbidden();
    return this.repo.counts(userId === ALL_USERS ? null : userId);
  }

  /** list-per-page: members see their own accounts only; admin and dev may filter by user. */
  async listPerPage(
    actor: Actor,
    q: { page: number; user_id?: number; synced?: boolean; search?: string; status?: string },
  ) {
    const filter: ListFilter = { search: q.search, status: q.status, synced: q.synced };
    if (!isPrivileged(actor)) filter.userId = actor.id;
    else if (q.user_id !== undefined) filter.userId = q.user_id;
    const { limit, offset } = pageWindow(q.page, PAGE_SIZE);
    const { total, data } = await this.repo.page(filter, limit, offset);
    return { data, meta: pageMeta(q.page, total, PAGE_SIZE) };
  }

  /** POST reset: the account's success and fail counts and income start again (total income stays in the log). */
  async reset(actor: Actor, body: unknown): Promise<{ data: WhatsappDto }> {
    const { id } = parse(accountIdBody, body);
    await this.get(actor, id);
    const acc = await this.accounts.resetCounts(id);
    if (!acc) throw notFound('WhatsApp account not found.');
    await this.broadcast(acc.userId, 'reset', {
      deviceId: acc.clientid,
      state: acc.state,
      count_success: 0,
      count_fail: 0,
      income: 0,
    });
    return { data: acc };
  }

  /** PUT interval. */
  async setInterval(actor: Actor, body: unknown): Promise<{ data: WhatsappDto }> {
    const { id, interval } = parse(intervalBody, body);
    await this.get(actor, id);
    const acc = await this.accounts.setInterval(id, interval);
    if (!acc) throw notFound('WhatsApp account not found.');
    return { data: acc };
  }

  /** PUT status (admin and dev): sets the run status by hand. */
  async setStatus(body: unknown): Promise<{ data: WhatsappDto }> {
    const { id, status } = parse(statusBody, body);
    const acc = await this.accounts.setRunStatus(id, status);
    if (!acc) throw notFound('WhatsApp account not found.');
    if (status === 'sending') await this.broadcast(acc.userId, 'sending', { deviceId: acc.clientid, status });
    else await this.broadcast(acc.userId, 'idle', { deviceId: acc.clientid, status });
    return { data: acc };
  }

  /** POST activate (admin and dev): lifts a suspension while suspended_count is below 3 (§4, §9). */
  async activate(body: unknown): Promise<{ data: WhatsappDto }> {
    const { id } = parse(accountIdBody, body);
    const acc = await this.repo.byId(id);
    if (!acc) throw notFound('WhatsApp account not found.');
    if (!acc.suspended && acc.state !== 'suspended') throw badRequest('This account is not suspended.');
    if (acc.suspended_count >= 3) {
      throw new AppError(403, `This account was suspended ${acc.suspended_count} times and cannot be activated again.`);
    }
    await this.accounts.liftSuspension(id);
    let state: WhatsappState = 'disconnected';
    try {
      const r = await callDevice(this.bus, acc.clientid, 'activate', { privileged: true }, { timeoutMs: 2000 });
      if (r.ok) state = r.data.state;
    } catch {
      // no worker holds it right now: the sweep restores it and its state follows
    }
    const updated = (await this.repo.byId(id)) ?? acc;
    await this.broadcast(acc.userId, 'connection.update', {
      deviceId: acc.clientid,
      state,
      suspended_count: acc.suspended_count,
    });
    return { data: { ...updated, state: updated.state } };
  }

  /** POST reconnect in place (a conflict): the holder rebuilds the client from the stored session. */
  async reconnect(actor: Actor, body: unknown): Promise<{ data: WhatsappDto }> {
    const { id } = parse(accountIdBody, body);
    const acc = await this.get(actor, id);
    try {
      await callDevice(this.bus, acc.clientid, 'reconnect', { privileged: true }, { timeoutMs: 2000 });
    } catch (err) {
      if (!(err instanceof NoHolderError)) throw err;
      // nobody holds it: free its lease so a worker's sweep restores it now
      await this.accounts.expireLease(id);
    }
    await this.broadcast(acc.userId, 'reconnecting', { deviceId: acc.clientid, state: 'reconnecting...' });
    return { data: acc };
  }

  /**
   * POST start-blasting (member for their own accounts, dev for any): the account must be
   * connected, idle and not suspended, with an active template and a target left. The row's
   * status becomes 'sending' (the switch the worker's blast loop reads) and its holder starts.
   */
  async startBlasting(actor: Actor, body: unknown): Promise<{ msg: string; data: WhatsappDto }> {
    const acc = await this.blastAccount(actor, body);
    const name = acc.phonenumber ?? acc.clientid;
    if (acc.suspended || acc.state === 'suspended') throw conflict(`${name} is suspended`);
    if (acc.state !== 'connected') throw conflict(`${name} is ${acc.state ?? 'unknown'}`);
    if (acc.status === 'sending') throw conflict('Sedang mengirim');
    // one-off sends of the blaster form pace this account already; a blast waits until they are through
    if ((await this.repo.unsentReceivers(acc.id)) > 0) throw conflict('Sedang mengirim');
    if (!(await this.repo.hasActiveTemplate())) throw badRequest(BLAST_TEXTS.noTemplate);
    if (!(await this.repo.hasTargetLeft())) throw badRequest(BLAST_TEXTS.noTargets);
    // one start wins: the switch flips only from idle on a connected account
    const flipped = await this.accounts.startSending(acc.id);
    if (!flipped) throw conflict('Sedang mengirim');
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
      await this.accounts.stopSending(acc.id);
      if (err instanceof NoHolderError) throw conflict(`${name} is disconnected`);
      throw err;
    }
    return { msg: BLAST_TEXTS.started, data: flipped };
  }

  /** POST stop-blasting: the switch goes back to idle; the worker ends after the message in flight. */
  async stopBlasting(actor: Actor, body: unknown): Promise<{ msg: string; data: WhatsappDto }> {
    const acc = await this.blastAccount(actor, body);
    const stopped = (await this.accounts.stopSending(acc.id)) ?? acc;
    await callDevice(this.bus, acc.clientid, 'blast', { action: 'stop', privileged: true }, { timeoutMs: 2000 }).catch(
      () => {},
    );
    await this.broadcast(acc.userId, 'stop', { deviceId: acc.clientid, status: 'idle' });
    return { msg: BLAST_TEXTS.stopped, data: stopped };
  }

  /** The account a start or stop names: members only their own (§6; dev any). */
  private async blastAccount(actor: Actor, body: unknown): Promise<WhatsappDto> {
    const { whatsappClientId } = parse(blastBody, body);
    const acc = await this.repo.byClientId(whatsappClientId);
    if (!acc) throw notFound('WhatsApp account not found.');
    if (acc.userId !== actor.id && actor.role !== 'dev') throw forbidden();
    return acc;
  }

  async latestMessage(actor: Actor, id: number) {
    await this.get(actor, id);
    return { message: await this.repo.latestMessage(id) };
  }
}
