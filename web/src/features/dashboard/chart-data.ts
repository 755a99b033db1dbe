import type { ChartsResponse, HourFigures } from '@wa/shared';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The messages chart covers the last 7 days, hour by hour. */
export const CHART_HOURS = 7 * 24;
/** The income chart covers the last 30 days. */
export const CHART_DAYS = 30;

/** A point of a time series: epoch milliseconds and a figure. */
export type Point = [number, number];

/**
 * The messages per hour as three series over every hour of the last 7 days up to `now`'s hour:
 * the API gives only the hours that had messages, and a quiet hour must be drawn as 0, not as a
 * line between its neighbours.
 */
export function hourlySeries(
  hourly: HourFigures[],
  now: number,
): { sent: Point[]; delivered: Point[]; failed: Point[] } {
  const byHour = new Map(hourly.map((h) => [Math.floor(Date.parse(h.hour) / HOUR_MS) * HOUR_MS, h]));
  const last = Math.floor(now / HOUR_MS) * HOUR_MS;
  const sent: Point[] = [];
  const delivered: Point[] = [];
  const failed: Point[] = [];
  for (let t = last - (CHART_HOURS - 1) * HOUR_MS; t <= last; t += HOUR_MS) {
    const h = byHour.get(t);
    sent.push([t, h?.sent ?? 0]);
    delivered.push([t, h?.delivered ?? 0]);
    failed.push([t, h?.failed ?? 0]);
  }
  return { sent, delivered, failed };
}

/** The delivery rate per account as percentages with one decimal, labelled by phone number. */
export function accountRates(accounts: ChartsResponse['accounts']): { labels: string[]; rates: number[] } {
  return {
    labels: accounts.map((a) => a.phonenumber ?? `#${a.whatsapp_id} (dihapus)`),
    rates: accounts.map((a) => Math.round(a.rate * 1000) / 10),
  };
}

const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Income per day over the 30 days up to `today` (YYYY-MM-DD), a day without income as 0. The days
 * are the server's (APP_TIMEZONE); when the server is already a day further than this browser,
 * its last day is the end.
 */
export function incomeSeries(income: ChartsResponse['income'], today: string): { dates: string[]; values: number[] } {
  const byDay = new Map(income.map((d) => [d.date, d.income]));
  const end = Math.max(dayMs(today), ...income.map((d) => dayMs(d.date)));
  const dates: string[] = [];
  const values: number[] = [];
  for (let t = end - (CHART_DAYS - 1) * DAY_MS; t <= end; t += DAY_MS) {
    const date = dayOf(t);
    dates.push(date);
    values.push(byDay.get(date) ?? 0);
  }
  return { dates, values };
}

/** This browser's calendar day as YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
