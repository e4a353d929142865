// Calendar days in a time zone (main/ground/calendar.ts): a day starts when the zone's wall clock reads
// midnight, so it lasts 23 or 25 hours when daylight saving time begins or ends — and where midnight itself is
// skipped or shown twice, the later moment, as PostgreSQL's `timestamp AT TIME ZONE` reads it.
import { describe, expect, it } from 'vitest';
import { addDays, dayOf, isTimeZone, mondayOf, startOfDay } from '#main/ground/calendar.ts';

const HOUR = 3_600_000;
const length = (day: string, zone: string) =>
  (startOfDay(addDays(day, 1), zone).getTime() - startOfDay(day, zone).getTime()) / HOUR;

describe('calendar days in a time zone', () => {
  it('starts a day at the zone’s midnight, 25 hours long when New York falls back, 23 when it springs forward', () => {
    expect(startOfDay('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDay('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(length('2026-11-01', 'America/New_York')).toBe(25);
    expect(length('2026-03-08', 'America/New_York')).toBe(23);
    expect(length('2026-03-09', 'America/New_York')).toBe(24);
    expect(startOfDay('2026-07-01', 'UTC').toISOString()).toBe('2026-07-01T00:00:00.000Z');
    expect(startOfDay('2026-07-01', 'Asia/Kolkata').toISOString()).toBe('2026-06-30T18:30:00.000Z');
  });

  it('takes the later moment where midnight is skipped (Santiago springs forward at 00:00)', () => {
    // Chile's clocks go from 00:00 to 01:00 on Sunday 6 September 2026: the day begins at 04:00 UTC (the
    // offset before the change, −4 h, as PostgreSQL reads a wall time that never was).
    expect(startOfDay('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    expect(dayOf(startOfDay('2026-09-06', 'America/Santiago'), 'America/Santiago')).toBe('2026-09-06');
    expect(length('2026-09-06', 'America/Santiago')).toBe(23);
  });

  it('tells the day of a moment in the zone', () => {
    expect(dayOf(new Date('2026-11-02T04:30:00.000Z'), 'America/New_York')).toBe('2026-11-01');
    expect(dayOf(new Date('2026-11-02T05:00:00.000Z'), 'America/New_York')).toBe('2026-11-02');
    expect(dayOf(new Date('2026-11-02T04:30:00.000Z'), 'UTC')).toBe('2026-11-02');
  });

  it('counts days and weeks on the calendar, from Monday', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(mondayOf('2026-11-04')).toBe('2026-11-02');
    expect(mondayOf('2026-11-02')).toBe('2026-11-02');
    expect(mondayOf('2026-11-01')).toBe('2026-10-26');
  });

  it('knows a time zone from a name that is none', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
