/** The service keeps events and webhook history this long: nothing older can be caught up on. */
export const RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The date range (YYYY-MM-DD, both ends inclusive) that can hold anything the service still keeps:
 * from a day before the retention began (our clock and the service's may differ) to a day after now.
 */
export function retainedDates(nowMs: number): { startDate: string; endDate: string } {
  return { startDate: day(nowMs - (RETENTION_DAYS + 1) * DAY_MS), endDate: day(nowMs + DAY_MS) };
}

/** Whether an event created at `created` is older than anything the service still keeps, seen from `newest`. */
export function beyondRetention(created: string, newest: string): boolean {
  const age = Date.parse(newest) - Date.parse(created);
  return Number.isFinite(age) && age > (RETENTION_DAYS + 1) * DAY_MS;
}
