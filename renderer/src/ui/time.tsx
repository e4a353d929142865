import { useEffect, useState } from 'react';

const UNITS: { unit: 'day' | 'hour' | 'minute'; ms: number }[] = [
  { unit: 'day', ms: 86_400_000 },
  { unit: 'hour', ms: 3_600_000 },
  { unit: 'minute', ms: 60_000 },
];

const formats = new Map<string, Intl.NumberFormat>();
function formatUnit(value: number, unit: string): string {
  let format = formats.get(unit);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'unit', unit, unitDisplay: 'long' });
    formats.set(unit, format);
  }
  return format.format(value);
}

/**
 * How long since `since`, in the largest whole unit ("3 days", "5 hours"). A time ahead of ours (the
 * sandbox's clock can run ahead) counts as just now rather than as a negative wait.
 */
export function elapsedSince(since: string, now: number): string {
  const elapsed = now - Date.parse(since);
  for (const { unit, ms } of UNITS) {
    if (elapsed >= ms) return formatUnit(Math.floor(elapsed / ms), unit);
  }
  return 'under a minute';
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString();
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

/** "3 days", with the exact moment for anyone who hovers or reads the markup. */
export function TimeSince({ since, now }: { since: string; now: number }) {
  return (
    <time dateTime={since} title={formatDateTime(since)}>
      {elapsedSince(since, now)}
    </time>
  );
}
