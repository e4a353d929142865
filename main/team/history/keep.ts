// Leaving a team keeps, on the desk, a read-only copy of what this reviewer did in it (#30). Their audit
// entries are appended to the desk's own audit chain (append-only and sealed, so the copy cannot be edited),
// each naming the team entry it copies and when it was done there; a leave repeated copies none twice. Their
// notes are in the desk's replica already (with everyone's the desk was shown) and stay when it leaves.
// Entries the desk brought into the team when it joined are its own already and are not copied back.
import type pg from 'pg';

import type { KeptCopy } from '#contract/team-history.ts';
import type { SqliteJournal } from '#main/data/journal/index.ts';
import { type AuditEntry, uncheckedAction } from '#main/data/journal/repositories/audit.ts';
import { AuditRowSchema } from '../journal/audit.ts';
import { parseRows } from '../journal/rows.ts';

const KEPT = 'kept from team ';
const PAGE = 200;

/** An entry this desk copied from a team it left (keepTeamCopy): never brought into a team again. */
export const isKeptFromTeam = (entry: Pick<AuditEntry, 'detail'>) => entry.detail?.startsWith(KEPT) ?? false;

const keptMarker = (teamId: string, seq: number) => `${KEPT}${teamId.slice(0, 8)} #${seq}`;

/** The team entries of `teamId` this desk holds copies of already, by their number in the team's chain. */
async function keptAlready(local: SqliteJournal, teamId: string): Promise<Set<number>> {
  const prefix = `${KEPT}${teamId.slice(0, 8)} #`;
  const kept = new Set<number>();
  for (let after = 0; ; ) {
    const entries = await local.audit.linked({ afterSeq: after, limit: PAGE * 5 });
    if (entries.length === 0) return kept;
    for (const entry of entries) {
      if (entry.detail?.startsWith(prefix)) kept.add(Number.parseInt(entry.detail.slice(prefix.length), 10));
    }
    after = entries.at(-1)?.seq ?? after;
  }
}

export async function keepTeamCopy(options: {
  local: SqliteJournal;
  pool: pg.Pool;
  teamId: string;
  /** The reviewer's login: whose entries and notes are kept. */
  login: string;
}): Promise<KeptCopy> {
  const { local, pool, teamId, login } = options;
  const kept = await keptAlready(local, teamId);
  let copied = 0;
  for (let after = 0; ; ) {
    const { rows } = await pool.query(
      `SELECT seq, at, actor, action, customer_id, outcome, detail FROM vetted.audit_log
        WHERE actor = $1 AND seq > $2 AND coalesce(detail, '') NOT LIKE 'brought from desk %'
        ORDER BY seq LIMIT $3`,
      [login, after, PAGE],
    );
    const entries = parseRows(AuditRowSchema, 'audit_log', rows);
    if (entries.length === 0) break;
    const due = entries.filter((entry) => !kept.has(entry.seq));
    await local.transaction(async (tx) => {
      for (const entry of due) {
        const detail = entry.detail ? `; ${entry.detail}` : '';
        await tx.audit.record({
          action: uncheckedAction(entry.action),
          customerId: entry.customerId,
          outcome: entry.outcome,
          actor: entry.actor,
          detail: `${keptMarker(teamId, entry.seq)}: done ${entry.at}${detail}`,
        });
      }
    });
    copied += due.length;
    after = entries.at(-1)?.seq ?? after;
  }
  return { auditEntries: copied, notes: await local.history.teamNotesBy(login) };
}
