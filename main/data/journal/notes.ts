// Reviewers' notes on a case: plain text, journaled, encrypted at rest (a note may quote personal data).
// Searching them decrypts each once and keeps the text in memory: they are few beside customers (a handful per
// case a reviewer touched), and an index over their words on disk would be a plaintext copy of what the
// encryption is there to protect.
import { MAX_NOTE_CHARS, noteLength } from '#contract/case.ts';
import type { Statements, Sync } from './db.ts';
import type { PersonalCipher, PersonalPlace } from './personal.ts';
import type { Note, NotesRepository } from './repositories/notes.ts';
import { type Clock, isoTime } from './time.ts';

export interface NoteRow {
  seq: number;
  customer_id: string;
  at: string;
  author: string;
  body: string;
}

/** A note's body is sealed for its row (team mode's replica seals the notes it copies the same way). */
export const notePlace = (seq: number): PersonalPlace => ({
  table: 'notes',
  id: String(seq),
  column: 'body',
});

/** A row of the notes table, its body opened. */
export const noteFromRow = (cipher: PersonalCipher, row: NoteRow): Note => ({
  seq: row.seq,
  customerId: row.customer_id,
  at: row.at,
  author: row.author,
  text: cipher.open(notePlace(row.seq), row.body),
});

export function notesRepository(
  sql: Statements,
  cipher: PersonalCipher,
  clock: Clock,
  actor: string,
): Sync<NotesRepository> {
  // Lower-cased texts for search, held in main's memory only, up to note `seen`.
  const searchable: Array<{ customerId: string; text: string }> = [];
  let seen = 0;
  const toNote = (row: NoteRow): Note => noteFromRow(cipher, row);
  return {
    add({ customerId, text, author = actor }) {
      // The contract checked it already; the journal holds the line whoever calls.
      if (noteLength(text) > MAX_NOTE_CHARS) {
        throw new RangeError(`A note holds at most ${MAX_NOTE_CHARS} characters`);
      }
      // The AAD names the row, so the row exists before its body is sealed: insert, then seal in place.
      const { seq } = sql.get<{ seq: number }>(
        `INSERT INTO notes (customer_id, at, author, body) VALUES (:customerId, :at, :author, '') RETURNING seq`,
        { customerId, at: isoTime(clock()), author },
      )!;
      sql.run('UPDATE notes SET body = :body WHERE seq = :seq', {
        seq,
        body: cipher.seal(notePlace(seq), text),
      });
      return toNote(sql.get<NoteRow>('SELECT * FROM notes WHERE seq = :seq', { seq })!);
    },
    list(customerId, { limit = 100 } = {}) {
      return sql
        .all<NoteRow>('SELECT * FROM notes WHERE customer_id = :customerId ORDER BY seq DESC LIMIT :limit', {
          customerId,
          limit,
        })
        .map(toNote);
    },
    count(customerId) {
      return (
        sql.get<{ n: number }>('SELECT count(*) AS n FROM notes WHERE customer_id = :customerId', {
          customerId,
        })?.n ?? 0
      );
    },
    latest(customerIds) {
      const rows = sql.all<NoteRow>(
        `SELECT notes.* FROM notes JOIN (
           SELECT max(seq) AS seq FROM notes WHERE customer_id IN (SELECT value FROM json_each(:ids))
           GROUP BY customer_id
         ) AS newest USING (seq)`,
        { ids: JSON.stringify(customerIds) },
      );
      return Object.fromEntries(rows.map((row) => [row.customer_id, toNote(row)]));
    },
    customersMatching(term) {
      const wanted = term.trim().toLocaleLowerCase();
      if (!wanted) return [];
      // Notes are only ever added: each is decrypted once, when a search first meets it.
      for (const row of sql.all<NoteRow>('SELECT * FROM notes WHERE seq > :seen ORDER BY seq', { seen })) {
        searchable.push({ customerId: row.customer_id, text: toNote(row).text.toLocaleLowerCase() });
        seen = row.seq;
      }
      const found = new Set<string>();
      for (let i = searchable.length - 1; i >= 0; i--) {
        const note = searchable[i]!;
        if (!found.has(note.customerId) && note.text.includes(wanted)) found.add(note.customerId);
      }
      return [...found];
    },
  };
}
