import type { AuditRow, TimelineEntry } from '#contract/case.ts';
import type { CustomerDetail } from '#contract/customers.ts';
import type { CustomerDocument } from '#contract/documents.ts';
import type { QueueRow, Section } from '#contract/queue.ts';
import { availableActions } from '#contract/statuses.ts';
import type { EventRow } from '#contract/webhooks.ts';

/**
 * A fixed world for the screenshot comparisons: customers of every status with the long names the layout
 * must not cut, waiting from four minutes to twelve days, a note, documents, events and audit entries, all
 * at times fixed around NOW. Nothing in it is random or read from a clock.
 */
export const NOW = Date.parse('2026-11-27T14:30:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
export const ago = (ms: number) => new Date(NOW - ms).toISOString();

interface Person {
  id: string;
  name: string;
  status: string;
  section: Exclude<Section, 'drafts'>;
  waiting: number;
  note?: string;
  latestNote?: string;
  createdHere?: boolean;
}

/** One customer per status, the queue's order (longest waiting first) mixing them. */
export const PEOPLE: readonly Person[] = [
  {
    id: '5b0e6c1a-3f2d-4e8b-9a71-2c4d6e8f0a11',
    name: 'Lena Kowalczyk',
    status: 'deactivated',
    section: 'deactivated',
    waiting: 12 * DAY,
  },
  {
    id: '8d3f1e2b-6a4c-4b9d-8e12-3f5a7c9e1b22',
    name: 'Hannah Schmidt-Bergström',
    status: 'verified',
    section: 'verified',
    waiting: 6 * DAY + 3 * HOUR,
  },
  {
    id: '2a7c9e4d-1b3f-4d6a-b823-4e6a8c0d2c33',
    name: 'Aleksandra Wojciechowska',
    status: 'document',
    section: 'document',
    waiting: 3 * DAY + 2 * HOUR,
    note: 'Document rejected: the photo is blurry',
    latestNote: 'Asked her for a sharper photo of the passport by e-mail.',
    createdHere: true,
  },
  {
    id: '6e1a3c5f-7d9b-4f2e-a134-5b7d9f1e3d44',
    name: 'Tomás O’Brien',
    status: 'suspended',
    section: 'suspended',
    waiting: 2 * DAY + 5 * HOUR,
  },
  {
    id: '9c4e6a8b-2d1f-4a3c-b645-6c8e0a2f4e55',
    name: 'Maria Fernández-López',
    status: 'retry',
    section: 'retry',
    waiting: 26 * HOUR,
    latestNote: 'The date of birth on the form looks swapped: day and month.',
    createdHere: true,
  },
  {
    id: '3d5f7b9c-4e2a-4c1d-9756-7d9f1b3a5f66',
    name: 'Rafael Souza Nascimento',
    status: 'restricted',
    section: 'other',
    waiting: 22 * HOUR,
  },
  {
    id: '7f2b4d6e-8a1c-4e3f-a867-8e0a2c4b6a77',
    name: 'Kwame Mensah',
    status: 'unverified',
    section: 'unverified',
    waiting: 9 * HOUR,
  },
  {
    id: '4b6d8f1a-9c3e-4b5a-b978-9f1b3d5c7b88',
    name: 'Oluwaseun Adebayo-Okonkwo',
    status: 'document',
    section: 'review',
    waiting: 2 * HOUR + 10 * MINUTE,
  },
  {
    id: '1e3a5c7d-6b8f-4d2e-8a89-0a2c4e6d8c99',
    name: 'Chen Wei',
    status: 'kba',
    section: 'kba',
    waiting: 45 * MINUTE,
  },
  {
    id: '0f8c2e4a-5d7b-4e9c-9b9a-1b3d5f7e9daa',
    name: 'Sofia Lindqvist',
    status: 'document',
    section: 'document',
    waiting: 20 * MINUTE,
  },
  {
    id: 'c2e4a6b8-1f3d-4a5e-8cab-2c4e6a8f0ebb',
    name: 'Jean-Baptiste Moreau',
    status: 'retry',
    section: 'retry',
    waiting: 4 * MINUTE + 30_000,
  },
];

const emailOf = (name: string) =>
  `${name
    .normalize('NFD')
    .replace(/[\u0300-\u036f’]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')}@example.com`;

export function queueRow(person: Person): QueueRow {
  return {
    id: person.id,
    name: person.name,
    email: emailOf(person.name),
    status: person.status,
    section: person.section,
    statusSince: ago(person.waiting),
    changedAt: ago(Math.min(person.waiting, 40 * MINUTE)),
    gone: false,
    note: person.note ?? null,
    latestNote: person.latestNote ?? null,
  };
}

export const ROWS: readonly QueueRow[] = PEOPLE.map(queueRow);

export const person = (id: string): Person => {
  const found = PEOPLE.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`No customer ${id} in the look's world.`);
  return found;
};

export function customerDetail(id: string): CustomerDetail {
  const who = person(id);
  const [firstName = '', ...rest] = who.name.split(' ');
  return {
    ...queueRow(who),
    url: `http://127.0.0.1:7001/customers/${id}`,
    firstName,
    lastName: rest.join(' '),
    type: 'personal',
    created: ago(who.waiting + 3 * HOUR),
    lastRefreshedAt: ago(6 * MINUTE),
    history: [],
    links: [
      { rel: 'funding-sources', href: `http://127.0.0.1:7001/customers/${id}/funding-sources` },
      { rel: 'transfers', href: `http://127.0.0.1:7001/customers/${id}/transfers` },
    ],
    actions: availableActions(who.status, null),
    personal: who.createdHere ? { ssnMasked: '•••-••-6789' } : null,
    reported: [],
  };
}

const STATUS_TITLE: Record<string, string> = {
  deactivated: 'Deactivated',
  verified: 'Verified',
  document: 'Needs document',
  suspended: 'Suspended',
  retry: 'Needs retry',
  restricted: 'restricted',
  unverified: 'Unverified',
  kba: 'Knowledge-based questions',
};

/** What happened to a customer, newest first, over two or three days. */
export function timeline(id: string): TimelineEntry[] {
  const who = person(id);
  const since = who.waiting;
  const entries: TimelineEntry[] = [
    {
      key: 'status-1',
      kind: 'status',
      at: ago(since),
      who: 'The service',
      title: `Status: ${STATUS_TITLE[who.status] ?? who.status}`,
      detail: 'Reported by the service: a webhook event',
      eventId: `evt-${id.slice(0, 8)}-2`,
    },
    {
      key: 'event-1',
      kind: 'event',
      at: ago(since + 2 * MINUTE),
      who: 'The service',
      title: 'Customer created',
      detail: null,
      eventId: `evt-${id.slice(0, 8)}-1`,
    },
    {
      key: 'audit-1',
      kind: 'action',
      at: ago(since + 3 * MINUTE),
      who: 'dana.reviewer',
      title: who.createdHere ? 'Customer created from a draft' : 'Customer added by id',
      detail: 'Done',
      eventId: null,
    },
  ];
  if (who.latestNote) {
    entries.unshift({
      key: 'note-1',
      kind: 'note',
      at: ago(Math.min(since, 50 * MINUTE) - 10 * MINUTE),
      who: 'dana.reviewer',
      title: 'Note',
      detail: who.latestNote,
      eventId: null,
    });
  }
  if (who.section === 'review' || who.section === 'document') {
    entries.splice(1, 0, {
      key: 'audit-2',
      kind: 'document',
      at: ago(since - MINUTE),
      who: 'dana.reviewer',
      title: 'Document uploaded',
      detail: 'Done · passport',
      eventId: null,
    });
  }
  return entries.sort((a, b) => b.at.localeCompare(a.at));
}

export function documents(id: string): CustomerDocument[] {
  const who = person(id);
  if (who.section === 'review') {
    return [
      {
        id: 'd1a2b3c4-0000-4000-8000-000000000001',
        url: 'http://127.0.0.1:7001/documents/d1',
        type: 'passport',
        uploadedAt: ago(who.waiting - MINUTE),
        review: 'pending',
        reasons: [],
      },
    ];
  }
  if (who.name === 'Aleksandra Wojciechowska') {
    return [
      {
        id: 'd1a2b3c4-0000-4000-8000-000000000002',
        url: 'http://127.0.0.1:7001/documents/d2',
        type: 'passport',
        uploadedAt: ago(who.waiting + 20 * MINUTE),
        review: 'rejected',
        reasons: [{ code: 'ScanNotReadable', text: 'The photo is blurry', description: null }],
      },
    ];
  }
  return [];
}

const TOPICS: readonly [string, number, string | null][] = [
  ['customer_verification_document_needed', 20 * MINUTE, '0f8c2e4a-5d7b-4e9c-9b9a-1b3d5f7e9daa'],
  ['customer_reverification_needed', 4 * MINUTE + 30_000, 'c2e4a6b8-1f3d-4a5e-8cab-2c4e6a8f0ebb'],
  ['customer_created', 5 * MINUTE, 'c2e4a6b8-1f3d-4a5e-8cab-2c4e6a8f0ebb'],
  ['customer_kba_verification_needed', 45 * MINUTE, '1e3a5c7d-6b8f-4d2e-8a89-0a2c4e6d8c99'],
  ['customer_verification_document_uploaded', 2 * HOUR + 10 * MINUTE, '4b6d8f1a-9c3e-4b5a-b978-9f1b3d5c7b88'],
  ['customer_reverification_needed', 26 * HOUR, '9c4e6a8b-2d1f-4a3c-b645-6c8e0a2f4e55'],
  ['customer_suspended', 2 * DAY + 5 * HOUR, '6e1a3c5f-7d9b-4f2e-a134-5b7d9f1e3d44'],
  ['customer_verification_document_failed', 3 * DAY + 2 * HOUR, '2a7c9e4d-1b3f-4d6a-b823-4e6a8c0d2c33'],
  ['customer_created', 3 * DAY + 5 * HOUR, 'ffffffff-1b3f-4d6a-b823-4e6a8c0d2cfe'],
  ['customer_verified', 6 * DAY + 3 * HOUR, '8d3f1e2b-6a4c-4b9d-8e12-3f5a7c9e1b22'],
  ['customer_deactivated', 12 * DAY, '5b0e6c1a-3f2d-4e8b-9a71-2c4d6e8f0a11'],
];

/** The event log, newest first: one event Vetted received for a customer it does not follow. */
export const EVENTS: readonly EventRow[] = TOPICS.map(([topic, before, customerId], index) => ({
  id: `6a0e${String(index).padStart(4, '0')}-0c1d-4e2f-8a3b-4c5d6e7f8091`,
  topic,
  customerId,
  customerName: PEOPLE.find((candidate) => candidate.id === customerId)?.name ?? null,
  resourceId: customerId ?? '',
  created: ago(before),
  receivedAt: ago(before - 1_000),
  signatureVerified: index !== 8,
  duplicatesSeen: index === 1 ? 1 : 0,
  processed: true,
})).sort((a, b) => b.receivedAt.localeCompare(a.receivedAt));

const AUDIT: readonly [string, string, number, string | null, string, string | null][] = [
  ['note.add', 'Note written', 10 * MINUTE, '9c4e6a8b-2d1f-4a3c-b645-6c8e0a2f4e55', 'ok', 'note 1'],
  [
    'personal.reveal',
    'Personal data revealed',
    14 * MINUTE,
    '9c4e6a8b-2d1f-4a3c-b645-6c8e0a2f4e55',
    'ok',
    'Reason: checking the date of birth against the passport',
  ],
  ['customers.add', 'Customer added by id', 48 * MINUTE, '1e3a5c7d-6b8f-4d2e-8a89-0a2c4e6d8c99', 'ok', null],
  [
    'document.upload',
    'Document uploaded',
    2 * HOUR + 11 * MINUTE,
    '4b6d8f1a-9c3e-4b5a-b978-9f1b3d5c7b88',
    'ok',
    'passport d1a2b3c4-0000-4000-8000-000000000001',
  ],
  [
    'retry.submit',
    'Retry sent',
    5 * HOUR,
    '7f2b4d6e-8a1c-4e3f-a867-8e0a2c4b6a77',
    'unverified',
    'One retry used',
  ],
  ['queue.export', 'Queue exported', 7 * HOUR, null, 'ok', '11 rows, names masked'],
  ['settings.update', 'Settings changed', 26 * HOUR, null, 'ok', 'ageingTargets'],
  ['draft.submit', 'Draft submitted', 3 * DAY + 5 * HOUR, '2a7c9e4d-1b3f-4d6a-b823-4e6a8c0d2c33', 'ok', null],
  [
    'webhooks.subscribe',
    'Webhook subscription created',
    12 * DAY + HOUR,
    null,
    'ok',
    'http://127.0.0.1:8789/webhooks',
  ],
];

export const AUDIT_ROWS: readonly AuditRow[] = AUDIT.map(
  ([action, what, before, customerId, outcome, detail], index) => ({
    seq: AUDIT.length - index,
    at: ago(before),
    actor: 'dana.reviewer',
    action,
    what,
    customerId,
    customerName: PEOPLE.find((candidate) => candidate.id === customerId)?.name ?? null,
    outcome,
    detail,
  }),
);
