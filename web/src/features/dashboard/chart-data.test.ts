import { describe, expect, it } from 'vitest';
import { accountRates, CHART_DAYS, CHART_HOURS, hourlySeries, incomeSeries, localToday } from './chart-data';

describe('hourlySeries', () => {
  const now = Date.parse('2026-11-24T10:35:00Z');

  it('draws every hour of the last 7 days up to this hour, a quiet hour as 0', () => {
    const s = hourlySeries([{ hour: '2026-11-24T08:00:00.000Z', sent: 5, delivered: 4, failed: 1 }], now);
    expect(s.sent).toHaveLength(CHART_HOURS);
    expect(s.sent.at(-1)).toEqual([Date.parse('2026-11-24T10:00:00Z'), 0]);
    expect(s.sent[0][0]).toBe(Date.parse('2026-11-17T11:00:00Z'));
    const at8 = s.sent.findIndex(([t]) => t === Date.parse('2026-11-24T08:00:00Z'));
    expect([s.sent[at8][1], s.delivered[at8][1], s.failed[at8][1]]).toEqual([5, 4, 1]);
    expect(s.sent.reduce((n, [, v]) => n + v, 0)).toBe(5);
  });

  it('leaves out hours older than the window', () => {
    const s = hourlySeries([{ hour: '2026-11-10T08:00:00.000Z', sent: 9, delivered: 9, failed: 0 }], now);
    expect(s.sent.every(([, v]) => v === 0)).toBe(true);
  });
});

describe('accountRates', () => {
  it('gives percentages with one decimal, a deleted account by its id', () => {
    expect(
      accountRates([
        { whatsapp_id: 1, phonenumber: '6281200000001', sent: 3, delivered: 2, rate: 0.6667 },
        { whatsapp_id: 2, phonenumber: null, sent: 1, delivered: 1, rate: 1 },
      ]),
    ).toEqual({ labels: ['6281200000001', '#2 (dihapus)'], rates: [66.7, 100] });
  });
});

describe('incomeSeries', () => {
  it('draws the 30 days up to today, a day without income as 0', () => {
    const s = incomeSeries([{ date: '2026-11-20', income: 7500 }], '2026-11-24');
    expect(s.dates).toHaveLength(CHART_DAYS);
    expect(s.dates[0]).toBe('2026-10-26');
    expect(s.dates.at(-1)).toBe('2026-11-24');
    expect(s.values[s.dates.indexOf('2026-11-20')]).toBe(7500);
    expect(s.values.reduce((a, b) => a + b, 0)).toBe(7500);
  });

  it("ends on the server's day when it is already ahead of this browser", () => {
    const s = incomeSeries([{ date: '2026-11-25', income: 100 }], '2026-11-24');
    expect(s.dates.at(-1)).toBe('2026-11-25');
    expect(s.values.at(-1)).toBe(100);
  });
});

it('localToday is the browser calendar day', () => {
  expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
});
