import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backoffMs, DEFAULT_DELIVERY_SETTINGS, deferralDelayMs, signature } from './deliver';
import { deliveryJobId, hears } from './webhooks';

describe('webhook deliveries', () => {
  it('sign "{timestamp}.{body}" with the secret, as the receivers check it', () => {
    const body = '{"event":"optout"}';
    const want = createHmac('sha256', 'whsec_x').update(`1700000000.${body}`).digest('hex');
    expect(signature('whsec_x', 1700000000, body)).toBe(`sha256=${want}`);
    expect(signature('whsec_y', 1700000000, body)).not.toBe(`sha256=${want}`);
    expect(signature('whsec_x', 1700000001, body)).not.toBe(`sha256=${want}`);
  });

  it('wait twice as long after each failure, at most 4 hours, about 14 tries in a day', () => {
    const base = DEFAULT_DELIVERY_SETTINGS.retryBaseMs;
    expect([1, 2, 3, 4].map((n) => backoffMs(n, base))).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffMs(30, base)).toBe(4 * 3600_000);
    let elapsed = 0;
    let attempts = 1;
    while (elapsed + backoffMs(attempts, base) <= DEFAULT_DELIVERY_SETTINGS.retryForMs) {
      elapsed += backoffMs(attempts, base);
      attempts += 1;
    }
    expect(attempts).toBeGreaterThanOrEqual(12);
    expect(attempts).toBeLessThanOrEqual(16);
  });

  it('wait longer each time they find no free slot: 0.5 s, doubling, at most 30 s, spread out', () => {
    const top = () => 1;
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((n) => deferralDelayMs(n, top))).toEqual([
      500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect(deferralDelayMs(1000, top)).toBe(30_000);
    expect(deferralDelayMs(0, () => 0)).toBe(375);
    expect(deferralDelayMs(6, () => 0)).toBe(22_500);
  });

  it('go to the owner’s endpoints, and to every admin’s and dev’s, for the events they chose', () => {
    const mine = { id: 1, userId: 7, events: new Set(['optout']), everyone: false, since: 0 };
    const admins = { id: 2, userId: 1, events: new Set(['optout', 'message.sent']), everyone: true, since: 0 };
    expect(hears(mine, 'optout', 7)).toBe(true);
    expect(hears(mine, 'optout', 8)).toBe(false);
    expect(hears(mine, 'message.sent', 7)).toBe(false);
    expect(hears(admins, 'optout', 8)).toBe(true);
    expect(hears(admins, 'blast.started', 8)).toBe(false);
    expect(deliveryJobId(5, 0)).toBe('wh-5-0');
  });
});
