import { z } from 'zod';

/** stable: releases only; beta: release candidates too (and every stable release newer than them). */
export const UpdateChannelSchema = z.enum(['stable', 'beta']);
export type UpdateChannel = z.infer<typeof UpdateChannelSchema>;

export const UpdatePhaseSchema = z.enum([
  'idle',
  'checking',
  'up-to-date',
  'downloading',
  'downloaded',
  'error',
]);
export type UpdatePhase = z.infer<typeof UpdatePhaseSchema>;

/** Where updates stand, as the Settings screen and the Help menu say it. */
export const UpdateStatusSchema = z.object({
  /** Whether this host updates itself at all. */
  offered: z.boolean(),
  /** When not offered: why, and what to do instead (browser mode, development build, policy). */
  notOffered: z.string().nullable(),
  /** Set when an administrator's policy decides something here: which policy, in words. */
  managedBy: z.string().nullable(),
  channel: UpdateChannelSchema,
  /** The channel is fixed by policy: the reviewer cannot change it. */
  channelLocked: z.boolean(),
  /** A mirrored feed set by policy; null means the feed the build was published with. */
  feedUrl: z.string().nullable(),
  phase: UpdatePhaseSchema,
  currentVersion: z.string(),
  availableVersion: z.string().nullable(),
  progress: z
    .object({ percent: z.number().min(0).max(100), transferred: z.number(), total: z.number() })
    .nullable(),
  lastCheckedAt: z.iso.datetime().nullable(),
  /** What went wrong, in words (a refused signature says so). */
  error: z.string().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

const noInput = z.undefined();

export const updateChannels = {
  'updates.status': { input: noInput, output: UpdateStatusSchema },
  /** Checks now; a found update downloads in the background. */
  'updates.check': { input: noInput, output: UpdateStatusSchema },
  /** "Restart now": quits and installs the downloaded update. */
  'updates.install': { input: noInput, output: UpdateStatusSchema },
  'updates.setChannel': {
    input: z.strictObject({ channel: UpdateChannelSchema }),
    output: UpdateStatusSchema,
  },
} as const;

export const updateEvents = {
  'updates.status': UpdateStatusSchema,
} as const;
