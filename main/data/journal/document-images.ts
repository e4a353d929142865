// The images of documents uploaded from this desk, so a reviewer can look at what was sent. An identity
// document is personal data: the image is encrypted like the rest (personal.ts), and can be purged.
import type { Statements, Sync } from './db.ts';
import type { PersonalCipher, PersonalPlace } from './personal.ts';
import type { DocumentImagesRepository, StoredImageInfo } from './repositories/document-images.ts';
import { type Clock, isoTime } from './time.ts';

interface ImageRow {
  document_id: string;
  customer_id: string;
  at: string;
  document_type: string;
  content_type: string;
  image: string;
}

const place = (documentId: string): PersonalPlace => ({
  table: 'document_images',
  id: documentId,
  column: 'image',
});

const infoOf = (row: Omit<ImageRow, 'image'>): StoredImageInfo => ({
  documentId: row.document_id,
  customerId: row.customer_id,
  at: row.at,
  documentType: row.document_type,
  contentType: row.content_type,
});

export function documentImagesRepository(
  sql: Statements,
  cipher: PersonalCipher,
  clock: Clock,
): Sync<DocumentImagesRepository> {
  return {
    store({ documentId, customerId, documentType, contentType, base64 }) {
      const row = sql.get<ImageRow>(
        `INSERT INTO document_images (document_id, customer_id, at, document_type, content_type, image)
         VALUES (:documentId, :customerId, :at, :documentType, :contentType, :image)
         ON CONFLICT (document_id) DO UPDATE SET at = excluded.at, document_type = excluded.document_type,
           content_type = excluded.content_type, image = excluded.image
         RETURNING document_id, customer_id, at, document_type, content_type`,
        {
          documentId,
          customerId,
          at: isoTime(clock()),
          documentType,
          contentType,
          image: cipher.seal(place(documentId), base64),
        },
      );
      return infoOf(row!);
    },
    list(customerId) {
      return sql
        .all<ImageRow>(
          `SELECT document_id, customer_id, at, document_type, content_type FROM document_images
           WHERE customer_id = :customerId ORDER BY at DESC, document_id`,
          { customerId },
        )
        .map(infoOf);
    },
    get(documentId) {
      const row = sql.get<ImageRow>('SELECT * FROM document_images WHERE document_id = :documentId', {
        documentId,
      });
      return row && { ...infoOf(row), base64: cipher.open(place(documentId), row.image) };
    },
    purge(documentId) {
      return (
        sql.run('DELETE FROM document_images WHERE document_id = :documentId', { documentId }).changes > 0
      );
    },
  };
}
