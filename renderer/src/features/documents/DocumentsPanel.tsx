import { useEffect } from 'react';
import type { CustomerDetail } from '#contract/customers.ts';
import { DocumentList } from './DocumentList.tsx';
import { DropZone } from './DropZone.tsx';
import { useDocumentsStore } from './documents-store.ts';
import { FileCard } from './FileCard.tsx';

/** Without webhooks, how often the panel asks while a review is awaited: a reviewer's pace, not a load. */
export const REVIEW_POLL_MS = 5_000;

/**
 * Keeps the list current: on opening, on every change main pushes for this customer (a webhook,
 * a refresh), and on a timer while a document waits for review.
 */
function useFollowReview(customerId: string, enabled: boolean, waiting: boolean) {
  const { follow, load } = useDocumentsStore.getState();
  useEffect(() => (enabled ? follow(customerId) : undefined), [customerId, enabled, follow]);
  useEffect(() => {
    if (!enabled || !waiting) return;
    const timer = setInterval(() => void load(customerId), REVIEW_POLL_MS);
    return () => clearInterval(timer);
  }, [customerId, enabled, waiting, load]);
}

/** ID documents of one customer: what the service has and its review, and the drop zone to add more. */
export function DocumentsPanel({ customer }: { customer: CustomerDetail }) {
  const entry = useDocumentsStore((state) => state.byCustomer[customer.id]);
  const allCards = useDocumentsStore((state) => state.cards);
  const addFiles = useDocumentsStore((state) => state.addFiles);
  const cards = allCards.filter((card) => card.customerId === customer.id);
  const status = entry?.list?.customerStatus ?? customer.status;
  const listed = (documentId: string | undefined) =>
    entry?.list?.documents.find((document) => document.id === documentId);
  // A review is awaited while the service lists one pending, or an upload is not listed yet.
  const waiting =
    (entry?.list?.pending ?? 0) > 0 ||
    cards.some(
      (card) => card.state === 'uploading' || (card.state === 'uploaded' && !listed(card.document?.id)),
    );
  useFollowReview(customer.id, !customer.gone, waiting);

  return (
    <section aria-labelledby="customer-documents" className="case-section documents">
      <h3 id="customer-documents">ID documents</h3>
      {status === 'document' && !customer.gone ? (
        <DropZone onFiles={(files) => void addFiles(customer.id, files)} />
      ) : (
        <p className="hint">
          {customer.gone
            ? 'The service no longer knows this customer: no document can be uploaded.'
            : `Documents can be uploaded only while the service asks for one; this customer is “${status}”.`}
        </p>
      )}
      {cards.length > 0 && (
        <ul className="file-cards" aria-label="Files to upload">
          {cards.map((card) => (
            <FileCard key={card.key} card={card} review={listed(card.document?.id)?.review ?? null} />
          ))}
        </ul>
      )}
      <DocumentList entry={entry} />
    </section>
  );
}
