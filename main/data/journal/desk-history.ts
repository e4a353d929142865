// What this desk did on its own (solo mode), read for bringing it into a team (main/team/history/): the notes
// and customers it wrote itself (no team change number: the team replica's rows carry one), and the name of
// this journal. Team mode's replica shares the file, so its rows are told apart by `team_seq`, never by mode.
import { createHash } from 'node:crypto';
import type { Statements, Sync } from './db.ts';
import { type NoteRow, noteFromRow } from './notes.ts';
import type { PersonalCipher } from './personal.ts';
import type { Note } from './repositories/notes.ts';

export interface DeskHistory {
  /**
   * This journal's name, the same for as long as the file lives: a hash of its audit chain's first link
   * (append-only, and sealed with this desk's key, so no two journals share it). Undefined while the log is
   * empty.
   */
  deskId(): Promise<string | undefined>;
  /** Notes and customers written here in solo mode. */
  counts(): Promise<{ notes: number; customers: number }>;
  /** Notes written here in solo mode after `seq`, oldest first. */
  notesAfter(seq: number, limit: number): Promise<Note[]>;
  /** Customers this desk recorded in solo mode, by id after `id`. */
  customersAfter(id: string, limit: number): Promise<string[]>;
  /** Notes by `author` copied from a team (the replica keeps them when the desk leaves). */
  teamNotesBy(author: string): Promise<number>;
}

export function deskHistory(sql: Statements, cipher: PersonalCipher): Sync<DeskHistory> {
  const count = (query: string, params: Record<string, string> = {}) =>
    sql.get<{ n: number }>(query, params)?.n ?? 0;
  return {
    deskId() {
      const first = sql.get<{ chain_hash: string }>('SELECT chain_hash FROM audit_log ORDER BY seq LIMIT 1');
      if (!first) return undefined;
      return createHash('sha256').update(`vetted desk ${first.chain_hash}`).digest('hex').slice(0, 32);
    },
    counts() {
      return {
        notes: count('SELECT count(*) AS n FROM notes WHERE team_seq IS NULL'),
        customers: count('SELECT count(*) AS n FROM customers WHERE team_seq IS NULL'),
      };
    },
    notesAfter(seq, limit) {
      return sql
        .all<NoteRow>('SELECT * FROM notes WHERE team_seq IS NULL AND seq > :seq ORDER BY seq LIMIT :limit', {
          seq,
          limit,
        })
        .map((row) => noteFromRow(cipher, row));
    },
    customersAfter(id, limit) {
      return sql
        .all<{ id: string }>(
          'SELECT id FROM customers WHERE team_seq IS NULL AND id > :id ORDER BY id LIMIT :limit',
          { id, limit },
        )
        .map((row) => row.id);
    },
    teamNotesBy(author) {
      return count('SELECT count(*) AS n FROM notes WHERE team_seq IS NOT NULL AND author = :author', {
        author,
      });
    },
  };
}
