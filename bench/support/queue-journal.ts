import { type Journal, openJournal } from '#main/data/journal/index.ts';
import type { ServiceCustomer } from '#main/data/journal/repositories/customers.ts';

/** A surname planted in three customers of each journal: a search that matches a few rows, as most do. */
export const RARE_SURNAME = 'Quennell';
/** Each first name is given to 1 customer in 18 (≈ 5.5 %): searching one is the "broad" search. */
export const BROAD_FIRST_NAME = 'Sarah';
const FIRST_NAMES = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Joseph',
  'Jessica',
  'Thomas',
  BROAD_FIRST_NAME,
];
const SYLLABLES = [
  'al',
  'ber',
  'cor',
  'dan',
  'el',
  'fin',
  'gar',
  'har',
  'is',
  'jor',
  'kel',
  'lin',
  'mor',
  'nor',
];
const ENDINGS = ['son', 'ton', 'ley', 'wood', 'field', 'man', 'ford', 'ski', 'ez', 'berg', 'stein', 'well'];

// Weighted like a real queue: mostly verified, a tail of work and of statuses the app does not know.
const STATUSES = [
  ...Array<string>(70).fill('verified'),
  ...Array<string>(10).fill('document'),
  ...Array<string>(8).fill('retry'),
  ...Array<string>(5).fill('suspended'),
  ...['unverified', 'unverified', 'kba', 'kba', 'deactivated', 'deactivated', 'unverified'],
];

/** Deterministic, so both runs and both sizes see the same kind of data. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function surname(random: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const name = pick(SYLLABLES) + pick(SYLLABLES) + pick(ENDINGS);
  return name[0]!.toUpperCase() + name.slice(1);
}

export interface SeedOptions {
  file: string;
  dataKey: Buffer;
  customers: number;
  drafts?: number;
  /** Only final statuses (verified, suspended): nothing for a start-up reconcile to fetch. */
  finalOnly?: boolean;
}

/** A customer as the service would answer it, and when it entered its status (the queue's order). */
export interface QueueCustomer {
  customer: ServiceCustomer;
  since: string;
}

/**
 * `count` customers waiting up to 90 days, in an order unrelated to their ids (`00000000-…-<i>`), the same
 * for the same count: both runs and both sizes see the same kind of data.
 */
export function* queueCustomers(count: number, { finalOnly = false } = {}): Generator<QueueCustomer> {
  const random = seededRandom(count);
  const now = Date.parse('2026-03-01T12:00:00.000Z');
  const rare = new Set([7, Math.floor(count / 2), count - 3]);
  for (let i = 0; i < count; i++) {
    const firstName = FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]!;
    const lastName = rare.has(i) ? RARE_SURNAME : surname(random);
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const since = new Date(now - Math.floor(random() * 90 * 86_400_000)).toISOString();
    const status = STATUSES[Math.floor(random() * STATUSES.length)]!;
    yield {
      since,
      customer: {
        id,
        firstName,
        lastName,
        email: `${firstName}.${lastName}.${i}@example.com`.toLowerCase(),
        type: 'personal',
        status: finalOnly && status !== 'verified' ? (i % 2 ? 'verified' : 'suspended') : status,
        created: since,
        _links: { self: { href: `https://api.service.test/customers/${id}` } },
      },
    };
  }
}

/** A journal of `customers` customers (`queueCustomers`), and `drafts` drafts. */
export async function seedQueueJournal({
  file,
  dataKey,
  customers,
  drafts = 0,
  finalOnly,
}: SeedOptions): Promise<void> {
  const journal: Journal = openJournal({ file, dataKey });
  const random = seededRandom(customers + 1);
  await journal.transaction(async (tx) => {
    for (const { customer, since } of queueCustomers(customers, { finalOnly })) {
      await tx.customers.upsert(customer, { source: 'poll', at: since });
    }
    for (let i = 0; i < drafts; i++) {
      await tx.drafts.insert({
        form: { firstName: 'Draft', lastName: surname(random), email: `d${i}@example.com` },
      });
    }
  });
  await journal.close();
}
