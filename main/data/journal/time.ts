/** The journal's clock, injectable so tests can order events. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/**
 * Times are stored as `YYYY-MM-DDTHH:mm:ss.sssZ` text: UTC with a fixed width, so text order is time
 * order and an index on a time column serves "longest waiting first". A time from the service that
 * does not parse gives `fallback`.
 */
export function isoTime(value: string | Date, fallback?: string): string {
  const date = value instanceof Date ? value : new Date(value);
  if (!Number.isNaN(date.getTime())) return date.toISOString();
  if (fallback !== undefined) return fallback;
  throw new RangeError('Not a valid time');
}

export function latest(a: string, b: string): string {
  return a > b ? a : b;
}
