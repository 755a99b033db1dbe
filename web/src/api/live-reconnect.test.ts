import { describe, expect, it } from 'vitest';
import {
  BACKOFF_MAX_MS,
  BACKOFF_MIN_MS,
  CLOSE_TOKEN_ENDED,
  CLOSE_TOO_MANY_SOCKETS,
  nextDelay,
  reconnectAfter,
} from './live-reconnect';

describe('reconnectAfter', () => {
  it('keeps the usual back-off for a dropped socket or a server restart', () => {
    expect(reconnectAfter(1006, BACKOFF_MIN_MS, false)).toBe(BACKOFF_MIN_MS);
    expect(reconnectAfter(1001, 4_000, true)).toBe(4_000);
    expect(reconnectAfter(1000, 8_000, false)).toBe(8_000);
  });

  it('leaves a hidden tab pushed out by the user’s newer tabs off until it is shown', () => {
    expect(reconnectAfter(CLOSE_TOO_MANY_SOCKETS, BACKOFF_MIN_MS, true)).toBe('when-shown');
  });

  it('makes a shown tab that was pushed out wait the longest back-off, not 1 s', () => {
    expect(reconnectAfter(CLOSE_TOO_MANY_SOCKETS, BACKOFF_MIN_MS, false)).toBe(BACKOFF_MAX_MS);
  });

  it('waits the longest back-off after a close for too many, unsupported or oversized frames', () => {
    for (const code of [1008, 1003, 1009]) {
      expect(reconnectAfter(code, BACKOFF_MIN_MS, false), String(code)).toBe(BACKOFF_MAX_MS);
      expect(reconnectAfter(code, BACKOFF_MIN_MS, true), String(code)).toBe(BACKOFF_MAX_MS);
    }
  });

  it('does not reconnect with a token the hub said has ended: the token is checked first (4001)', () => {
    expect(CLOSE_TOKEN_ENDED).toBe(4001);
    expect(reconnectAfter(CLOSE_TOKEN_ENDED, BACKOFF_MIN_MS, false)).toBe('check-token');
    expect(reconnectAfter(CLOSE_TOKEN_ENDED, BACKOFF_MAX_MS, true)).toBe('check-token');
  });
});

describe('nextDelay', () => {
  it('doubles from 1 s up to 30 s', () => {
    const seen = [BACKOFF_MIN_MS];
    while (seen.length < 7) seen.push(nextDelay(seen[seen.length - 1]));
    expect(seen).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });
});
