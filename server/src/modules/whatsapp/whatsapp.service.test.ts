import { InProcessBus } from '@wa/core/realtime/bus';
import type { DeviceRequest } from '@wa/core/realtime/device-commands';
import { deviceChannel } from '@wa/core/realtime/rpc';
import { as, refused } from '@wa/core/testing/refusals';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import { BLAST_TEXTS, SAFETY_TEXTS, type WebhookEvent, type WhatsappDto } from '@wa/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ListFilter } from './whatsapp.repo';
import { type AccountSwitches, type BlastInput, WhatsappService, type WhatsappStore } from './whatsapp.service';

/** The whatsapp_accounts table in memory: what WhatsappRepo and AccountsRepo answer, without SQL. */
class MemoryAccounts implements WhatsappStore, AccountSwitches {
  readonly rows = new Map<number, WhatsappDto>();
  activeTemplate = true;
  targetLeft = true;

  add(id: number, userId: number, extra: Partial<WhatsappDto> = {}): WhatsappDto {
    const clientid = `id-1700000000000-${id}`;
    const acc: WhatsappDto = {
      id,
      clientid,
      deviceId: clientid,
      userId,
      user_id: userId,
      previousDeviceId: null,
      phonenumber: `6281200000${String(id).padStart(3, '0')}`,
      pushname: null,
      server: null,
      serialized: null,
      proxyId: null,
      engine: null,
      reconnect: 0,
      interval: null,
      state: 'connected',
      status: 'idle',
      count_success: 0,
      count_fail: 0,
      income: 0,
      suspended: false,
      suspended_count: 0,
      paused_until: null,
      pause_reason: null,
      waiting_reason: null,
      daily_cap: 100,
      sent_today: 0,
      scheduled_at: null,
      createdAt: new Date(0).toISOString(),
      ...extra,
    };
    this.rows.set(id, acc);
    return acc;
  }

  private update(id: number, patch: Partial<WhatsappDto>): WhatsappDto | null {
    const row = this.rows.get(id);
    if (!row) return null;
    Object.assign(row, patch);
    return structuredClone(row);
  }

  async byId(id: number) {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }
  async byClientId(clientid: string) {
    const row = [...this.rows.values()].find((a) => a.clientid === clientid);
    return row ? structuredClone(row) : null;
  }
  async list(f: ListFilter) {
    return [...this.rows.values()].filter((a) => f.userId === undefined || a.userId === f.userId);
  }
  async page(f: ListFilter, limit: number, offset: number) {
    const all = await this.list(f);
    return { total: all.length, data: all.slice(offset, offset + limit) };
  }
  async counts(userId: number | null) {
    const mine = [...this.rows.values()].filter((a) => userId === null || a.userId === userId);
    const connectedCount = mine.filter((a) => a.state === 'connected').length;
    return { connectedCount, disconnectedCount: mine.length - connectedCount };
  }
  async unsentReceivers() {
    return 0;
  }
  async hasActiveTemplate() {
    return this.activeTemplate;
  }
  async hasTargetLeft() {
    return this.targetLeft;
  }
  async latestMessage() {
    return null;
  }
  async resetCounts(id: number) {
    return this.update(id, { count_success: 0, count_fail: 0, income: 0 });
  }
  async setInterval(id: number, interval: number) {
    return this.update(id, { interval });
  }
  async setRunStatus(id: number, status: WhatsappDto['status']) {
    return this.update(id, { status });
  }
  async liftSuspension(id: number) {
    this.update(id, { suspended: false, state: 'connected' });
  }
  async liftPause(id: number) {
    return this.update(id, { paused_until: null, pause_reason: null });
  }
  async expireLease() {}
  async startSending(id: number, startAt: Date | null = null) {
    const row = this.rows.get(id);
    if (row?.status !== 'idle' || row.state !== 'connected' || row.suspended || row.paused_until) return null;
    return this.update(id, { status: 'sending', scheduled_at: startAt?.toISOString() ?? null });
  }
  async stopSending(id: number) {
    if (this.rows.get(id)?.status !== 'sending') return null;
    return this.update(id, { status: 'idle', scheduled_at: null });
  }
}

const MEMBER = 1;
const OTHER = 2;
const STAFF = 3;
const ADMIN = 4;
const DEV = 5;
const member = as(MEMBER, 'member');
const staff = as(STAFF, 'staff');
const admin = as(ADMIN, 'admin');
const dev = as(DEV, 'dev');
/** account id = its owner's id + 10 */
const accountOf = (userId: number) => userId + 10;
const NOT_ALLOWED = { status: 403, msg: 'You are not allowed to do this.' };
const NOT_FOUND = { status: 404, msg: 'WhatsApp account not found.' };

let accounts: MemoryAccounts;
let wa: WhatsappService;
/** the webhook events the service emitted, in order */
let hooked: Array<{ event: WebhookEvent; ownerId: number; data: Record<string, unknown> }>;
const hooks: WebhookEmitter = {
  emit: (event, ownerId, data) => void hooked.push({ event, ownerId, data }),
  flush: async () => {},
};
/** the blast commands the (pretend) workers holding the accounts were sent */
let commands: string[];

const blast = (id: number, extra: Partial<BlastInput> = {}): BlastInput => ({
  whatsappClientId: accounts.rows.get(id)?.clientid ?? 'id-1700000000000-9999',
  ...extra,
});
const statusOf = (id: number) => accounts.rows.get(id)?.status;

beforeEach(async () => {
  accounts = new MemoryAccounts();
  const bus = new InProcessBus();
  wa = new WhatsappService(accounts, accounts, bus, hooks);
  commands = [];
  hooked = [];
  for (const userId of [MEMBER, OTHER, STAFF, ADMIN, DEV]) {
    const acc = accounts.add(accountOf(userId), userId);
    // a worker holds every account and answers its blast commands
    await bus.subscribe(deviceChannel(acc.clientid), (message) => {
      const req = message as DeviceRequest<'blast'>;
      commands.push(`${req.op} ${req.args.action} ${acc.id}`);
      const status = req.args.action === 'start' ? 'sending' : 'idle';
      void bus.publish(req.replyTo, { ok: true, data: { deviceId: acc.clientid, status } });
    });
  }
});

describe('who may start and stop a blast (§6: members their own accounts, dev any; admins only see Sending)', () => {
  it('a member starts and stops their own account', async () => {
    const started = await wa.startBlasting(member, blast(accountOf(MEMBER)));
    expect(started).toMatchObject({ msg: BLAST_TEXTS.started, data: { status: 'sending' } });
    const stopped = await wa.stopBlasting(member, blast(accountOf(MEMBER)));
    expect(stopped).toMatchObject({ msg: BLAST_TEXTS.stopped, data: { status: 'idle' } });
    expect(commands).toEqual([`blast start ${accountOf(MEMBER)}`, `blast stop ${accountOf(MEMBER)}`]);
  });

  it('a member may not start or stop somebody else’s account; dev may start and stop anyone’s', async () => {
    expect(await refused(wa.startBlasting(member, blast(accountOf(OTHER))))).toEqual(NOT_ALLOWED);
    expect(statusOf(accountOf(OTHER))).toBe('idle');
    await wa.startBlasting(dev, blast(accountOf(OTHER)));
    expect(statusOf(accountOf(OTHER))).toBe('sending');
    expect(await refused(wa.stopBlasting(member, blast(accountOf(OTHER))))).toEqual(NOT_ALLOWED);
    expect(statusOf(accountOf(OTHER))).toBe('sending');
    await wa.stopBlasting(dev, blast(accountOf(OTHER)));
    expect(statusOf(accountOf(OTHER))).toBe('idle');
  });

  it('admin and staff may not start or stop any blast, not even on their own accounts', async () => {
    for (const [actor, own] of [
      [admin, ADMIN],
      [staff, STAFF],
    ] as const) {
      expect(await refused(wa.startBlasting(actor, blast(accountOf(own))))).toEqual(NOT_ALLOWED);
      expect(await refused(wa.startBlasting(actor, blast(accountOf(MEMBER))))).toEqual(NOT_ALLOWED);
      expect(await refused(wa.stopBlasting(actor, blast(accountOf(own))))).toEqual(NOT_ALLOWED);
    }
    expect(commands).toEqual([]);
  });

  it('an account nobody has is a 404 before whose it would be', async () => {
    expect(await refused(wa.startBlasting(member, blast(99)))).toEqual(NOT_FOUND);
    expect(await refused(wa.stopBlasting(member, blast(99)))).toEqual(NOT_FOUND);
  });
});

describe('a start the account cannot take is refused before any worker is asked', () => {
  it('suspended, paused, past its daily cap, sending, or nothing to send', async () => {
    const id = accountOf(MEMBER);
    const acc = accounts.rows.get(id) as WhatsappDto;
    const start = (extra: Partial<BlastInput> = {}) => refused(wa.startBlasting(member, blast(id, extra)));

    Object.assign(acc, { suspended: true, state: 'suspended' });
    expect(await start()).toEqual({ status: 409, msg: `${acc.phonenumber} is suspended` });
    Object.assign(acc, { suspended: false, state: 'connected' });

    const until = new Date(Date.now() + 3_600_000).toISOString();
    Object.assign(acc, { paused_until: until, pause_reason: 'rate limit' });
    expect(await start()).toEqual({ status: 409, msg: `${SAFETY_TEXTS.paused(until)}: rate limit` });
    Object.assign(acc, { paused_until: null, pause_reason: null });

    acc.sent_today = acc.daily_cap;
    expect(await start()).toEqual({ status: 409, msg: SAFETY_TEXTS.dailyCap });
    acc.sent_today = 0;

    acc.status = 'sending';
    expect(await start()).toEqual({ status: 409, msg: 'Sedang mengirim' });
    acc.status = 'idle';

    accounts.activeTemplate = false;
    expect(await start()).toEqual({ status: 400, msg: BLAST_TEXTS.noTemplate });
    accounts.activeTemplate = true;
    accounts.targetLeft = false;
    expect(await start()).toEqual({ status: 400, msg: BLAST_TEXTS.noTargets });
    expect(commands).toEqual([]);
    expect(acc.status).toBe('idle');
  });

  it('a start for later may be scheduled past today’s cap', async () => {
    const id = accountOf(MEMBER);
    const acc = accounts.rows.get(id) as WhatsappDto;
    acc.sent_today = acc.daily_cap;
    const later = new Date(Date.now() + 3_600_000);
    const started = await wa.startBlasting(member, blast(id, { start_at: later }));
    expect(started.data).toMatchObject({ status: 'sending', scheduled_at: later.toISOString() });
    expect(await refused(wa.startBlasting(member, blast(id)))).toEqual({ status: 409, msg: 'Sedang mengirim' });
  });
});

describe('lifting a pause (admin and dev)', () => {
  const pause = (id: number) => {
    Object.assign(accounts.rows.get(id) as WhatsappDto, {
      paused_until: new Date(Date.now() + 3_600_000).toISOString(),
      pause_reason: 'Gagal kirim 5x berturut-turut',
    });
  };

  it('members and staff may not, not even on their own paused account', async () => {
    pause(accountOf(MEMBER));
    pause(accountOf(STAFF));
    expect(await refused(wa.liftPause(member, { id: accountOf(MEMBER) }))).toEqual(NOT_ALLOWED);
    expect(await refused(wa.liftPause(staff, { id: accountOf(STAFF) }))).toEqual(NOT_ALLOWED);
    expect(accounts.rows.get(accountOf(MEMBER))?.paused_until).not.toBeNull();
  });

  it('admin and dev lift anyone’s pause; an account that is not paused or not there is refused', async () => {
    pause(accountOf(MEMBER));
    pause(accountOf(OTHER));
    const lifted = await wa.liftPause(admin, { id: accountOf(MEMBER) });
    expect(lifted).toMatchObject({ msg: SAFETY_TEXTS.pauseLifted, data: { paused_until: null, pause_reason: null } });
    expect(await refused(wa.liftPause(admin, { id: accountOf(MEMBER) }))).toEqual({
      status: 400,
      msg: 'This account is not paused.',
    });
    expect((await wa.liftPause(dev, { id: accountOf(OTHER) })).data.paused_until).toBeNull();
    expect(await refused(wa.liftPause(dev, { id: 99 }))).toEqual(NOT_FOUND);
  });
});

describe('reading and changing the saved accounts', () => {
  it('owners read and edit their own; admin and dev anyone’s', async () => {
    expect((await wa.get(staff, accountOf(STAFF))).id).toBe(accountOf(STAFF));
    expect(await refused(wa.get(member, accountOf(OTHER)))).toEqual(NOT_ALLOWED);
    expect(await refused(wa.get(member, 99))).toEqual(NOT_FOUND);
    expect((await wa.get(admin, accountOf(OTHER))).id).toBe(accountOf(OTHER));
    expect(await refused(wa.reset(member, { id: accountOf(OTHER) }))).toEqual(NOT_ALLOWED);
    expect((await wa.setInterval(dev, { id: accountOf(MEMBER), interval: 12 })).data.interval).toBe(12);
    expect(await refused(wa.listForUser(staff, MEMBER, false))).toEqual(NOT_ALLOWED);
    expect(await refused(wa.count(member, 'all'))).toEqual(NOT_ALLOWED);
    expect(await wa.count(admin, 'all')).toEqual({ connectedCount: 5, disconnectedCount: 0 });
    expect(await refused(wa.listAll(member))).toEqual(NOT_ALLOWED);
  });

  it('list-per-page: members their own whatever user_id says; admin and dev filter by user', async () => {
    const mine = await wa.listPerPage(member, { page: 1, user_id: OTHER });
    expect(mine.data.map((a) => a.id)).toEqual([accountOf(MEMBER)]);
    expect((await wa.listPerPage(dev, { page: 1, user_id: OTHER })).data.map((a) => a.id)).toEqual([accountOf(OTHER)]);
    expect((await wa.listPerPage(admin, { page: 1 })).meta.total).toBe(5);
  });

  it('run status and activation are admin’s and dev’s; three suspensions are final', async () => {
    expect(await refused(wa.setStatus(member, { id: accountOf(MEMBER), status: 'idle' }))).toEqual(NOT_ALLOWED);
    expect(await refused(wa.activate(staff, { id: accountOf(MEMBER) }))).toEqual(NOT_ALLOWED);
    expect(await refused(wa.activate(admin, { id: accountOf(MEMBER) }))).toEqual({
      status: 400,
      msg: 'This account is not suspended.',
    });
    Object.assign(accounts.rows.get(accountOf(MEMBER)) as WhatsappDto, {
      suspended: true,
      state: 'suspended',
      suspended_count: 3,
    });
    expect(await refused(wa.activate(dev, { id: accountOf(MEMBER) }))).toEqual({
      status: 403,
      msg: 'This account was suspended 3 times and cannot be activated again.',
    });
  });
});

describe('what the webhooks hear of the run switch and activation', () => {
  const ref = (id: number) => {
    const acc = accounts.rows.get(id) as WhatsappDto;
    return { user_id: acc.userId, account_id: id, device_id: acc.clientid, phone: acc.phonenumber };
  };

  it('a blast started now has no start_at; a scheduled one is told with its start time', async () => {
    const id = accountOf(MEMBER);
    await wa.startBlasting(member, blast(id));
    await wa.stopBlasting(member, blast(id));
    const later = new Date(Date.now() + 3_600_000);
    await wa.startBlasting(member, blast(id, { start_at: later }));
    expect(hooked.filter((h) => h.event === 'blast.started')).toEqual([
      { event: 'blast.started', ownerId: MEMBER, data: { ...ref(id), start_at: null } },
      { event: 'blast.started', ownerId: MEMBER, data: { ...ref(id), start_at: later.toISOString() } },
    ]);
  });

  it("the admin's switch starts a blast and ends a running one, each told once", async () => {
    const id = accountOf(MEMBER);
    await wa.setStatus(admin, { id, status: 'sending' });
    await wa.setStatus(dev, { id, status: 'sending' });
    expect(hooked).toEqual([{ event: 'blast.started', ownerId: MEMBER, data: { ...ref(id), start_at: null } }]);
    hooked = [];
    await wa.setStatus(admin, { id, status: 'idle' });
    await wa.setStatus(admin, { id, status: 'idle' });
    expect(hooked).toEqual([
      {
        event: 'blast.finished',
        ownerId: MEMBER,
        data: { ...ref(id), reason: 'stopped', message: BLAST_TEXTS.stopped },
      },
    ]);
    expect(statusOf(id)).toBe('idle');
    expect(await refused(wa.setStatus(admin, { id: 99, status: 'idle' }))).toEqual(NOT_FOUND);
  });

  it('an activation nobody holds is told as disconnected; a holder that answers tells it itself', async () => {
    const held = accountOf(MEMBER);
    Object.assign(accounts.rows.get(held) as WhatsappDto, { suspended: true, state: 'suspended', suspended_count: 1 });
    await wa.activate(admin, { id: held });
    expect(hooked).toEqual([]);
    // an account no worker holds: the call to its holder times out
    const orphan = accounts.add(99, OTHER, { suspended: true, state: 'suspended', suspended_count: 1 });
    await wa.activate(admin, { id: orphan.id });
    expect(hooked).toEqual([
      { event: 'account.state', ownerId: OTHER, data: { ...ref(orphan.id), state: 'disconnected' } },
    ]);
  }, 10_000);
});
