/**
 * How the trends write a day and a length of time. A day is a calendar day of the desk's time zone
 * (`YYYY-MM-DD`): it is written as that date, whatever the reviewer's own time zone.
 */
const SHORT_DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const LONG_DAY = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** "Nov 23": an axis's tick. */
export const shortDay = (day: string): string => SHORT_DAY.format(asDate(day));
/** "Mon, Nov 23, 2026": a table's row. */
export const longDay = (day: string): string => LONG_DAY.format(asDate(day));

/** The unit a chart of times counts in: the largest under which its longest time is at least 2. */
export interface TimeUnit {
  seconds: number;
  /** As an axis writes it: "2 h". */
  short: string;
}
const TIME_UNITS: readonly TimeUnit[] = [
  { seconds: 86_400, short: 'd' },
  { seconds: 3_600, short: 'h' },
  { seconds: 60, short: 'min' },
];

export function timeUnitFor(longestSeconds: number): TimeUnit {
  return TIME_UNITS.find((unit) => longestSeconds >= 2 * unit.seconds) ?? (TIME_UNITS.at(-1) as TimeUnit);
}
