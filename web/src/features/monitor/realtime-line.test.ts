import type { LiveMessage } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { formatLineDate, lineOf } from './realtime-line';

const ID = 'id-1700000000000-7';
const at = new Date(2025, 0, 2, 3, 4, 5);

describe('lineOf', () => {
  it('ignores events of other devices', () => {
    expect(lineOf({ event: 'connection.update', payload: { deviceId: 'id-1700000000000-8' } }, ID)).toBeNull();
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
    const line = lineOf(
      { event: 'authenticated', payload: { deviceId: ID, clientInfo: { phonenumber: '6281200000009' } } },
      ID,
      at,
    );
    expect(line).toMatchObject({ date: at, tone: 'green', number: '6281200000009', state: null, status: null });
  });

  it('finds the device through the sender, and the wait of a waiting event', () => {
    const line = lineOf(
      {
        event: 'waiting',
        payload: { sender: { clientid: ID, state: 'connected' }, waitTime: '3', value: '62851234567' },
      },
      ID,
      at,
    );
    expect(line).toMatchObject({ state: 'connected', waitTime: 3, number: '62851234567', tone: null });
  });
});

describe('formatLineDate', () => {
  it('writes local date and time', () => {
    expect(formatLineDate(at)).toBe('2025-01-02 03:04:05');
  });
});
