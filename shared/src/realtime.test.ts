import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  isLiveEvent,
  isProcessError,
  isToolMessage,
  type LiveEventMap,
  type LiveMessage,
  type ToolLiveMessage,
} from './realtime';

describe('isToolMessage', () => {
  it("tells a tool's message from an account's by `tool` alone, for the events both send", () => {
    const blast: LiveMessage = { event: 'count_success', payload: { deviceId: 'd', value: 3, income: 100 } };
    const check: LiveMessage = {
      event: 'count_success',
      payload: { deviceId: 'd', tool: 'validator', validatorId: 2, value: 3, progress: 50 },
    };
    const stopped: LiveMessage = {
      event: 'stop',
      payload: { deviceId: null, tool: 'generator', generatorId: 7, status: 'idle' },
    };
    expect(isToolMessage(blast)).toBe(false);
    expect(isToolMessage(check)).toBe(true);
    expect(isToolMessage(stopped)).toBe(true);
    // a target number's row change names neither
    expect(isToolMessage({ event: 'update_target', payload: { receiver: { id: 1, status: 'optout' } } })).toBe(false);
  });

  it('narrows the message, so each side reads its own payload', () => {
    const m = {
      event: 'finished',
      payload: { deviceId: 'd', tool: 'generator', generatorId: 7, state: 'finished', status: 'idle' },
    } as LiveMessage;
    if (isToolMessage(m)) {
      expectTypeOf(m).toEqualTypeOf<ToolLiveMessage>();
      if (m.event === 'finished' && m.payload.tool === 'generator') expect(m.payload.generatorId).toBe(7);
    } else if (m.event === 'finished') {
      // an account's end: a blast's, with its reason
      expectTypeOf(m.payload.reason).toEqualTypeOf<LiveEventMap['error_blast']['reason']>();
    }
  });
});

describe('the names and kinds read off the wire', () => {
  it('knows the live events of this version, and a process failure from a device error', () => {
    expect(isLiveEvent('count_success')).toBe(true);
    expect(isLiveEvent('connection.update')).toBe(true);
    expect(isLiveEvent('a_newer_event')).toBe(false);
    expect(isLiveEvent(undefined)).toBe(false);
    expect(isProcessError({ event: 'error', payload: { kind: 'unhandledRejection', message: 'x' } })).toBe(true);
    expect(isProcessError({ event: 'error', payload: { deviceId: 'd', message: 'no room' } })).toBe(false);
  });
});
