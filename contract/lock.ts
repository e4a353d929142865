import { z } from 'zod';

/**
 * The desk's idle lock (#40). Main holds the state: the renderer reports input, follows `lock.changed`, and
 * asks to lock now (the reviewer's key, or its own idle timer: main keeps one too, so a silent page still
 * locks). Locked, only these channels and a few that hold no personal data answer (main/ground/lock/lock-gate.ts).
 */

/** At least this many characters for a lock secret set in Settings (the vault passphrase has its own rule). */
export const MIN_LOCK_SECRET_LENGTH = 8;
export const DEFAULT_IDLE_MINUTES = 15;
export const MAX_IDLE_MINUTES = 240;
export const DEFAULT_LOCK_KEY = 'Ctrl+Shift+L';

export const IdleMinutesSchema = z
  .number()
  .int('Idle minutes are a whole number.')
  .min(1, 'The desk locks after at least 1 minute idle.')
  .max(MAX_IDLE_MINUTES, `The desk locks after at most ${MAX_IDLE_MINUTES} minutes idle.`);

/** A key with at least one of Ctrl, Alt or Meta (so that typing never locks), e.g. `Ctrl+Shift+L`. */
export const LockKeySchema = z
  .string()
  .regex(
    /^(?=.*\b(Ctrl|Alt|Meta)\+)((Ctrl|Alt|Shift|Meta)\+)+([A-Z0-9]|F([1-9]|1[0-2]))$/,
    'Choose a key with Ctrl, Alt or Meta, such as Ctrl+Shift+L.',
  );

export const LockReasonSchema = z.enum(['idle', 'os-lock', 'suspend', 'key', 'start']);
export type LockReason = z.infer<typeof LockReasonSchema>;

/** What opens the desk: the vault's passphrase where it has one, else a secret set here; none yet: unarmed. */
export const LockSecretKindSchema = z.enum(['vault-passphrase', 'lock-secret', 'none']);

export const LockStateSchema = z.object({
  locked: z.boolean(),
  /** Why it locked; null while unlocked. */
  reason: LockReasonSchema.nullable(),
  /** The computer's name and who works at it: all a lock screen names. */
  desk: z.string(),
  reviewer: z.string(),
  /** Whether it locks at all: a desk with no secret to unlock it with does not. */
  armed: z.boolean(),
  secret: LockSecretKindSchema,
  /** Minutes without input before it locks: the desk's own, never past the team's maximum. */
  idleMinutes: z.number().int(),
  ownIdleMinutes: z.number().int(),
  /** The lead's maximum for the team; null on a solo desk. */
  teamMaximum: z.number().int().nullable(),
  key: LockKeySchema.nullable(),
  /**
   * Wrong attempts in a row, and how long the desk still waits (from this answer) before it checks another:
   * 0 when it does not. A span, not a time: the page counts it down on its own clock, whatever main's says.
   */
  failures: z.number().int(),
  waitMs: z.number().int().nonnegative(),
});
export type LockState = z.infer<typeof LockStateSchema>;

// Never logged, never echoed back: the outputs are only the lock's state.
const secret = z.string().max(1024, 'A secret can be at most 1024 characters long.');

export const LockArmSchema = z.strictObject({
  secret: secret.min(
    MIN_LOCK_SECRET_LENGTH,
    `Choose a secret of at least ${MIN_LOCK_SECRET_LENGTH} characters.`,
  ),
  /** The secret set before, to change it; not asked the first time. */
  current: secret.optional(),
});

export const LockSettingsPatchSchema = z.strictObject({
  idleMinutes: IdleMinutesSchema.optional(),
  key: LockKeySchema.nullable().optional(),
});

export const lockChannels = {
  'lock.state': { input: z.undefined(), output: LockStateSchema },
  /** Sets the lock secret (where the vault has no passphrase); changing it asks for the one before. */
  'lock.arm': { input: LockArmSchema, output: LockStateSchema },
  'lock.configure': { input: LockSettingsPatchSchema, output: LockStateSchema },
  'lock.unlock': {
    input: z.strictObject({ secret: secret.min(1, 'Enter the desk’s secret.') }),
    output: LockStateSchema,
  },
  /** The reviewer's key, or the page's own idle timer. */
  'lock.now': { input: z.strictObject({ reason: z.enum(['idle', 'key']) }), output: LockStateSchema },
  /** The reviewer's input (the page sends it at most every few seconds); ignored while locked. */
  'lock.activity': { input: z.undefined(), output: z.object({ locked: z.boolean() }) },
} as const;

export const lockEvents = {
  /** Locked, unlocked, a wrong attempt, the settings changed: every window follows. */
  'lock.changed': LockStateSchema,
} as const;

/** Codes of the lock's typed refusals. */
export const LockErrorCode = {
  locked: 'Locked',
  wrongSecret: 'WrongLockSecret',
  wait: 'LockWait',
  unarmed: 'LockUnarmed',
  refused: 'LockRefused',
} as const;

/** How long the desk still waits before it checks another attempt, in words: "45 seconds", "2 minutes". */
export function waitInWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const hours = Math.ceil(minutes / 60);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}
