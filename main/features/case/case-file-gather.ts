// Gathers a case file from the journal as the desk holds it: the customer, its statuses with their cause, its
// webhook events, notes, documents (the service's review when it answers, this desk's stored images), claims
// and four eyes (from the audit chain, which records every step of both), and every audit entry for the
// customer with the chain's head. Personal data stays masked as the case view shows it unless revealed.
import { actionWords } from '#contract/audit-actions.ts';
import { exportFileName } from '#contract/csv.ts';
import { reportedFieldLabel } from '#contract/customers.ts';
import type { CustomerDocument } from '#contract/documents.ts';
import { topicText } from '#contract/event-topics.ts';
import { statusName } from '#contract/statuses.ts';
import {
  entryRecord,
  headRecord,
  type Journal,
  type JournalCustomer,
  type LinkedAuditEntry,
} from '#main/data/journal/index.ts';
import type { Claims } from '../team-interfaces/claims.ts';
import { linkedUpTo } from './audit-log.ts';
import type { CaseFileData, CaseFileDocument, CaseFileRow } from './case-file-data.ts';
import { statusEntry } from './timeline.ts';

export interface CaseFileSources {
  journal: Journal;
  claims: Pick<Claims, 'shared' | 'get'>;
  /** The customer's documents as the service reviews them; throws when it cannot be asked. */
  documents(customerId: string): Promise<CustomerDocument[]>;
}

type Gathered = Omit<CaseFileData, 'pageSize' | 'produced'>;

const HIDDEN = 'Hidden';

export async function gatherCaseFile(
  sources: CaseFileSources,
  customer: JournalCustomer,
  { revealReason, now }: { revealReason: string | null; now: Date },
): Promise<Gathered> {
  const { journal } = sources;
  const id = customer.id;
  const head = await journal.audit.head();
  const [linked, history, events, notes, personal] = await Promise.all([
    linkedUpTo(journal, { customerId: id }, head),
    journal.customers.history(id),
    journal.events.matching({ customerId: id }),
    journal.notes.list(id, { limit: 100_000 }),
    personalFields(journal, id, revealReason),
  ]);
  const byId = new Map(events.map((event) => [event.id, event]));
  return {
    customer: {
      id,
      name: customer.name,
      email: customer.email,
      type: customer.type,
      status: customer.status,
      since: customer.statusSince,
      created: customer.created,
      lastRefreshed: customer.lastRefreshed,
      gone: customer.goneAt !== null,
      note: customer.note,
    },
    personal,
    statuses: history.map((change, index) => {
      const entry = statusEntry(change, index, change.eventId ? byId.get(change.eventId) : undefined);
      return { at: entry.at, who: entry.who, what: statusName(change.status), detail: entry.detail };
    }),
    events: [...events]
      .sort((a, b) => a.created.localeCompare(b.created))
      .map((event) => ({
        at: event.created,
        who: event.signatureVerified ? 'Webhook (signature verified)' : 'Fetched from the service’s list',
        what: topicText(event.topic),
        detail: `${event.id} · ${event.topic}`,
      })),
    notes: [...notes]
      .reverse()
      .map((note) => ({ at: note.at, who: note.author, what: note.text, detail: null })),
    documents: await gatherDocuments(sources, customer, linked),
    claims: await gatherClaims(sources.claims, id, linked),
    fourEyes: { shared: sources.claims.shared, rows: rowsOf(linked, 'approval.') },
    audit: {
      entries: linked.map((entry) => ({
        seq: entry.seq,
        at: entry.at,
        actor: entry.actor,
        what: actionWords(entry.action),
        outcome: entry.outcome,
        detail: entry.detail,
        chainHash: entry.link.chainHash,
      })),
      head: { seq: head.seq, chainHash: head.chainHash },
      attachment: {
        fileName: exportFileName(['vetted-audit', id], 'jsonl', now),
        content:
          linked.map((entry) => entryRecord(entry, { what: actionWords(entry.action) })).join('') +
          headRecord(head, linked.length, { customerId: id }),
      },
    },
  };
}

/** As the case view shows them: the SSN's last four behind dots, the rest hidden; in full with a reason. */
async function personalFields(
  journal: Journal,
  id: string,
  revealReason: string | null,
): Promise<Gathered['personal']> {
  const [personal, reported] = await Promise.all([
    journal.customers.personal(id),
    journal.customers.reported(id),
  ]);
  const shown = (value: string | null | undefined) => (revealReason === null ? HIDDEN : (value ?? '—'));
  const fields: Array<{ label: string; value: string }> = [];
  if (personal) {
    const { address } = personal;
    fields.push(
      // The full SSN is never stored: its last four are all there is, and the case view shows them.
      { label: 'SSN', value: `•••-••-${personal.ssnLastFour}` },
      { label: 'Date of birth', value: shown(personal.dateOfBirth) },
      {
        label: 'Address',
        value: shown(
          [address.address1, address.address2, `${address.city}, ${address.state} ${address.postalCode}`]
            .filter(Boolean)
            .join(', '),
        ),
      },
    );
  }
  for (const [field, value] of Object.entries(reported)) {
    fields.push({
      label: reportedFieldLabel(field),
      value: shown(typeof value === 'string' ? value : JSON.stringify(value)),
    });
  }
  return { revealReason, fields };
}

/** The audit rows of one kind (claims, four eyes), oldest first. */
function rowsOf(linked: readonly LinkedAuditEntry[], prefix: string): CaseFileRow[] {
  return linked
    .filter((entry) => entry.action.startsWith(prefix))
    .map((entry) => ({
      at: entry.at,
      who: entry.actor || 'Not recorded',
      what: actionWords(entry.action),
      detail:
        [entry.outcome === 'ok' ? null : entry.outcome, entry.detail].filter(Boolean).join(' · ') || null,
    }));
}

async function gatherClaims(
  claims: CaseFileSources['claims'],
  id: string,
  linked: readonly LinkedAuditEntry[],
): Promise<Gathered['claims']> {
  if (!claims.shared) return { shared: false, holder: null, rows: [] };
  const claim = await claims.get(id);
  return {
    shared: true,
    holder: claim ? { login: claim.holder, since: claim.since } : null,
    rows: rowsOf(linked, 'claim.'),
  };
}

/** "passport doc-1" → the document's id, as an upload's or a purge's audit detail names it. */
const documentIdOf = (detail: string | null) => detail?.split(' ').at(-1) ?? null;

async function gatherDocuments(
  { journal, documents }: CaseFileSources,
  customer: JournalCustomer,
  linked: readonly LinkedAuditEntry[],
): Promise<Gathered['documents']> {
  let listed: CustomerDocument[] = [];
  let problem: string | null = null;
  if (customer.goneAt) {
    problem = 'The service no longer has this customer: documents are listed from this desk’s records.';
  } else {
    try {
      listed = await documents(customer.id);
    } catch {
      problem =
        'The service could not be asked for the documents’ review: they are listed from this desk’s records.';
    }
  }
  const purged = new Set(
    linked
      .filter((entry) => entry.action === 'document.imagePurge')
      .map((entry) => documentIdOf(entry.detail)),
  );
  const stored = await journal.documentImages.list(customer.id);
  const items = new Map<string, Omit<CaseFileDocument, 'image'>>();
  for (const doc of listed) {
    items.set(doc.id, {
      id: doc.id,
      type: doc.type,
      uploadedAt: doc.uploadedAt,
      review: doc.review,
      reasons: doc.reasons.map((reason) => reason.description ?? reason.text),
    });
  }
  for (const image of stored) {
    if (!items.has(image.documentId)) {
      items.set(image.documentId, {
        id: image.documentId,
        type: image.documentType,
        uploadedAt: image.at,
        review: null,
        reasons: [],
      });
    }
  }
  for (const entry of linked) {
    const id = documentIdOf(entry.detail);
    if (entry.action !== 'document.upload' || entry.outcome !== 'ok' || !id || items.has(id)) continue;
    items.set(id, {
      id,
      type: entry.detail?.split(' ')[0] ?? '',
      uploadedAt: entry.at,
      review: null,
      reasons: [],
    });
  }
  const withImages = await Promise.all(
    [...items.values()].map(async (item): Promise<CaseFileDocument> => {
      const image = await journal.documentImages.get(item.id);
      if (image)
        return {
          ...item,
          image: { contentType: image.contentType, bytes: Buffer.from(image.base64, 'base64') },
        };
      return { ...item, image: purged.has(item.id) ? 'purged' : 'none' };
    }),
  );
  return {
    items: withImages.sort((a, b) => (a.uploadedAt ?? '').localeCompare(b.uploadedAt ?? '')),
    problem,
  };
}
