import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { Actor } from '@wa/core/actor';
import { type Db, rows } from '@wa/core/db/client';
import { AppError, badRequest, conflict, forbidden, notFound } from '@wa/core/errors';
import { OPEN_SESSION_JOB, type OpenSessionJob } from '@wa/core/jobs/names';
import type { JobQueue } from '@wa/core/jobs/queue';
import { pageMeta, pageWindow } from '@wa/core/paging';
import type { EventBus } from '@wa/core/realtime/bus';
import type { DeviceCommandMap, DeviceOp, DeviceReply } from '@wa/core/realtime/device-commands';
import { publishToOwnerAndAdmins } from '@wa/core/realtime/publish';
import { type CallOptions, callDevice, NoHolderError } from '@wa/core/realtime/rpc';
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
  LOGIN_CAPS,
  LOGIN_TEXTS,
  newClientBody,
  normalizePhone,
  PAGE_SIZE,
  type Role,
  removeClientBody,
  saveWhatsappBody,
  statusBody,
  type WhatsappDto,
  type WhatsappState,
} from '@wa/shared';
import { sql } from 'drizzle-orm';
import { type ListFilter, WhatsappRepo } from './whatsapp.repo';
import { OneOffSends } from './whatsapp-send.service';

const PRIVILEGED: Role[] = ['admin', 'dev'];
const replyError = (r: { ok: false; error: string; status?: number }) => new AppError(r.status ?? 400, r.error);
const isPrivileged = (a: Actor) => PRIVILEGED.includes(a.role);

/** §9: the QR request waits up to 120 s. */
export const QR_TIMEOUT_MS = 120_000;
/** a reconnect or an account that no worker answers for is at most this long away */
const HOLDER_TIMEOUT_MS = 5_000;
/**
 * A login no worker has started within the QR wait is over (the browser gave up on it); a worker
 * that starts it sets its own expiry from then on.
 */
const UNTAKEN_LOGIN_MS = QR_TIMEOUT_MS;
const DEVICE_IN_USE = 'This Whatsapp ID is already in use. Reload the page for a new one.';
const LOGIN_GONE = 'This login is no longer running. Generate a new QR code.';

/** The rules of WhatsApp accounts (§2 WhatsApp accounts, §4, §7 WhatsApp). */
export class WhatsappService {
  readonly repo: WhatsappRepo;
  private readonly accounts: AccountsRepo;
  /** send-message/1, the blaster form's one-off sends */
  readonly sends: OneOffSends;

  constructor(
    private readonly db: Db,
    private readonly queue: JobQueue,
    private readonly bus: EventBus,
    private readonly opts: { qrTimeoutMs?: number } = {},
  ) {
    this.repo = new WhatsappRepo(db);
    this.accounts = new AccountsRepo(db);
    this.sends = new OneOffSends(db, queue);
  }

  /** The account, when the actor may see it (its owner, or admin and dev). */
  async get(actor: Actor, id: number): Promise<WhatsappDto> {
    const acc = await this.repo.byId(id);
    if (!acc) throw notFound('WhatsApp account not found.');
    if (acc.userId !== actor.id && !isPrivileged(actor)) throw forbidden();
    return acc;
  }

  private ownerFor(actor: Actor, userId: number | undefined): number {
    if (userId === undefined || userId === actor.id) return actor.id;
    if (!isPrivileged(actor)) throw forbidden();
    return userId;
  }

  /**
   * POST new-client: starts a login on a worker with the least used active proxy. Every login in
   * progress is a browser on a worker, so a user may have LOGIN_CAPS[role] unsaved at once and the
   * live workers together their `max_logins`; past either the answer is 429 and no job is queued.
   * The counts come from whatsapp_logins, which every API replica reads, under one advisory lock.
   */
  async newClient(actor: Actor, body: unknown): Promise<{ proxyId: number | null; deviceId: string }> {
    const b = parse(newClientBody, body);
    const userId = this.ownerFor(actor, b.userId);
    if (await this.repo.byClientId(b.deviceId)) throw badRequest(DEVICE_IN_USE);
    const proxy = await this.db.transaction(async (tx) => {
      const repo = new WhatsappRepo(tx as unknown as Db);
      await repo.lockLogins();
      const cap = LOGIN_CAPS[actor.role];
      if ((await repo.pendingLogins(actor.id)) >= cap) throw new AppError(429, LOGIN_TEXTS.userCap(cap));
      const { capacity, pending } = await repo.loginCapacity();
      if (capacity === 0) throw new AppError(503, LOGIN_TEXTS.noWorker);
      if (pending >= capacity) throw new AppError(429, LOGIN_TEXTS.workersBusy);
      const chosen = await repo.leastUsedProxy();
      const inserted = await repo.insertLogin({
        deviceId: b.deviceId,
        userId,
        requestedBy: actor.id,
        proxyId: chosen?.id ?? null,
        ttlMs: UNTAKEN_LOGIN_MS,
      });
      if (!inserted) throw badRequest(DEVICE_IN_USE);
      return chosen;
    });
    const job: OpenSessionJob = {
      deviceId: b.deviceId,
      userId,
      pairingNumber: b.phoneNumber ?? null,
      proxy: proxy?.value ?? null,
    };
    try {
      await this.queue.add(OPEN_SESSION_JOB, job, { jobId: b.deviceId });
    } catch (err) {
      await this.repo.takeLogin(b.deviceId);
      throw err;
    }
    return { proxyId: proxy?.id ?? null, deviceId: b.deviceId };
  }

  /** Asks the device's holder, which only answers the device's owner (or admin and dev). */
  private ask<Op extends DeviceOp>(
    actor: Actor,
    deviceId: string,
    op: Op,
    args: DeviceCommandMap[Op]['args'],
    opts: CallOptions,
  ): Promise<DeviceReply<Op>> {
    return callDevice(this.bus, deviceId, op, { ...args, userId: actor.id, privileged: isPrivileged(actor) }, opts);
  }

  /** GET qr-new-client/{deviceId}: the QR (or pairing code) once the worker has one; 120 s at most. */
  async qr(actor: Actor, deviceId: string): Promise<{ qr: string | null; code: string | null }> {
    await this.assertDeviceAccess(actor, deviceId);
    try {
      const r = await this.ask(
        actor,
        deviceId,
        'qr',
        {},
        { timeoutMs: this.opts.qrTimeoutMs ?? QR_TIMEOUT_MS, retry: true },
      );
      if (!r.ok) throw replyError(r);
      return { qr: r.data.qr, code: r.data.code };
    } catch (err) {
      if (err instanceof NoHolderError) throw new AppError(504, 'Request timed out');
      throw err;
    }
  }

  /** A device that is saved belongs to its account's owner; a login in progress is checked by its holder. */
  private async assertDeviceAccess(actor: Actor, deviceId: string): Promise<WhatsappDto | null> {
    const acc = await this.repo.byClientId(deviceId);
    if (acc && acc.userId !== actor.id && !isPrivileged(actor)) throw forbidden();
    return acc;
  }

  /** GET client-state/{deviceId}. */
  async clientState(actor: Actor, deviceId: string): Promise<{ state: string }> {
    const acc = await this.assertDeviceAccess(actor, deviceId);
    try {
      const r = await this.ask(
        actor,
        deviceId,
        'state',
        {},
        { timeoutMs: acc ? 2000 : HOLDER_TIMEOUT_MS, retry: !acc },
      );
      if (!r.ok) throw replyError(r);
      return { state: r.data.state };
    } catch (err) {
      if (err instanceof NoHolderError) return { state: acc?.state ?? 'unknown' };
      throw err;
    }
  }

  /** POST remove-client: stops a login (or a live session) on its worker; the login stops counting. */
  async removeClient(actor: Actor, body: unknown): Promise<{ deviceId: string; removed: boolean }> {
    const { deviceId } = parse(removeClientBody, body);
    await this.assertDeviceAccess(actor, deviceId);
    const login = await this.repo.loginOf(deviceId);
    if (login && !isPrivileged(actor) && login.userId !== actor.id && login.requestedBy !== actor.id) throw forbidden();
    let removed = true;
    try {
      const r = await this.ask(actor, deviceId, 'remove', {}, { timeoutMs: 2000 });
      if (!r.ok) throw replyError(r);
    } catch (err) {
      if (!(err instanceof NoHolderError)) throw err;
      removed = false;
    }
    // also when no worker runs it (yet): a job that starts later finds no login and does nothing
    if (login) await this.repo.takeLogin(deviceId);
    return { deviceId, removed };
  }

  /**
   * POST save: records the account the browser heard `authenticated` for, and hands it to its
   * worker. The login ends here (it no longer counts) and its proxy, the one new-client chose,
   * counts one more use, in the same transaction as the account.
   */
  async save(actor: Actor, body: unknown): Promise<{ whatsapp: WhatsappDto }> {
    if (!body || typeof body !== 'object' || !Object.keys(body).length) throw badRequest('No Data');
    const b = parse(saveWhatsappBody, body);
    if (await this.repo.byClientId(b.clientid)) throw badRequest('This WhatsApp account is already saved.');
    const login = await this.repo.loginOf(b.clientid);
    if (!login) throw badRequest(LOGIN_GONE);
    const userId = this.ownerFor(actor, b.user_id ?? login.userId);
    // the holder knows the account that really logged in; a browser cannot claim another one
    let state: DeviceReply<'state'>;
    try {
      state = await this.ask(actor, b.clientid, 'state', {}, { timeoutMs: HOLDER_TIMEOUT_MS, retry: true });
    } catch (err) {
      if (err instanceof NoHolderError) throw badRequest(LOGIN_GONE);
      throw err;
    }
    if (!state.ok) throw replyError(state);
    const { info } = state.data;
    if (!info || state.data.state !== 'connected') throw badRequest('The account is not logged in yet.');
    const phonenumber = normalizePhone(info.phonenumber) ?? info.phonenumber;
    const fields = {
      clientid: b.clientid,
      phonenumber,
      pushname: info.pushname ?? b.pushname ?? null,
      server: info.server ?? b.server ?? null,
      serialized: info.serialized ?? b.serialized ?? null,
    };
    let old: WhatsappDto | null = null;
    if (b.reconnect !== undefined) {
      old = await this.repo.byId(b.reconnect);
      if (!old) throw notFound('WhatsApp account not found.');
      if (old.userId !== userId && !isPrivileged(actor)) throw forbidden();
      // the old device's session is over: its holder lets it go and its stored session is deleted
      await callDevice(this.bus, old.clientid, 'remove', { privileged: true }, { timeoutMs: 1000 }).catch(() => {});
      await this.db.execute(sql`delete from whatsapp_sessions where session_id = ${old.clientid}`);
    }
    const acc = await this.db.transaction(async (tx) => {
      const repo = new WhatsappRepo(tx as unknown as Db);
      const accounts = new AccountsRepo(tx as unknown as Db);
      const taken = await repo.takeLogin(b.clientid);
      if (!taken) throw badRequest('This WhatsApp account is already saved.');
      const saved = old
        ? await accounts.relogin(old.id, { ...fields, proxyId: taken.proxyId })
        : await accounts.create({
            ...fields,
            proxyId: taken.proxyId,
            userId,
            interval: await repo.userInterval(userId),
          });
      if (taken.proxyId !== null) await repo.countProxyUse(taken.proxyId);
      return saved;
    });
    const adopted = await this.ask(
      actor,
      b.clientid,
      'adopt',
      { accountId: acc.id },
      { timeoutMs: HOLDER_TIMEOUT_MS },
    ).catch(() => null);
    const saved = (await this.repo.byId(acc.id)) ?? acc;
    await this.broadcast(saved.userId, 'connection.update', { deviceId: saved.clientid, state: saved.state });
    return { whatsapp: adopted ? saved : { ...saved } };
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
    const [template] = await rows<{ id: number }>(
      this.db,
      sql`select id from message_templates where status = 'active' limit 1`,
    );
    if (!template) throw badRequest(BLAST_TEXTS.noTemplate);
    const [target] = await rows<{ id: number }>(
      this.db,
      sql`select id from phone_numbers where status = 'active' and last_sent is null and in_use = 0 limit 1`,
    );
    if (!target) throw badRequest(BLAST_TEXTS.noTargets);
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
