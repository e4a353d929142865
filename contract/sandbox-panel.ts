import { z } from 'zod';

/**
 * The Sandbox panel: the built-in sandbox's controls, offered only while Vetted runs on it. Every
 * channel here is refused with `NotSandbox` on a real service.
 */

/** The kinds of failure the sandbox can inject (sandbox/faults.ts), in the words the panel shows. */
export const SANDBOX_FAULTS = {
  '503': 'Service unavailable (503)',
  '500': 'Server error after the work is done (500)',
  '429': 'Too many requests (429)',
  reset: 'Connection reset after the work is done',
  delay: 'Slow answers (held 2 s)',
} as const;
export type SandboxFault = keyof typeof SANDBOX_FAULTS;
export const SandboxFaultSchema = z.enum(Object.keys(SANDBOX_FAULTS) as [SandboxFault, ...SandboxFault[]]);

export const SandboxPanelSchema = z.object({
  baseUrl: z.string(),
  clientId: z.string(),
  /** A command that gets a token from the sandbox and lists its customers, ready to paste. */
  curl: z.string(),
  /** The sandbox's clock, ISO; ahead of real time once advanced. */
  now: z.string(),
  /** The fault injected now, null when none. */
  fault: z.object({ kind: SandboxFaultSchema, rate: z.number() }).nullable(),
});
export type SandboxPanel = z.infer<typeof SandboxPanelSchema>;

export const SetFaultInputSchema = z.strictObject({
  /** null clears every fault. */
  kind: SandboxFaultSchema.nullable(),
  /** The share of requests that fail, 0.05 to 1. */
  rate: z.number().min(0.05).max(1).default(0.5),
});

/**
 * Sample customers (the empty queue's "Add sample customers", on the built-in sandbox only). A customer is a
 * sample when its e-mail is at this domain: the rule the queue's "Sample" tag reads, nothing else.
 */
export const SAMPLE_EMAIL_DOMAIN = 'sample.vetted.example';
export const isSampleEmail = (email: string | null | undefined): boolean =>
  typeof email === 'string' && email.toLowerCase().endsWith(`@${SAMPLE_EMAIL_DOMAIN}`);

export const AddSamplesResultSchema = z.object({
  /** Samples sent through the drafts' create path by this call. */
  added: z.number().int(),
  /** Samples already there (in the queue or on their way): left as they are. */
  alreadyThere: z.number().int(),
});
export type AddSamplesResult = z.infer<typeof AddSamplesResultSchema>;

export const sandboxChannels = {
  /** A dozen sample customers across the statuses, created like a reviewer's; twice adds nothing. */
  'sandbox.addSamples': { input: z.undefined(), output: AddSamplesResultSchema },
  'sandbox.panel': { input: z.undefined(), output: SandboxPanelSchema },
  /** Moves the sandbox clock past every pending review, so they finish (and their webhooks go) now. */
  'sandbox.finishReviews': { input: z.undefined(), output: SandboxPanelSchema },
  'sandbox.setFault': { input: SetFaultInputSchema, output: SandboxPanelSchema },
} as const;
