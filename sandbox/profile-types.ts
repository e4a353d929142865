/**
 * The words a behaviour profile's hooks speak in (the `Profile` itself is in ../types.ts, beside
 * the app that holds it): the profiles' names, the reasons a document fails, the customer fields
 * only the real service has, and time windows on the sandbox clock.
 */
export const PROFILE_NAMES = ['interface', 'real'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export type FailureReason = 'ScanNotReadable' | 'ScanNameMismatch' | 'ScanDobMismatch';

/** Fields the real service accepts beside the interface's and returns on GET. */
export interface CustomerExtras {
  phone?: string;
  correlationId?: string;
}

/** A time window on the sandbox clock: `from` inclusive, `to` exclusive. */
export interface TimeWindow {
  from: number;
  to: number;
}

export const ALL_TIME: TimeWindow = { from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER };
