// Reviewers' notes on the team store: sealed with the team data key (a note may quote personal data), the
// author stamped by the database from the login (never what the caller claims), and each note numbered from
// the change sequence so desks copy it into their replica. Searching notes needs their plaintext: the team
// journal answers `customersMatching` from the desk's local replica, so this repository has no such method.
import { z } from 'zod';
import { MAX_NOTE_CHARS, noteLength } from '#contract/case.ts';
import { notePlace } from '#main/data/journal/notes.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { Note, NotesRepository } from '#main/data/journal/repositories/notes.ts';
import { isoTime } from '#main/data/journal/time.ts';
import { CountSchema, PgSeq, PgTime, parseRow, parseRows } from './rows.ts';
import type { TeamRepositoryContext } from './team-db.ts';

/** What the team store answers of notes; the composition adds `customersMatching` from the replica. */
export type TeamNotesRepository = Omit<NotesRepository, 'customersMatching'>;

// The same AAD as the local journal's notes (`notePlace`): a note's body opens wherever its number names it.
export const NoteRowSchema = z.object({
  seq: PgSeq,
  customer_id: z.string(),
  at: PgTime,
  author: z.string(),
  body: z.string(),
});

export const NOTE_COLUMNS = 'seq, customer_id, at, author, body';
const COLUMNS = NOTE_COLUMNS;

/** A note row already parsed, its body opened (the replica's change reader reads notes through it too). */
export function noteOf(cipher: PersonalCipher, row: z.infer<typeof NoteRowSchema>): Note {
  return {
    seq: row.seq,
    customerId: row.customer_id,
    at: row.at,
    author: row.author,
    text: cipher.open(notePlace(row.seq), row.body),
  };
}

function notesFromRows(cipher: PersonalCipher, rows: readonly unknown[]): Note[] {
  return parseRows(NoteRowSchema, 'notes', rows).map((row) => noteOf(cipher, row));
}

export function teamNotesRepository({ db, cipher, clock }: TeamRepositoryContext): TeamNotesRepository {
  return {
    async add({ customerId, text }) {
      // The contract checked it already; the journal holds the line whoever calls.
      if (noteLength(text) > MAX_NOTE_CHARS) {
        throw new RangeError(`A note holds at most ${MAX_NOTE_CHARS} characters`);
      }
      const { rows } = await db.write(async (client) => {
        // The number is drawn first, so the body is sealed for its row before the row exists.
        const seq = await db.nextChange(client);
        return client.query(
          `INSERT INTO vetted.notes (seq, customer_id, at, body) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
          [seq, customerId, isoTime(clock()), cipher.seal(notePlace(seq), text)],
        );
      });
      const [note] = notesFromRows(cipher, rows);
      if (!note) throw new Error('The team store did not return the note it added.');
      return note;
    },
    async list(customerId, { limit = 100 } = {}) {
      const { rows } = await db.read.query(
        `SELECT ${COLUMNS} FROM vetted.notes WHERE customer_id = $1 ORDER BY seq DESC LIMIT $2`,
        [customerId, limit],
      );
      return notesFromRows(cipher, rows);
    },
    async count(customerId) {
      const { rows } = await db.read.query('SELECT count(*) AS n FROM vetted.notes WHERE customer_id = $1', [
        customerId,
      ]);
      return parseRow(CountSchema, 'notes', rows).n;
    },
    async latest(customerIds) {
      const { rows } = await db.read.query(
        `SELECT DISTINCT ON (customer_id) ${COLUMNS} FROM vetted.notes
         WHERE customer_id = ANY($1::text[]) ORDER BY customer_id, seq DESC`,
        [customerIds],
      );
      return Object.fromEntries(notesFromRows(cipher, rows).map((note) => [note.customerId, note]));
    },
  };
}
