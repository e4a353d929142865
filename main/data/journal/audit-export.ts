// The audit log's export as JSON Lines, and its check offline (`npm run team -- verify-audit --file`): one
// line per entry, oldest first, each with its place in the chain, and a last line naming the chain's head
// when the export was made. An export of the whole log is the chain itself: every link is checked, from the
// chain's start to that head. A filtered export (by person, action, customer, time) lists some entries only:
// each is checked on its own (its content against its hash, its hash against its links, its seal), and two
// listed entries that follow one another are checked to link; that none was left out cannot be shown.
import { z } from 'zod';
import { AuditFilterSchema, AuditRowSchema } from '#contract/case.ts';
import { type AuditSealer, isChainHash } from './audit-chain.ts';
import { keyStretches, type StretchKey } from './audit-stretches.ts';
import { AuditChainError, type ChainPoint, chainChecker } from './audit-verify.ts';
import type { AuditFilter, AuditHead, LinkedAuditEntry, WrappedAuditKey } from './repositories/audit.ts';

const Hash = z.string().refine(isChainHash, 'a 64-digit lower-case hex hash');

const ChainFieldsSchema = z.object({
  v: z.number().int(),
  prev: Hash,
  content: Hash,
  hash: Hash,
  seal: Hash,
});

/** An entry as the Audit screen shows it (the action in words aside), and its chain. */
const EntryRecordSchema = AuditRowSchema.omit({ what: true }).extend({ chain: ChainFieldsSchema });

const HeadRecordSchema = z.object({
  head: z.object({
    seq: z.number().int().nonnegative(),
    hash: Hash,
    seal: Hash.nullable(),
    keyCheck: Hash,
    entries: z.number().int().nonnegative(),
    filter: AuditFilterSchema.nullable(),
    /** A team's audit keys, each wrapped by the team key of when the export was made. */
    auditKeys: z
      .array(
        z.object({
          id: z.string().regex(/^[a-z0-9-]{1,40}$/),
          from: z.number().int().nonnegative(),
          after: z.string().nullable(),
          wrapped: z.string().min(1),
        }),
      )
      .optional(),
  }),
});

/** An export line: the entry, `extra` fields for people (the action in words), and its chain. */
export function entryRecord(
  { link, ...entry }: LinkedAuditEntry,
  extra: Record<string, unknown> = {},
): string {
  const { version: v, prevHash: prev, contentHash: content, chainHash: hash, seal } = link;
  return `${JSON.stringify({ ...entry, ...extra, chain: { v, prev, content, hash, seal } })}\n`;
}

/** The export's last line: the chain's head when the export was made, what it lists and how it was chosen. */
export function headRecord(head: AuditHead, entries: number, filter: AuditFilter): string {
  const chosen = Object.values(filter).some((value) => value !== undefined) ? filter : null;
  const { seq, chainHash: hash, seal, keyCheck, auditKeys } = head;
  const keys = auditKeys ? { auditKeys } : {};
  return `${JSON.stringify({ head: { seq, hash, seal, keyCheck, entries, filter: chosen, ...keys } })}\n`;
}

/** A file that is not an audit export, or was cut: what is wrong, in words. */
export class AuditExportError extends Error {
  override name = 'AuditExportError';
}

export interface ExportVerdict {
  entries: number;
  /** The whole log: every link checked from the chain's start to its head. */
  whole: boolean;
  filter: AuditFilter | null;
  head: ChainPoint;
  sealed: boolean;
  /** A team's audit keys, with the entry each begins at (its seals checked with each). */
  keys?: { id: string; from: number }[];
}

function parseLine<T>(schema: z.ZodType<T>, line: string, number: number): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new AuditExportError(`Line ${number} is not JSON: this is not an audit export of Vetted's.`);
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const toEntry = (record: z.infer<typeof EntryRecordSchema>): LinkedAuditEntry => ({
  seq: record.seq,
  at: record.at,
  actor: record.actor,
  action: record.action,
  customerId: record.customerId,
  outcome: record.outcome,
  detail: record.detail,
  link: {
    version: record.chain.v,
    prevHash: record.chain.prev,
    contentHash: record.chain.content,
    chainHash: record.chain.hash,
    seal: record.chain.seal,
  },
});

/**
 * Checks an export's chain; with `sealer` (the audit key), its seals too; a team's export names its audit keys
 * wrapped, and `openKeys` opens them (with the key file's team key). Throws AuditChainError naming the first
 * entry that does not hold, or AuditExportError for a file that is not a whole export.
 */
export function verifyAuditExport(
  text: string,
  sealer?: AuditSealer,
  openKeys?: (wrapped: readonly WrappedAuditKey[]) => StretchKey[],
): ExportVerdict {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const last = lines.pop();
  const record = last === undefined ? undefined : parseLine(HeadRecordSchema, last, lines.length + 1);
  if (!record) {
    throw new AuditExportError(
      'The file does not end with the head record an audit export of Vetted ends with: it was cut short, or it is not one.',
    );
  }
  const { head } = record;
  if (sealer && sealer.keyCheck !== head.keyCheck) {
    throw new AuditExportError(
      "The key file's audit key is not the one this export's log was sealed with: another team's key, or the team's key was rotated after the export was made (verify a fresh export).",
    );
  }
  const whole = head.filter === null;
  const keys =
    sealer && openKeys && head.auditKeys ? keyStretches(openKeys(head.auditKeys), sealer) : undefined;
  const checker = chainChecker({ ...(sealer ? { sealer } : {}), ...(keys ? { keys } : {}), whole });
  lines.forEach((line, index) => {
    const entry = parseLine(EntryRecordSchema, line, index + 1);
    if (!entry) throw new AuditExportError(`Line ${index + 1} is not an audit entry with its chain fields.`);
    checker.add(toEntry(entry));
  });
  const point = { seq: head.seq, chainHash: head.hash };
  const summary = checker.finish(point);
  if (summary.entries !== head.entries) {
    throw new AuditChainError(
      head.seq,
      `the file lists ${summary.entries} entries but its head record says ${head.entries}: entries were removed from the file, or added`,
    );
  }
  if (summary.last && summary.last.seq > head.seq) {
    throw new AuditChainError(summary.last.seq, `entry ${summary.last.seq} comes after the export's head`);
  }
  if (sealer && head.seq > 0 && !(head.seal && sealer.holds(head.hash, head.seal))) {
    throw new AuditChainError(
      head.seq,
      "the export's head does not carry the audit key's seal: it was altered",
    );
  }
  return {
    entries: summary.entries,
    whole,
    filter: head.filter,
    head: point,
    sealed: summary.sealed,
    ...(keys ? { keys: keys.keys.map(({ id, from }) => ({ id, from })) } : {}),
  };
}
