// An audit entry appended with plain SQL, as a desk (or someone at a psql prompt) would: linked after the
// chain's head, which the store requires. `claimedActor` is named in the INSERT to show the store stamps the
// login whatever a client names; the hash covers the login, as the store stamps it.

import { auditSealer, linkAfter } from '#main/data/journal/audit-chain.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import type { Queryable } from '#main/team/store/sql.ts';

export async function insertAuditRow(
  db: Queryable,
  { action, outcome = 'ok', claimedActor }: { action: string; outcome?: string; claimedActor?: string },
  teamKey: Buffer = createFieldKey(),
): Promise<{ seq: number; actor: string }> {
  const { rows } = await db.query<{ seq: string; chain_hash: string; actor: string }>(
    'SELECT seq, chain_hash, actor FROM vetted.audit_chain_head()',
  );
  const head = rows[0]!;
  const entry = {
    seq: Number(head.seq) + 1,
    at: new Date().toISOString(),
    actor: head.actor,
    action,
    customerId: null,
    outcome,
    detail: null,
  };
  const link = linkAfter(head.chain_hash, entry, auditSealer(teamKey));
  const inserted = await db.query<{ seq: string; actor: string }>(
    `INSERT INTO vetted.audit_log (seq, at, actor, action, outcome, hash_version, prev_hash, content_hash,
       chain_hash, seal)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING seq, actor`,
    [
      entry.seq,
      entry.at,
      claimedActor ?? head.actor,
      action,
      outcome,
      link.version,
      link.prevHash,
      link.contentHash,
      link.chainHash,
      link.seal,
    ],
  );
  return { seq: Number(inserted.rows[0]!.seq), actor: inserted.rows[0]!.actor };
}
