import type { LiveMessage } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { formatLineDate, lineOf, lineParts } from './realtime-line';

const ID = 'id-1700000000000-7';
const at = new Date(2025, 0, 2, 3, 4, 5);

describe('lineOf', () => {
  it('ignores events of other devices', () => {
    expect(
      lineOf({ event: 'connection.update', payload: { deviceId: 'id-1700000000000-8', state: null } }, ID),
    ).toBeNull();
    // a target number's row change names no device
    expect(lineOf({ event: 'update_target', payload: { receiver: { id: 1, status: 'optout' } } }, ID)).toBeNull();
  });

  it('reads the realtime monitor message of §3, yellow for connection.update', () => {
    const m: LiveMessage = {
      event: 'connection.update',
      payload: {
        date: '2025-01-02T03:04:05.000Z',
        deviceId: ID,
        state: 'disconnected',
        status: 'idle',
        reconnectTime: 2,
        waitTime: 5,
        number: '6281200000001',
        sender: { id: 1, user_id: 2, clientid: ID, state: 'connected', status: 'idle' },
      },
    };
    expect(lineOf(m, ID, at)).toEqual({
      date: new Date('2025-01-02T03:04:05.000Z'),
      event: 'connection.update',
      state: 'disconnected',
      status: 'idle',
      reconnect: 2,
      waitTime: 5,
      number: '6281200000001',
      tone: 'yellow',
    });
  });

  it("reads the engine's own events: authenticated is green with the account's number", () => {
    const clientInfo = {
      phonenumber: '6281200000009',
      pushname: 'Sim',
      server: 'c.us',
      serialized: '6281200000009@c.us',
    };
    const line = lineOf({ event: 'authenticated', payload: { deviceId: ID, clientInfo } }, ID, at);
    expect(line).toMatchObject({ date: at, tone: 'green', number: '6281200000009', state: null, status: null });
  });

  it("takes the state from the sender when the event has none, and a waiting event's target number", () => {
    const sender = { id: 1, user_id: 2, clientid: ID, state: 'connected', status: 'sending' } as const;
    const line = lineOf(
      { event: 'waiting', payload: { deviceId: ID, sender, waitTime: 3, value: '62851234567' } },
      ID,
      at,
    );
    expect(line).toMatchObject({
      state: 'connected',
      status: 'sending',
      waitTime: 3,
      number: '62851234567',
      tone: null,
    });
  });
});

describe('lineParts', () => {
  it('says how many times the session was reconnected, and the wait in seconds (§2 Monitor)', () => {
    // a rebuild's event as the engine sends it: the monitor's fields beside its own
    const reconnecting: LiveMessage = {
      event: 'reconnecting',
      payload: {
        date: '2025-01-02T03:04:05.000Z',
        deviceId: ID,
        state: 'reconnecting...',
        status: 'idle',
        number: '6281200000001',
        reconnectTime: 2,
        sender: { id: 4, user_id: 2, clientid: ID, state: 'reconnecting...', status: 'idle' },
      },
    };
    const line = lineOf(reconnecting, ID, at);
    expect(line && lineParts(line)).toEqual([
      'state: reconnecting...',
      'status: idle',
      'reconnect 2 times',
      'number: 6281200000001',
    ]);
    const waiting = lineOf({ event: 'waiting', payload: { deviceId: ID, waitTime: 5, value: '' } }, ID, at);
    expect(waiting && lineParts(waiting)).toEqual(['wait 5 seconds']);
  });

  it('leaves the reconnect count out of an event that does not carry it', () => {
    const line = lineOf(
      { event: 'count_success', payload: { deviceId: ID, value: 3, income: 0, status: 'sending' } },
      ID,
      at,
    );
    expect(line && lineParts(line)).toEqual(['status: sending']);
  });
});

describe('formatLineDate', () => {
  it('writes local date and time', () => {
    expect(formatLineDate(at)).toBe('2025-01-02 03:04:05');
  });
});
