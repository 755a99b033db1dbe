import { describe, expect, it } from 'vitest';
import { msUntilWindow } from './local-time';

const JAKARTA = 'Asia/Jakarta'; // UTC+7, no daylight saving
/** an instant at local Jakarta time hh:mm:ss */
const at = (hh: number, mm: number, ss = 0) => new Date(Date.UTC(2026, 10, 24, hh - 7, mm, ss));

describe('msUntilWindow', () => {
  it('is 0 inside the window and counts to its next start outside it', () => {
    expect(msUntilWindow(at(8, 0), '08:00', '20:00', JAKARTA)).toBe(0);
    expect(msUntilWindow(at(19, 59, 59), '08:00', '20:00', JAKARTA)).toBe(0);
    // the end is not in the window
    expect(msUntilWindow(at(20, 0), '08:00', '20:00', JAKARTA)).toBe(12 * 3600_000);
    expect(msUntilWindow(at(7, 59, 30), '08:00', '20:00', JAKARTA)).toBe(30_000);
    expect(msUntilWindow(at(23, 30), '08:00', '20:00', JAKARTA)).toBe(8.5 * 3600_000);
  });

  it('runs over midnight when the end comes before the start', () => {
    expect(msUntilWindow(at(23, 0), '20:00', '08:00', JAKARTA)).toBe(0);
    expect(msUntilWindow(at(3, 0), '20:00', '08:00', JAKARTA)).toBe(0);
    expect(msUntilWindow(at(12, 0), '20:00', '08:00', JAKARTA)).toBe(8 * 3600_000);
  });

  it('is always open for 00:00–24:00 or equal ends, and follows the zone', () => {
    expect(msUntilWindow(at(3, 0), '00:00', '24:00', JAKARTA)).toBe(0);
    expect(msUntilWindow(at(3, 0), '09:00', '09:00', JAKARTA)).toBe(0);
    // 10:00 in Jakarta is 03:00 UTC: outside 08:00–20:00 there
    expect(msUntilWindow(at(10, 0), '08:00', '20:00', 'UTC')).toBe(5 * 3600_000);
  });
});
