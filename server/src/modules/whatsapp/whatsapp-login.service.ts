import type { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import type { Actor } from '@wa/core/actor';
import { AppError, badRequest, forbidden, notFound } from '@wa/core/errors';
import { OPEN_SESSION_JOB, type OpenSessionJob } from '@wa/core/jobs/names';
import type { JobQueue } from '@wa/core/jobs/queue';
import { assertCan, can } from '@wa/core/policy';
import type { EventBus } from '@wa/core/realtime/bus';
import type { DeviceCommandMap, DeviceOp, DeviceReply } from '@wa/core/realtime/device-commands';
import { monitorAccount, withMonitor } from '@wa/core/realtime/monitor-fields';
import { publishToOwnerAndAdmins } from '@wa/core/realtime/publish';
import { type CallOptions, callDevice, NoHolderError } from '@wa/core/realtime/rpc';
import {
  LOGIN_CAPS,
  LOGIN_TEXTS,
  type newClientBody,
  normalizePhone,
  type removeClientBody,
  type saveWhatsappBody,
  type WaEngine,
  type WhatsappDto,
} from '@wa/shared';
import type { z } from 'zod';
import type { Transaction } from '../transaction';
import type { WhatsappRepo } from './whatsapp.repo';
import { askHolder, HOLDER_TIMEOUT_MS, replyError } from './whatsapp-holder';

export type NewClientInput = z.output<typeof newClientBody>;
export type RemoveClientInput = z.output<typeof removeClientBody>;
export type SaveWhatsappInput = z.output<typeof saveWhatsappBody>;

/** What the logins need of the tables outside a transaction (WhatsappRepo). */
export type LoginsStore = Pick<WhatsappRepo, 'byId' | 'byClientId' | 'loginOf' | 'takeLogin' | 'forgetStoredSession'>;

/** What new-client and save need inside their transaction: the logins, proxies and the new account. */
export interface LoginsTxStores {
  logins: Pick<
    WhatsappRepo,
    | 'lockLogins'
    | 'pendingLogins'
    | 'loginCapacity'
    | 'leastUsedProxy'
    | 'insertLogin'
    | 'takeLogin'
    | 'countProxyUse'
    | 'userInterval'
  >;
  accounts: Pick<AccountsRepo, 'create' | 'relogin'>;
}

/** §9: the QR request waits up to 120 s. */
export const QR_TIMEOUT_MS = 120_000;
/**
 * A login no worker has started within the QR wait is over (the browser gave up on it); a worker
 * that starts it sets its own expiry from then on.
 */
const UNTAKEN_LOGIN_MS = QR_TIMEOUT_MS;
const DEVICE_IN_USE = 'This Whatsapp ID is already in use. Reload the page for a new one.';
const LOGIN_GONE = 'This login is no longer running. Generate a new QR code.';

/**
 * Connecting a WhatsApp account (§4 Account creation flow, §7 WhatsApp): new-client starts a
 * login on a worker, qr-new-client and client-state ask that worker, save records the account it
 * logged in and hands it over, remove-client ends a login. The rules of saved accounts are
 * WhatsappService's.
 */
export class WhatsappLogins {
  /** `transaction` binds LoginsTxStores to one database transaction (the logins' lock lives as long). */
  constructor(
    private readonly repo: LoginsStore,
    private readonly queue: JobQueue,
    private readonly bus: EventBus,
    private readonly transaction: Transaction<LoginsTxStores>,
    private readonly opts: { qrTimeoutMs?: number; defaultEngine?: WaEngine | null } = {},
  ) {}

  /** The owner a login or account is for: the actor, or whomever admin and dev name (`account.create-login`). */
  private ownerFor(actor: Actor, userId: number | undefined): number {
    if (userId === undefined || userId === actor.id) return actor.id;
    assertCan(actor, 'account.create-login', { userId });
    return userId;
  }

  private ask<Op extends DeviceOp>(
    actor: Actor,
    deviceId: string,
    op: Op,
    args: DeviceCommandMap[Op]['args'],
    opts: CallOptions,
  ): Promise<DeviceReply<Op>> {
    return askHolder(this.bus, actor, deviceId, op, args, opts);
  }

  /**
   * POST new-client: starts a login on a worker with the least used active proxy. Every login in
   * progress is a browser on a worker, so a user may have LOGIN_CAPS[role] unsaved at once and the
   * live workers together their `max_logins`; past either the answer is 429 and no job is queued.
   * The counts come from whatsapp_logins, which every API replica reads, under one advisory lock.
   */
  async newClient(actor: Actor, b: NewClientInput): Promise<{ proxyId: number | null; deviceId: string }> {
    assertCan(actor, 'account.create-login');
    const userId = this.ownerFor(actor, b.userId);
    if (b.engine !== undefined) assertCan(actor, 'account.choose-engine');
    if (await this.repo.byClientId(b.deviceId)) throw badRequest(DEVICE_IN_USE);
    // the engine is fixed here (the stored session the login leaves belongs to it); a reconnect
    // keeps the account's own unless an admin chooses another
    const previous = b.previousDeviceId ? await this.repo.byClientId(b.previousDeviceId) : null;
    const engine = b.engine ?? previous?.engine ?? this.opts.defaultEngine ?? null;
    const proxy = await this.transaction(async ({ logins: repo }) => {
      await repo.lockLogins();
      const cap = LOGIN_CAPS[actor.role];
      if ((await repo.pendingLogins(actor.id)) >= cap) throw new AppError(429, LOGIN_TEXTS.userCap(cap));
      const { capacity, pending } = await repo.loginCapacity();
      if (capacity === 0) throw new AppError(503, LOGIN_TEXTS.noWorker);
      if (pending >= capacity) throw new AppError(429, LOGIN_TEXTS.workersBusy);
      const chosen = await repo.leastUsedProxy(engine);
      const inserted = await repo.insertLogin({
        deviceId: b.deviceId,
        userId,
        requestedBy: actor.id,
        proxyId: chosen?.id ?? null,
        engine,
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
      engine,
    };
    try {
      await this.queue.add(OPEN_SESSION_JOB, job, { jobId: b.deviceId });
    } catch (err) {
      await this.repo.takeLogin(b.deviceId);
      throw err;
    }
    return { proxyId: proxy?.id ?? null, deviceId: b.deviceId };
  }

  /**
   * GET qr-new-client/{deviceId}: the QR (or pairing code) once the worker has one; 120 s at most
   * for a code that is only slow. A login that failed on its worker (its connection never reached
   * WhatsApp, or no worker would take it) is answered by the worker with the cause: 502 (429), `{msg}`.
   */
  async qr(actor: Actor, deviceId: string): Promise<{ qr: string | null; code: string | null }> {
    assertCan(actor, 'account.create-login');
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
    if (acc) assertCan(actor, 'account.create-login', { userId: acc.userId });
    return acc;
  }

  /** GET client-state/{deviceId}. */
  async clientState(actor: Actor, deviceId: string): Promise<{ state: string }> {
    assertCan(actor, 'account.create-login');
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
  async removeClient(actor: Actor, { deviceId }: RemoveClientInput): Promise<{ deviceId: string; removed: boolean }> {
    assertCan(actor, 'account.create-login');
    await this.assertDeviceAccess(actor, deviceId);
    const login = await this.repo.loginOf(deviceId);
    // a login in progress: the user it is for, the one who started it, or admin and dev
    const mayEnd = (userId: number) => can(actor, 'account.create-login', { userId });
    if (login && !mayEnd(login.userId) && !mayEnd(login.requestedBy)) throw forbidden();
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
  async save(actor: Actor, b: SaveWhatsappInput): Promise<{ whatsapp: WhatsappDto }> {
    assertCan(actor, 'account.create-login');
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
      assertCan(actor, 'account.create-login', { userId: old.userId });
      // the old device's session is over: its holder lets it go and its stored session is deleted
      await callDevice(this.bus, old.clientid, 'remove', { privileged: true }, { timeoutMs: 1000 }).catch(() => {});
      await this.repo.forgetStoredSession(old.clientid);
    }
    const acc = await this.transaction(async ({ logins: repo, accounts }) => {
      const taken = await repo.takeLogin(b.clientid);
      if (!taken) throw badRequest('This WhatsApp account is already saved.');
      const saved = old
        ? await accounts.relogin(old.id, { ...fields, proxyId: taken.proxyId, engine: taken.engine })
        : await accounts.create({
            ...fields,
            proxyId: taken.proxyId,
            engine: taken.engine,
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
    const update = { deviceId: saved.clientid, state: saved.state };
    await publishToOwnerAndAdmins(
      this.bus,
      saved.userId,
      'connection.update',
      withMonitor(monitorAccount(saved), 'connection.update', update),
    );
    return { whatsapp: adopted ? saved : { ...saved } };
  }
}
