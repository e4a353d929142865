import { z } from 'zod';
import { SectionSchema } from './queue.ts';
import { ServiceCustomerIdSchema, serviceIdOf } from './service-id.ts';

/** The case panel, notes, stored document images, the audit log and exports: channels and shapes. */

export const MAX_NOTE_CHARS = 4000;

/** Characters as a reader counts them (code points), not UTF-16 units. */
export const noteLength = (text: string) => [...text].length;

export const NoteTextSchema = z
  .string()
  .trim()
  .min(1, 'Write the note first.')
  .refine((text) => noteLength(text) <= MAX_NOTE_CHARS, {
    message: `A note holds at most ${MAX_NOTE_CHARS.toLocaleString('en-US')} characters.`,
  });

export const NoteInputSchema = z.strictObject({ customerId: ServiceCustomerIdSchema, text: NoteTextSchema });

export const NoteSchema = z.object({
  customerId: z.string(),
  at: z.iso.datetime(),
  author: z.string(),
  text: z.string(),
});
export type Note = z.infer<typeof NoteSchema>;

export const TimelineKindSchema = z.enum(['status', 'event', 'action', 'note', 'reveal', 'document']);
export type TimelineKind = z.infer<typeof TimelineKindSchema>;

/** One thing that happened to a customer, in words, with who and when. */
export const TimelineEntrySchema = z.object({
  /** Stable across reads: the React key, and what "show older" keeps. */
  key: z.string(),
  kind: TimelineKindSchema,
  at: z.iso.datetime(),
  /** A person (the OS user in solo mode), or "The service". */
  who: z.string(),
  title: z.string(),
  /** The cause, the reason, the note's text… */
  detail: z.string().nullable(),
  /** The webhook event behind it, to open in the event log. */
  eventId: z.string().nullable(),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export const TIMELINE_PAGE = 50;

export const TimelineInputSchema = z.strictObject({
  id: ServiceCustomerIdSchema,
  /** The newest this many entries; "show older" asks for more. */
  limit: z.number().int().min(1).max(2000),
});

export const TimelineSchema = z.object({
  entries: z.array(TimelineEntrySchema),
  /** More entries exist beyond `limit`. */
  hasOlder: z.boolean(),
});
export type Timeline = z.infer<typeof TimelineSchema>;

export const StoredImageInfoSchema = z.object({
  documentId: z.string(),
  customerId: z.string(),
  at: z.iso.datetime(),
  documentType: z.string(),
  contentType: z.string(),
});
export type StoredImageInfo = z.infer<typeof StoredImageInfoSchema>;

export const StoredImageSchema = StoredImageInfoSchema.extend({ base64: z.string() });
export type StoredImage = z.infer<typeof StoredImageSchema>;

const DocumentIdSchema = z.strictObject({ documentId: serviceIdOf('document') });

export const AuditFilterSchema = z.strictObject({
  actor: z.string().min(1).max(200).optional(),
  action: z.string().min(1).max(200).optional(),
  customerId: z.string().trim().min(1).max(200).optional(),
  /** Inclusive. */
  from: z.iso.datetime().optional(),
  /** Exclusive. */
  to: z.iso.datetime().optional(),
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

export const AuditRowSchema = z.object({
  seq: z.number().int(),
  at: z.iso.datetime(),
  /** '' when the entry predates recording who. */
  actor: z.string(),
  action: z.string(),
  /** The action in words. */
  what: z.string(),
  customerId: z.string().nullable(),
  /**
   * The customer's name when Vetted knows the customer: the Audit screen shows it beside the ID. Exports
   * leave it out, as the queue's masked export does: a name is personal data.
   */
  customerName: z.string().nullable().optional(),
  outcome: z.string(),
  detail: z.string().nullable(),
});
export type AuditRow = z.infer<typeof AuditRowSchema>;

export const AuditWindowInputSchema = z.strictObject({
  filter: AuditFilterSchema,
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(500),
});

export const AuditWindowSchema = z.object({
  rows: z.array(AuditRowSchema),
  total: z.number().int(),
  /** Every person and action recorded, for the filter. */
  actors: z.array(z.string()),
  actions: z.array(z.object({ action: z.string(), what: z.string() })),
});
export type AuditWindow = z.infer<typeof AuditWindowSchema>;

export const ExportFormatSchema = z.enum(['csv', 'jsonl']);
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

/** A file made in main, for the renderer to hand to the reviewer (a download, or a save dialog). */
export const ExportFileSchema = z.object({
  fileName: z.string(),
  mimeType: z.string(),
  content: z.string(),
  count: z.number().int(),
});
export type ExportFile = z.infer<typeof ExportFileSchema>;

export const QueueExportInputSchema = z.strictObject({
  section: SectionSchema.or(z.literal('all')),
  search: z.string().max(200),
  /** Names in full only with a reason, which the audit log records; masked otherwise. */
  revealReason: z
    .string()
    .trim()
    .min(5, 'Say why the export needs names in full (at least 5 characters).')
    .max(500)
    .optional(),
});
export type QueueExportInput = z.infer<typeof QueueExportInputSchema>;

export const caseChannels = {
  'customers.timeline': { input: TimelineInputSchema, output: TimelineSchema },
  'notes.add': { input: NoteInputSchema, output: NoteSchema },
  'documents.stored': {
    input: z.strictObject({ customerId: ServiceCustomerIdSchema }),
    output: z.array(StoredImageInfoSchema),
  },
  'documents.image': { input: DocumentIdSchema, output: StoredImageSchema },
  /** Deletes a stored image for good (audited). */
  'documents.purgeImage': { input: DocumentIdSchema, output: z.object({ purged: z.boolean() }) },
  'audit.window': { input: AuditWindowInputSchema, output: AuditWindowSchema },
  'audit.export': {
    input: z.strictObject({ filter: AuditFilterSchema, format: ExportFormatSchema }),
    output: ExportFileSchema,
  },
  'queue.export': { input: QueueExportInputSchema, output: ExportFileSchema },
} as const;

export type CaseChannel = keyof typeof caseChannels;
