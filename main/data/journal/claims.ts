// The desk's copy of the team's claims (migration 10): written only by the team replica (replica.ts), read by
// the team's claims on this desk and by the queue (queue-filters.ts). A solo desk's table stays empty.
import type { ClaimHow } from '#contract/claims.ts';
import type { Statements } from './db.ts';
import type { PersonalCipher, PersonalPlace } from './personal.ts';

export type { ClaimHow } from '#contract/claims.ts';

/** A case's claim as the team store holds it, the note opened: who holds it (null: nobody), and how. */
export interface ReplicaClaim {
  /** The change that last wrote it. */
  seq: number;
  customerId: string;
  holder: string | null;
  /** When the holder got it; null with no holder. */
  since: string | null;
  how: ClaimHow;
  /** Who made the change: the holder, a lead (reassign, take over), whoever swept an expiry. */
  changedBy: string;
  changedAt: string;
  /** A reassignment's note or a take-over's reason. */
  note: string | null;
}

export type LocalClaim = Omit<ReplicaClaim, 'seq'>;

/** A claim applied to the replica, with who held the case before (null: nobody, or not known here yet). */
export interface ClaimChange {
  claim: ReplicaClaim;
  before: string | null;
}

/** A note's AAD: bound to the case (the team store seals it the same, with the team key). */
export const claimNotePlace = (customerId: string): PersonalPlace => ({
  table: 'claims',
  id: customerId,
  column: 'note',
});

// Only a newer change replaces a claim: a page read before a later one was applied must not win.
const UPSERT = `
INSERT INTO claims (customer_id, holder, since, how, changed_by, changed_at, note, team_seq)
VALUES (:customerId, :holder, :since, :how, :changedBy, :changedAt, :note, :seq)
ON CONFLICT (customer_id) DO UPDATE SET holder = excluded.holder, since = excluded.since, how = excluded.how,
  changed_by = excluded.changed_by, changed_at = excluded.changed_at, note = excluded.note,
  team_seq = excluded.team_seq
WHERE claims.team_seq < excluded.team_seq`;

interface ClaimRow {
  customer_id: string;
  holder: string | null;
  since: string | null;
  how: ClaimHow;
  changed_by: string;
  changed_at: string;
  note: string | null;
}

export function claimRows(sql: Statements, cipher: PersonalCipher) {
  return {
    /** Applies one claim (inside the replica's transaction); null when the copy held a newer one. */
    apply(claim: ReplicaClaim): ClaimChange | null {
      const before = sql.get<{ holder: string | null }>('SELECT holder FROM claims WHERE customer_id = :id', {
        id: claim.customerId,
      });
      const note = claim.note === null ? null : cipher.seal(claimNotePlace(claim.customerId), claim.note);
      const { changes } = sql.run(UPSERT, { ...claim, note });
      return changes === 0 ? null : { claim, before: before?.holder ?? null };
    },

    get(customerId: string): LocalClaim | undefined {
      const row = sql.get<ClaimRow>(
        'SELECT customer_id, holder, since, how, changed_by, changed_at, note FROM claims WHERE customer_id = :id',
        { id: customerId },
      );
      if (!row) return undefined;
      return {
        customerId: row.customer_id,
        holder: row.holder,
        since: row.since,
        how: row.how,
        changedBy: row.changed_by,
        changedAt: row.changed_at,
        note: row.note === null ? null : cipher.open(claimNotePlace(customerId), row.note),
      };
    },
  };
}
