// Calendar days in a time zone, for figures counted per day (the trends): a day is `YYYY-MM-DD` on the wall
// clock of an IANA time zone, and it starts when that clock reads midnight — 23 or 25 hours after the day
// before when daylight saving time begins or ends. Pure arithmetic on Intl: no clock is read here.

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** The wall clock's reading at `at`, as if it were UTC (ms). */
function wallTime(at: number, timeZone: string): number {
  const parts = Object.fromEntries(
    wallClock(timeZone)
      .formatToParts(new Date(at))
      .map((part) => [part.type, part.value]),
  );
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
}

/** How far the zone's wall clock is ahead of UTC at `at` (ms; whole seconds). */
const offsetAt = (at: number, timeZone: string) => wallTime(at, timeZone) - Math.floor(at / 1000) * 1000;

/** Whether `timeZone` is one Intl knows (an IANA name such as Europe/Paris, or UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    wallClock(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** This computer's time zone: what "today" is on this desk. */
export function deskTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The day `at` falls on in `timeZone`. */
export function dayOf(at: Date, timeZone: string): string {
  return new Date(wallTime(at.getTime(), timeZone)).toISOString().slice(0, 10);
}

/** The day `n` days after `day` (before, when negative). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday of `day`'s week (weeks start on Monday, as PostgreSQL's date_trunc('week') has them). */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * The moment `day` begins in `timeZone`: when the wall clock reads its midnight. Where a zone skips midnight
 * (DST beginning at 00:00) or shows it twice, the later moment, as PostgreSQL's `timestamp AT TIME ZONE`
 * reads such a wall time — so a solo desk's days are the team store's.
 */
export function startOfDay(day: string, timeZone: string): Date {
  const midnight = Date.parse(`${day}T00:00:00.000Z`);
  // The offsets in force around that midnight: the one a day before it and a day after cover both sides of
  // any change of offset on that day.
  const offsets = [
    ...new Set([offsetAt(midnight - DAY_MS, timeZone), offsetAt(midnight + DAY_MS, timeZone)]),
  ];
  const fits = offsets.filter((offset) => offsetAt(midnight - offset, timeZone) === offset);
  return new Date(midnight - Math.min(...(fits.length > 0 ? fits : offsets)));
}
