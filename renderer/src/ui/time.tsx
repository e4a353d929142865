import { useEffect, useState } from 'react';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const UNITS: { ms: number; short: string; long: 'day' | 'hour' | 'minute' }[] = [
  { ms: DAY, short: 'd', long: 'day' },
  { ms: HOUR, short: 'h', long: 'hour' },
  { ms: MINUTE, short: 'min', long: 'minute' },
];

const longFormats = new Map<string, Intl.NumberFormat>();
function formatLong(value: number, unit: string): string {
  let format = longFormats.get(unit);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'unit', unit, unitDisplay: 'long' });
    longFormats.set(unit, format);
  }
  return format.format(value);
}

/** The largest whole unit in `elapsed` ms; a negative time (the sandbox's clock can run ahead) is none. */
function wholeUnit(elapsed: number): { value: number; unit: (typeof UNITS)[number] } | null {
  for (const unit of UNITS) {
    if (elapsed >= unit.ms) return { value: Math.floor(elapsed / unit.ms), unit };
  }
  return null;
}

/** A length of time, short enough for a column: "4 min", "2 h", "3 d", "< 1 min". */
export function durationShort(ms: number): string {
  const whole = wholeUnit(ms);
  return whole ? `${whole.value} ${whole.unit.short}` : '< 1 min';
}

/** The same in words, as a screen reader says it: "4 minutes", "2 hours", "3 days", "under a minute". */
export function durationLong(ms: number): string {
  const whole = wholeUnit(ms);
  return whole ? formatLong(whole.value, whole.unit.long) : 'under a minute';
}

/** How long since `since`, short enough for a column: "4 min", "2 h", "3 d", "< 1 min". */
export const elapsedShort = (since: string, now: number): string => durationShort(now - Date.parse(since));

/** The same in words: "4 minutes", "2 hours", "3 days", "under a minute". */
export const elapsedSince = (since: string, now: number): string => durationLong(now - Date.parse(since));

/** The reviewer's own way of writing dates (the system's locale and time zone). */
const dates = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(undefined, options);
const FULL = dates({ dateStyle: 'medium', timeStyle: 'medium' });
const COMPACT = dates({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const CLOCK = dates({ hour: 'numeric', minute: '2-digit' });
const DAY_TITLE = dates({ weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
// A key that sorts, in the reviewer's time zone: en-CA writes dates as YYYY-MM-DD.
const DAY_KEY = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' });

/** The moment in full, to the second: what a hover shows, and what exports carry (as ISO). */
export function formatDateTime(iso: string): string {
  return FULL.format(new Date(iso));
}

/** Day and time to the minute, for a table's column: "Nov 27, 2:30 PM". */
export function formatCompactDateTime(iso: string): string {
  return COMPACT.format(new Date(iso));
}

/** The time of day: "2:30 PM". */
export function formatClockTime(iso: string): string {
  return CLOCK.format(new Date(iso));
}

/** The local day a moment falls on, as a key that sorts: "2026-11-27". */
export function dayKey(iso: string | number): string {
  return DAY_KEY.format(new Date(iso));
}

/** A day as a heading: "Today", "Yesterday", else "Friday, November 20, 2026". */
export function formatDayTitle(iso: string, now: number): string {
  const day = dayKey(iso);
  if (day === dayKey(now)) return 'Today';
  if (day === dayKey(now - DAY)) return 'Yesterday';
  return DAY_TITLE.format(new Date(iso));
}

/** The current time, re-read every `everyMs` so that "time in status" keeps up while the screen is open. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * "3 d" on screen, "3 days" to a screen reader, and the exact moment for anyone who hovers or reads the
 * markup.
 */
export function TimeSince({ since, now }: { since: string; now: number }) {
  return (
    <time dateTime={since} title={formatDateTime(since)}>
      <span aria-hidden="true">{elapsedShort(since, now)}</span>
      <span className="visually-hidden">{elapsedSince(since, now)}</span>
    </time>
  );
}

/** A length of time as the queue writes time in status: "2 h" on screen, "2 hours" to a screen reader. */
export function Duration({ ms }: { ms: number }) {
  return (
    <span title={durationLong(ms)}>
      <span aria-hidden="true">{durationShort(ms)}</span>
      <span className="visually-hidden">{durationLong(ms)}</span>
    </span>
  );
}

/** A measured length of time in seconds, as Duration writes it; a dash, "none measured", where there is none. */
export function SecondsOrNone({ seconds }: { seconds: number | null }) {
  return seconds === null ? (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">none measured</span>
    </>
  ) : (
    <Duration ms={seconds * 1000} />
  );
}

/** A moment in a table or list: compact on screen, in full on hover. */
export function Moment({
  at,
  format = formatCompactDateTime,
}: {
  at: string;
  format?: (iso: string) => string;
}) {
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {format(at)}
    </time>
  );
}
