// `npm run team -- verify-audit`: checks the team's audit chain and every seal, in the store (with the key
// file) or in an export file (offline; the seals too when given the key file). The first entry that was
// changed, removed or moved is named, and the command fails; a log that holds is reported with its length
// and head, which the administrator may note: `--head SEQ:HASH` later shows that entry is still there. Each
// stretch of the chain is checked with its audit key (a new one begins at every rotation of the team key),
// the newest being the key file's own; the verdict says where each begins.
import fs from 'node:fs';
import type pg from 'pg';
import { z } from 'zod';
import { auditSealer, sealerOfAuditKey } from '#main/data/journal/audit-chain.ts';
import { AuditExportError, type ExportVerdict, verifyAuditExport } from '#main/data/journal/audit-export.ts';
import type { StretchKey } from '#main/data/journal/audit-stretches.ts';
import { AuditChainError, type ChainPoint, chainChecker } from '#main/data/journal/audit-verify.ts';
import type { WrappedAuditKey } from '#main/data/journal/repositories/audit.ts';
import { DecryptError } from '#main/ground/crypto.ts';
import { LINKED_COLUMNS, LinkedRowSchema } from '#main/team/journal/audit.ts';
import { PgSeq, parseRow, parseRows } from '#main/team/journal/rows.ts';
import { auditStretches } from '#main/team/keys/audit-keys.ts';
import { loadKeyRing, unwrapKey } from '#main/team/keys/key-ring.ts';
import { AUDIT_CHAINED_FROM_SCHEMA } from '#main/team/store/migrations/index.ts';
import { teamSchemaVersion } from '#main/team/store/migrations/runner.ts';
import { TeamAdminError } from './errors.ts';
import { readKeyFile } from './key-file.ts';
import { readTeamMeta } from './team-meta.ts';
import { inTransactionOn } from './transaction.ts';

/** Entries read per query: the check holds one page in memory at a time. */
const PAGE = 5_000;

const HeadRowSchema = z.object({ seq: PgSeq, chain_hash: z.string() });

/** `SEQ:HASH`, as a verified log's head is printed. */
export function parseChainPoint(text: string): ChainPoint {
  const match = /^(\d+):([0-9a-f]{64})$/.exec(text.trim());
  if (!match) throw new TeamAdminError('--head takes SEQ:HASH, as verify-audit prints a head.');
  return { seq: Number(match[1]), chainHash: match[2]! };
}

const failed = (error: unknown): never => {
  if (error instanceof AuditChainError) {
    throw new TeamAdminError(`The audit log does not hold: ${error.message}.`);
  }
  throw error;
};

/** Where each audit key begins, as the verdicts print it. */
export type KeysBegun = { id: string; from: number }[];

/** Checks the store's whole chain, and every seal with the audit key of its stretch. */
export async function verifyStoreAudit(
  client: pg.Client,
  { keyFile, holds }: { keyFile: string; holds?: ChainPoint },
): Promise<{ entries: number; head: ChainPoint; keys: KeysBegun }> {
  const meta = await readTeamMeta(client);
  if (!meta)
    throw new TeamAdminError('This database is not a Vetted team store: run `npm run team -- init`.');
  const version = await teamSchemaVersion(client);
  if (version < AUDIT_CHAINED_FROM_SCHEMA) {
    throw new TeamAdminError(
      `The team store is at schema ${version}; its audit log is chained from schema ${AUDIT_CHAINED_FROM_SCHEMA} on: run \`npm run team -- migrate --key-file FILE\`.`,
    );
  }
  const teamKey = readKeyFile(keyFile, meta.keyCheck);
  // One snapshot: entries appended while the check runs are neither half-seen nor beyond the head read.
  const check = inTransactionOn(
    client,
    async () => {
      const headRow = parseRow(
        HeadRowSchema,
        'audit_head',
        (await client.query('SELECT seq, chain_hash FROM vetted.audit_head')).rows,
      );
      const keys = auditStretches(await loadKeyRing(client, teamKey), teamKey);
      const checker = chainChecker({ keys, whole: true, ...(holds ? { holds } : {}) });
      for (let after = 0; ; ) {
        const { rows } = await client.query(
          `SELECT ${LINKED_COLUMNS} FROM vetted.audit_log WHERE seq > $1 ORDER BY seq LIMIT $2`,
          [after, PAGE],
        );
        for (const entry of parseRows(LinkedRowSchema, 'audit_log', rows)) {
          checker.add(entry);
          after = entry.seq;
        }
        if (rows.length < PAGE) break;
      }
      const head = { seq: headRow.seq, chainHash: headRow.chain_hash };
      const begun = keys.keys.map(({ id, from }) => ({ id, from }));
      return { entries: checker.finish(head).entries, head, keys: begun };
    },
    'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
  );
  return check.catch(failed);
}

/** Checks an export file offline; its seals too with the key of `keyFile`. */
export function verifyExportFile(file: string, keyFile?: string): ExportVerdict {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new TeamAdminError(`The export ${file} could not be read.`);
  }
  const teamKey = keyFile ? readKeyFile(keyFile) : undefined;
  const sealer = teamKey ? auditSealer(teamKey) : undefined;
  try {
    return verifyAuditExport(text, sealer, teamKey && ((wrapped) => openAuditKeys(teamKey, wrapped)));
  } catch (error) {
    return failed(error);
  }
}

/** An export's audit keys, opened with the key file's team key. */
function openAuditKeys(teamKey: Buffer, wrapped: readonly WrappedAuditKey[]): StretchKey[] {
  return wrapped.map(({ id, from, after, wrapped: sealed }) => {
    try {
      const key = unwrapKey(teamKey, after === null ? id : { id, from, after }, sealed);
      return { id, from, after, sealer: sealerOfAuditKey(key) };
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
      throw new AuditExportError(
        `The export's audit key ${id} does not open with this key file: it was altered, or the team's key was rotated after the export was made (verify a fresh export).`,
      );
    }
  });
}

const headText = (head: ChainPoint) => `${head.seq}:${head.chainHash}`;

/** "Audit keys: audit from entry 1, a…-… from entry 57.", when a rotation began more than one. */
const keysText = (keys: KeysBegun | undefined) =>
  keys && keys.length > 1
    ? `Audit keys (each seal checked with its own): ${keys.map(({ id, from }) => `${id} from entry ${Math.max(from, 1)}`).join(', ')}.\n`
    : '';

export function storeVerdictText({
  entries,
  head,
  keys,
}: {
  entries: number;
  head: ChainPoint;
  keys?: KeysBegun;
}): string {
  return (
    `OK: the audit log holds. ${entries} entries, every link and every seal checked.\n` +
    `Head: ${headText(head)}\n` +
    keysText(keys) +
    'Note the head: `verify-audit --head SEQ:HASH` later shows that no entry up to it was removed since.\n'
  );
}

export function exportVerdictText(verdict: ExportVerdict): string {
  const seals = verdict.sealed
    ? 'every seal checked with the team key'
    : 'seals NOT checked (no --key-file): whoever can write the log could have recomputed this chain';
  if (verdict.whole) {
    return (
      `OK: the export holds the whole audit chain, ${verdict.entries} entries from its start to its head; ${seals}.\n` +
      `Head: ${headText(verdict.head)}\n${keysText(verdict.keys)}`
    );
  }
  const filter = Object.entries(verdict.filter ?? {})
    .map(([key, value]) => `${key} ${value}`)
    .join(', ');
  return (
    `OK: the export's ${verdict.entries} entries (filtered: ${filter}) are each as written; ${seals}.\n` +
    `The chain's head when it was exported: ${headText(verdict.head)}\n${keysText(verdict.keys)}` +
    'A filtered export cannot show that no entry was left out of it: export the whole log for that.\n'
  );
}
