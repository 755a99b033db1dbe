import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from './rate-limit';

describe('AttemptLimiter', () => {
  it('take counts and checks in one step: a burst gets exactly `max` through, then the wait', () => {
    let now = 0;
    const limiter = new AttemptLimiter(3, 60_000, () => now);
    const answers = Array.from({ length: 5 }, () => limiter.take('a'));
    expect(answers).toEqual([0, 0, 0, 60, 60]);
    expect(limiter.count('a')).toBe(3);
    // another key has its own count; the window's end lets the key try again
    expect(limiter.take('b')).toBe(0);
    now = 60_000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.count('a')).toBe(1);
  });

  it('release takes one attempt back (a right password), hit says how many are counted', () => {
    const limiter = new AttemptLimiter(2, 60_000, () => 0);
    expect(limiter.hit('a')).toBe(1);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.retryAfter('a')).toBe(60);
    limiter.release('a');
    expect(limiter.retryAfter('a')).toBe(0);
    limiter.release('a');
    limiter.release('a');
    expect(limiter.count('a')).toBe(0);
    expect(limiter.hit('a')).toBe(1);
  });
});
