// A replicated row as the team store announces it at its commit (team store migration 11): `{table, row}`, or,
// for a row too large for a notification, `{table, seq}` alone. The row is read as a page's rows are read
// (replica-rows.ts: checked with zod, opened with the team key); a payload this Vetted cannot read is an
// error in words, and the desk reads the store instead.
import { z } from 'zod';
import { JournalError } from '#main/data/journal/errors.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { ReplicaChanges } from '#main/data/journal/replica.ts';
import { changesFromJson, REPLICATED_TABLES, type ReplicatedTable } from './replica-rows.ts';
import { jsonOf } from './rows.ts';

const AnnouncementSchema = z.union([
  z.object({ table: z.enum(REPLICATED_TABLES), row: z.record(z.string(), z.unknown()) }),
  z.object({ table: z.enum(REPLICATED_TABLES), seq: z.number().int().positive() }),
]);

export type Announcement =
  | { changes: ReplicaChanges }
  /** Too large to announce: the desk must read the store for it. */
  | { table: ReplicatedTable; seq: number };

/** True for what the changes channel carries besides bare change numbers. */
export const isAnnouncement = (payload: string): boolean => payload.startsWith('{');

export function readAnnouncement(cipher: PersonalCipher, payload: string): Announcement {
  const announced = jsonOf(AnnouncementSchema, payload);
  if (!announced)
    throw new JournalError('The team store announced a change in a form this Vetted cannot read.');
  if (!('row' in announced)) return announced;
  return { changes: changesFromJson(cipher, { [announced.table]: [announced.row] }) };
}
