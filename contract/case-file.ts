import { z } from 'zod';
import { ExportFileSchema } from './case.ts';
import { ServiceCustomerIdSchema } from './service-id.ts';

/**
 * The case file: one PDF per customer, for an examiner. Made in main (both hosts run it in Node), handed to
 * the renderer as base64 and saved as the other exports are. Personal data is masked as on screen; in full
 * only with a reason, which the audit log records as any reveal does.
 */

export const PAGE_SIZES = ['A4', 'Letter'] as const;
export const PageSizeSchema = z.enum(PAGE_SIZES);
export type PageSize = z.infer<typeof PageSizeSchema>;

export const CaseFileInputSchema = z.strictObject({
  customerId: ServiceCustomerIdSchema,
  pageSize: PageSizeSchema,
  /** Personal data in full (never more of the SSN than its last four) only with a reason, audited. */
  revealReason: z
    .string()
    .trim()
    .min(5, 'Say why the case file needs personal data in full (at least 5 characters).')
    .max(500)
    .optional(),
});
export type CaseFileInput = z.input<typeof CaseFileInputSchema>;

/** A PDF: its bytes in base64 (text crosses Electron's IPC and browser mode's JSON alike); `count` its pages. */
export const CaseFileSchema = ExportFileSchema.extend({
  mimeType: z.literal('application/pdf'),
  encoding: z.literal('base64'),
});
export type CaseFile = z.infer<typeof CaseFileSchema>;

export const caseFileChannels = {
  /** Gathers the customer's case from the journal, renders it, audits its production. */
  'case.file': { input: CaseFileInputSchema, output: CaseFileSchema },
} as const;

export type CaseFileChannel = keyof typeof caseFileChannels;
