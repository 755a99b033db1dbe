import { BLAST_TEXTS, type BlastEndReason, type LiveMessage, SAFETY_TEXTS, type WhatsappDto } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { type AccountRow, canReconnect, isCapped, isCutOff, liveEventPatch, rowStatusText, toRow } from './live-rows';

const base: WhatsappDto = {
  id: 1,
  clientid: 'id-1700000000000-1',
  deviceId: 'id-1700000000000-1',
  userId: 2,
  user_id: 2,
  previousDeviceId: null,
  phonenumber: '6281200000001',
  pushname: 'Sim 0001',
  server: 'c.us',
  serialized: '6281200000001@c.us',
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
  daily_cap: 30,
  sent_today: 0,
  scheduled_at: null,
  createdAt: '2024-01-01T00:00:00.000Z',
};

const device = { deviceId: base.clientid };
const apply = (row: AccountRow, m: LiveMessage): AccountRow => ({ ...row, ...liveEventPatch(m) });
const count = (value: number, extra: { income?: number; sent_today?: number } = {}): LiveMessage => ({
  event: 'count_success',
  payload: { ...device, value, income: 0, ...extra },
});

describe('live row events (§4)', () => {
  it("leaves a generator's or validator's events to their own lists", () => {
    const tool = { deviceId: 'd', tool: 'generator', generatorId: 3 } as const;
    expect(liveEventPatch({ event: 'count_success', payload: { ...tool, value: 9, progress: 10 } })).toBeNull();
    expect(
      liveEventPatch({
        event: 'progressing',
        payload: { deviceId: 'd', tool: 'validator', validatorId: 4, value: '6281', target: 9, progress: 1 },
      }),
    ).toBeNull();
    expect(
      liveEventPatch({ event: 'stop', payload: { deviceId: null, tool: 'validator', validatorId: 4, status: 'idle' } }),
    ).toBeNull();
    expect(liveEventPatch({ event: 'count_success', payload: { deviceId: 'd', value: 9, income: 0 } })).toMatchObject({
      count_success: 9,
    });
  });

  it("counts take the account's new count, and flash", () => {
    expect(liveEventPatch(count(4, { income: 150 }))).toMatchObject({
      count_success: 4,
      income: 150,
      successUpdated: true,
    });
    expect(liveEventPatch({ event: 'count_fail', payload: { ...device, value: 2, income: 0 } })).toMatchObject({
      count_fail: 2,
      failUpdated: true,
    });
    expect(
      liveEventPatch({
        event: 'count_synced',
        payload: { ...device, count_success: 5, count_fail: 1, income: 500, delivered: 4, read: 2 },
      }),
    ).toEqual({ count_success: 5, count_fail: 1, income: 500 });
  });

  it('shows the transient indicators in priority order, never while reconnecting', () => {
    let row = toRow(base);
    row = apply(row, { event: 'waiting', payload: { ...device, waitTime: 12, value: '6281' } });
    expect(rowStatusText(row)).toBe('Waiting (12s)...');
    row = apply(row, { event: 'progressing', payload: { ...device, value: '6281', target: 1, progress: 0 } });
    expect(rowStatusText(row)).toBe('Sending...');
    row = { ...row, waiting: true, waitTime: 3 };
    expect(rowStatusText(row)).toBe('Sending...');
    row = { ...row, attempting: true, attemptingCode: '408' };
    expect(rowStatusText(row)).toBe('Fail, attempting (408)...');
    row = { ...row, state: 'reconnecting...', attempting: true };
    expect(rowStatusText(row)).toBe('Reconnecting...');
    row = apply(toRow(base), { event: 'idle', payload: { ...device, status: 'idle' } });
    expect(rowStatusText(row)).toBe('Connected');
  });

  it('says why a blast waits on the installation until its next step goes on', () => {
    let row = apply(toRow(base), {
      event: 'waiting',
      payload: { ...device, waitTime: 0, value: '', reason: 'Menunggu database…' },
    });
    expect(rowStatusText(row)).toBe('Menunggu database…');
    row = apply(row, { event: 'progressing', payload: { ...device, value: '62811', sendId: 's-1' } });
    expect(rowStatusText(row)).toBe('Sending...');
    // a row loaded while the loop waits says so from the list's own field
    row = { ...toRow(base), waiting_reason: 'Menunggu Redis…' };
    expect(rowStatusText(row)).toBe('Menunggu Redis…');
  });

  it('follows connection, suspension and run status', () => {
    let row = apply(toRow({ ...base, status: 'sending' }), {
      event: 'connection.update',
      payload: { ...device, state: 'conflict' },
    });
    expect(row).toMatchObject({ state: 'conflict', status: 'idle' });
    expect(canReconnect(row)).toBe(true);
    row = apply(row, { event: 'suspended', payload: { ...device, suspended_count: 2, state: 'suspended' } });
    expect(rowStatusText(row)).toBe('Suspended (2x)');
    expect(canReconnect(row)).toBe(false);
    row = apply(row, { event: 'sending', payload: { ...device, status: 'sending' } });
    expect(row.status).toBe('sending');
    row = apply(row, {
      event: 'reset',
      payload: { ...device, state: 'connected', count_success: 0, count_fail: 0, income: 0 },
    });
    expect(row).toMatchObject({ count_success: 0, count_fail: 0, income: 0, state: 'connected' });
  });

  it("keeps the day's count current and knows when the daily cap is reached", () => {
    let row = toRow({ ...base, status: 'sending', daily_cap: 3, sent_today: 1 });
    expect(isCapped(row)).toBe(false);
    row = apply(row, count(1, { income: 100, sent_today: 2 }));
    expect(row.sent_today).toBe(2);
    row = apply(row, { event: 'count_fail', payload: { ...device, value: 1, income: 100, sent_today: 3 } });
    expect(row.sent_today).toBe(3);
    expect(isCapped(row)).toBe(true);
    // a count without the day's figure leaves it
    expect(apply(row, count(2)).sent_today).toBe(3);
  });

  it('a blast that ends at the cap leaves the row capped, even when its cap figure is stale', () => {
    // the settings lowered the cap after the list was fetched: the row still says 1/30
    const sending = toRow({ ...base, status: 'sending', daily_cap: 30, sent_today: 1 });
    const end = (message: string, reason: BlastEndReason): LiveMessage => ({
      event: 'finished',
      payload: { ...device, state: 'connected', status: 'idle', message, reason },
    });
    const row = apply(sending, end(SAFETY_TEXTS.dailyCap, 'daily_cap'));
    expect(row).toMatchObject({ status: 'idle', requesting: null, capReached: true });
    expect(isCapped(row)).toBe(true);
    const done = apply(sending, end(BLAST_TEXTS.noTargets, 'finished'));
    expect(isCapped(done)).toBe(false);
    // a fetch (a new day) starts the row over from the server's figures
    expect(isCapped(toRow({ ...base, daily_cap: 30, sent_today: 0 }))).toBe(false);
  });

  it('blocks start and stop when the connection is gone', () => {
    for (const s of [null, 'disconnected', 'unknown', 'loggedOut', 'conflict']) expect(isCutOff(s)).toBe(true);
    for (const s of ['connected', 'suspended', 'reconnecting...']) expect(isCutOff(s)).toBe(false);
  });
});
