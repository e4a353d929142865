// One timeline of everything about a customer, newest first, built from the journal: status changes with
// their cause, webhook events, reviewer actions (submissions, retries, uploads, reveals) and notes.

import { actionWords } from '#contract/audit-actions.ts';
import type { TimelineEntry } from '#contract/case.ts';
import { topicText } from '#contract/event-topics.ts';
import { statusName } from '#contract/statuses.ts';
import type { AuditEntry, Journal, JournalEvent, Note, StatusChange } from '#main/data/journal/index.ts';

const THE_SERVICE = 'The service';
const DOCUMENT_FAILED = 'customer_verification_document_failed';

/**
 * The newest `limit` entries. Each source gives at most `limit` of its newest, so a customer with a long
 * history costs a bounded read; `hasOlder` says whether anything was left out.
 */
export async function customerTimeline(
  journal: Journal,
  id: string,
  limit: number,
): Promise<{ entries: TimelineEntry[]; hasOlder: boolean }> {
  const [customer, history, events, audit, auditTotal, notes, notesTotal] = await Promise.all([
    journal.customers.get(id),
    journal.customers.history(id),
    journal.events.window({ customerId: id }, { offset: 0, limit }),
    journal.audit.list({ customerId: id, limit }),
    journal.audit.count({ customerId: id }),
    journal.notes.list(id, { limit }),
    journal.notes.count(id),
  ]);
  const byId = new Map(events.events.map((event) => [event.id, event]));
  // The latest rejection's reason is what the journal keeps of a document review (the customer's line).
  const rejection = customer?.note?.startsWith('Document rejected') ? customer.note : null;
  const newestFailure = events.events.find((event) => event.topic === DOCUMENT_FAILED)?.id;
  const told = new Set(history.map((change) => change.eventId).filter(Boolean));
  const entries = [
    ...history.map((change, index) =>
      statusEntry(change, index, change.eventId ? byId.get(change.eventId) : undefined),
    ),
    ...events.events
      .filter((event) => !told.has(event.id))
      .map((event) => eventEntry(event, event.id === newestFailure ? rejection : null)),
    // A note's audit entry would repeat the note.
    ...audit.filter((entry) => entry.action !== 'note.add').map(actionEntry),
    ...notes.map(noteEntry),
  ].sort((a, b) => b.at.localeCompare(a.at) || b.key.localeCompare(a.key));
  const known = history.length + events.total + auditTotal + notesTotal;
  return { entries: entries.slice(0, limit), hasOlder: known > limit };
}

export function statusEntry(
  change: StatusChange,
  index: number,
  event: JournalEvent | undefined,
): TimelineEntry {
  const cause =
    change.source === 'created'
      ? 'Created from this desk'
      : change.source === 'poll'
        ? 'Seen when Vetted asked the service'
        : `Reported by the service: ${event ? topicText(event.topic) : 'a webhook event'}`;
  return {
    key: `status-${index}`,
    kind: 'status',
    at: change.at,
    who: change.source === 'created' ? 'This desk' : THE_SERVICE,
    title: `Status: ${statusName(change.status)}`,
    detail: cause,
    eventId: change.eventId,
  };
}

function eventEntry(event: JournalEvent, reason: string | null): TimelineEntry {
  return {
    key: `event-${event.id}`,
    kind: 'event',
    at: event.created,
    who: THE_SERVICE,
    title: reason ?? topicText(event.topic),
    detail: event.signatureVerified ? null : 'Fetched from the service’s event list',
    eventId: event.id,
  };
}

function actionEntry(entry: AuditEntry): TimelineEntry {
  const reveal = entry.action === 'personal.reveal';
  const upload = entry.action.startsWith('document.');
  return {
    key: `audit-${entry.seq}`,
    kind: reveal ? 'reveal' : upload ? 'document' : 'action',
    at: entry.at,
    who: entry.actor || 'Not recorded',
    title: actionWords(entry.action),
    detail: reveal
      ? `Reason: ${entry.detail ?? 'none given'}`
      : [outcomeWords(entry.outcome), entry.detail].filter(Boolean).join(' · ') || null,
    eventId: null,
  };
}

function outcomeWords(outcome: string): string {
  return outcome === 'ok' ? 'Done' : `Outcome: ${statusName(outcome)}`;
}

function noteEntry(note: Note): TimelineEntry {
  return {
    key: `note-${note.seq}`,
    kind: 'note',
    at: note.at,
    who: note.author,
    title: 'Note',
    detail: note.text,
    eventId: null,
  };
}
