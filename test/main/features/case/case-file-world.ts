// A case worth a case file, in a journal on a manual clock: a customer created here (personal data held),
// status changes told by webhook events, notes by two people, a document rejected with its stored image and
// one whose image a lead purged, and a team's claims and four eyes as the audit chain records them. Every
// moment and name is fixed, so the file drawn from it is the same each run (the page baselines).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CustomerDocument } from '#contract/documents.ts';
import type { Journal } from '#main/data/journal/index.ts';
import type { CaseFileSources } from '#main/features/case/case-file-gather.ts';
import { MINUTE, manualClock, openTestJournal, serviceCustomer } from '#test/main/data/journal/helpers.ts';

export const CUSTOMER_ID = '00000000-0000-4000-8000-00000000c0fe';
export const PRODUCED_AT = '2026-03-02T10:00:00.000Z';
export const PASSPORT = readFileSync(
  path.join(import.meta.dirname, '../../../../assets/sandbox-ids/passport.png'),
);

const PERSONAL = {
  address: { address1: '221 Baker Street', city: 'Springfield', state: 'IL', postalCode: '62704' },
  dateOfBirth: '1984-02-29',
  ssnLastFour: '6789',
};

/** The service's review of the two documents. */
export const DOCUMENTS: CustomerDocument[] = [
  {
    id: 'doc-rejected-1',
    url: '',
    type: 'passport',
    uploadedAt: '2026-03-01T09:10:00.000Z',
    review: 'rejected',
    reasons: [{ code: 'ScanNotReadable', text: 'The scan is not readable', description: null }],
  },
  {
    id: 'doc-accepted-2',
    url: '',
    type: 'license',
    uploadedAt: '2026-03-01T09:40:00.000Z',
    review: 'accepted',
    reasons: [],
  },
];

async function statuses(journal: Journal, advance: (ms: number) => void) {
  const customer = serviceCustomer({
    id: CUSTOMER_ID,
    firstName: 'Zoë',
    lastName: 'Łukasiewicz',
    status: 'document',
  });
  await journal.customers.upsert(customer, { source: 'created' }, PERSONAL);
  await journal.audit.record({
    action: 'customer.create',
    customerId: CUSTOMER_ID,
    outcome: 'ok',
    detail: 'draft 7',
  });
  const told = async (id: string, topic: string, at: string, status?: string) => {
    await journal.events.record({
      id,
      topic,
      resourceId: CUSTOMER_ID,
      customerId: CUSTOMER_ID,
      created: at,
      signatureVerified: true,
    });
    if (status) await journal.customers.upsert({ ...customer, status }, { source: 'event', eventId: id, at });
  };
  advance(10 * MINUTE);
  await told('ev-1', 'customer_verification_document_uploaded', '2026-03-01T09:10:05.000Z');
  await told('ev-2', 'customer_verification_document_failed', '2026-03-01T09:20:00.000Z');
  advance(40 * MINUTE);
  await told('ev-3', 'customer_verified', '2026-03-01T09:50:00.000Z', 'verified');
}

async function documents(journal: Journal) {
  for (const [id, type] of [
    ['doc-rejected-1', 'passport'],
    ['doc-accepted-2', 'license'],
  ] as const) {
    await journal.documentImages.store({
      documentId: id,
      customerId: CUSTOMER_ID,
      documentType: type,
      contentType: 'image/png',
      base64: PASSPORT.toString('base64'),
    });
    await journal.audit.record({
      action: 'document.upload',
      customerId: CUSTOMER_ID,
      outcome: 'ok',
      detail: `${type} ${id}`,
    });
  }
  await journal.documentImages.purge('doc-accepted-2');
  await journal.audit.record({
    action: 'document.imagePurge',
    customerId: CUSTOMER_ID,
    outcome: 'ok',
    detail: 'license doc-accepted-2',
    actor: 'carol',
  });
}

async function teamwork(journal: Journal) {
  const entry = (
    action: Parameters<Journal['audit']['record']>[0]['action'],
    actor: string,
    detail: string | null,
  ) => journal.audit.record({ action, customerId: CUSTOMER_ID, outcome: 'ok', detail, actor });
  await entry('claim.take', 'ada', 'take');
  await entry('approval.request', 'ada', 'retry 11111111-1111-4111-8111-111111111111');
  await entry('approval.approve', 'carol', 'retry 11111111-1111-4111-8111-111111111111');
  await entry('claim.takeOver', 'carol', 'ada is away this week');
}

/** The journal and what else a case file is gathered from; `close` when done. */
export async function caseFileWorld(): Promise<{ journal: Journal; sources: CaseFileSources; now: Date }> {
  const time = manualClock('2026-03-01T09:00:00.000Z');
  const journal = await openTestJournal({ clock: time.clock, actor: 'ada' });
  await statuses(journal, time.advance);
  await journal.notes.add({
    customerId: CUSTOMER_ID,
    text: 'Called her: the passport scan was blurred.',
    author: 'ada',
  });
  await documents(journal);
  time.advance(MINUTE);
  await journal.notes.add({
    customerId: CUSTOMER_ID,
    text: 'Second document reads well; waiting for the review.',
    author: 'bob',
  });
  await teamwork(journal);
  const claims: CaseFileSources['claims'] = {
    shared: true,
    get: async () => ({
      customerId: CUSTOMER_ID,
      holder: 'carol',
      mine: false,
      since: '2026-03-01T09:51:00.000Z',
      how: 'takeOver',
      by: 'carol',
      note: null,
    }),
  };
  return {
    journal,
    sources: { journal, claims, documents: async () => DOCUMENTS },
    now: new Date(PRODUCED_AT),
  };
}
