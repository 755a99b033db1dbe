import { describe, expect, it } from 'vitest';
import { receiverChange } from './live-receiver';

describe('receiverChange', () => {
  it('reads a success with its count, time and in_use, to flash green', () => {
    const last = '2026-11-23T10:00:00.000Z';
    expect(
      receiverChange({
        event: 'count_success',
        payload: {
          deviceId: 'd',
          value: 9,
          income: 0,
          receiver: { id: 4, count_success: 2, count_fail: 0, last_sent: last, in_use: 0 },
        },
      }),
    ).toEqual({ key: 4, patch: { count_success: 2, last_sent: last, in_use: 0, successUpdated: true } });
  });

  it('reads a failure and an in_use flag', () => {
    const receiver = { id: 4, count_success: 0, count_fail: 1, last_sent: null, in_use: 0 };
    expect(receiverChange({ event: 'count_fail', payload: { deviceId: 'd', value: 1, income: 0, receiver } })).toEqual({
      key: 4,
      patch: { count_fail: 1, last_sent: null, in_use: 0, failUpdated: true },
    });
    expect(receiverChange({ event: 'in_use', payload: { deviceId: 'd', receiver: { id: 7, in_use: 1 } } })).toEqual({
      key: 7,
      patch: { in_use: 1 },
    });
  });

  it('reads update_target: the counts a failure receipt moved, or an opt-out', () => {
    expect(
      receiverChange({ event: 'update_target', payload: { receiver: { id: 5, count_success: 0, count_fail: 1 } } }),
    ).toEqual({ key: 5, patch: { count_success: 0, count_fail: 1 } });
    expect(receiverChange({ event: 'update_target', payload: { receiver: { id: 6, status: 'optout' } } })).toEqual({
      key: 6,
      patch: { status: 'optout' },
    });
    expect(receiverChange({ event: 'update_target', payload: { receiver: { id: 6, status: 'weird' } } })).toBeNull();
  });

  it("ignores counts without a receiver (the owner's channel), a tool's counts and other events", () => {
    expect(receiverChange({ event: 'count_success', payload: { deviceId: 'd', value: 3, income: 0 } })).toBeNull();
    expect(
      receiverChange({
        event: 'count_success',
        payload: { deviceId: 'd', tool: 'validator', validatorId: 2, value: 3, progress: 50 },
      }),
    ).toBeNull();
    expect(receiverChange({ event: 'stop', payload: { deviceId: 'd', status: 'idle' } })).toBeNull();
  });
});
