import { describe, expect, it } from 'vitest';
import { parseAnalytics } from './analytics-cache';

describe('parseAnalytics', () => {
  const cached = {
    userId: 7,
    whatsappCount: { connectedCount: 2, disconnectedCount: 1 },
    todayIncome: 1500,
    balance: 0,
    todayCount: { success: 3, fail: 1 },
  };

  it('gives back the figures cached for the same user', () => {
    expect(parseAnalytics(JSON.stringify(cached), 7)).toEqual({
      whatsappCount: { connectedCount: 2, disconnectedCount: 1 },
      todayIncome: 1500,
      balance: 0,
      todayCount: { success: 3, fail: 1 },
    });
  });

  it("never shows another user's figures", () => {
    expect(parseAnalytics(JSON.stringify(cached), 8)).toEqual({});
  });

  it('drops figures of the wrong shape and survives a broken cookie', () => {
    const odd = { userId: 7, balance: '1000', totalCount: { success: 1 }, totalBonus: 250, extra: 1 };
    expect(parseAnalytics(JSON.stringify(odd), 7)).toEqual({ totalBonus: 250 });
    expect(parseAnalytics('{not json', 7)).toEqual({});
    expect(parseAnalytics('null', 7)).toEqual({});
    expect(parseAnalytics(null, 7)).toEqual({});
  });
});
