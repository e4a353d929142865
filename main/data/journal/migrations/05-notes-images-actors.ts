// Journal migration 5: the case panel's notes and document images, and who did each audited action.
import type { Migration } from './runner.ts';

// The case panel (main/data/journal/notes.ts, document-images.ts): reviewers' notes and the images of documents
// uploaded from this desk, both personal data and so encrypted; who did each audited action (the OS user in
// solo mode). Audit rows written before this migration have no actor: '' says "not recorded".
const notesImagesActors = `
ALTER TABLE audit_log ADD COLUMN actor TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_log_by_action ON audit_log (action, seq);
CREATE INDEX audit_log_by_actor ON audit_log (actor, seq);

CREATE TABLE notes (
  seq INTEGER PRIMARY KEY,
  customer_id TEXT NOT NULL,
  at TEXT NOT NULL,
  author TEXT NOT NULL,
  -- Encrypted (personal.ts): a note may quote what the reviewer saw.
  body TEXT NOT NULL
) STRICT;
CREATE INDEX notes_by_customer ON notes (customer_id, seq);

CREATE TABLE document_images (
  document_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  at TEXT NOT NULL,
  document_type TEXT NOT NULL,
  content_type TEXT NOT NULL,
  -- Encrypted (personal.ts): the photo of an identity document, base64 inside the token.
  image TEXT NOT NULL
) STRICT;
CREATE INDEX document_images_by_customer ON document_images (customer_id, at);
`;

export const NOTES_IMAGES_ACTORS: Migration = {
  version: 5,
  name: 'notes, document images, audit actors',
  sql: notesImagesActors,
};
