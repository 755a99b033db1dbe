import { type SQL, sql } from 'drizzle-orm';

/**
 * The calendar of APP_TIMEZONE, for the rules that count per day (daily caps, check budgets) and
 * the hours blasts may send in. The database does the day arithmetic (it knows every zone's
 * offsets and daylight saving); the send window needs only the local time of day.
 */

/** The instant the current calendar day ends in `timeZone` (its next local midnight), in SQL. */
export function localDayEnd(timeZone: string): SQL {
  return sql`((date_trunc('day', now() at time zone ${timeZone}::text) + interval '1 day') at time zone ${timeZone}::text)`;
}

/** 'HH:MM' (00:00 to 24:00) as minutes after midnight. */
export function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** One formatter per zone: making one costs far more than using it, and a blast asks per message. */
const clocks = new Map<string, Intl.DateTimeFormat>();

/** Minutes and seconds after local midnight of `at` in `timeZone`. */
function localClock(at: Date, timeZone: string): { minutes: number; seconds: number } {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    clocks.set(timeZone, clock);
  }
  const parts = clock.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minutes: get('hour') * 60 + get('minute'), seconds: get('second') };
}

/**
 * How long until blasts may send, in ms: 0 inside the window [start, end) of local time, else
 * until its next start. A window whose end is before its start runs over midnight (20:00–08:00);
 * start equal to end means no window (always open).
 */
export function msUntilWindow(at: Date, start: string, end: string, timeZone: string): number {
  const s = minutesOf(start);
  const e = minutesOf(end);
  if (s === e || (s === 0 && e === 1440)) return 0;
  const { minutes, seconds } = localClock(at, timeZone);
  const inside = s < e ? minutes >= s && minutes < e : minutes >= s || minutes < e;
  if (inside) return 0;
  const ahead = (s - minutes + 1440) % 1440;
  return (ahead * 60 - seconds) * 1000 - at.getMilliseconds();
}
