import {
  type CustomerDetail,
  type PersonalData,
  type Progress,
  reportedFieldLabel,
} from '#contract/customers.ts';
import { DeskError } from '#contract/errors.ts';
import { idInWords, isServiceId, unusableIdMessage } from '#contract/service-id.ts';
import { type FailureLog, failureMessage, REFUSED, refusal } from '#main/data/failures.ts';
import type { Journal, JournalCustomer } from '#main/data/journal/index.ts';
import { inBackground } from '#main/data/service/index.ts';
import type { EventHub } from '#main/ground/event-hub.ts';
import type { Handlers } from '#main/ground/serve.ts';
import type { ReconcileDuty } from '#main/sync/reconcile/duty.ts';
import { queueRowOf } from '#main/sync/reconcile/queue-row.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { Approvals } from '../team-interfaces/approvals.ts';
import { customerActions } from './actions.ts';

type CustomerChannels =
  | 'customers.get'
  | 'customers.add'
  | 'customers.refresh'
  | 'customers.reconcile'
  | 'customers.reveal'
  | 'customers.importAvailability'
  | 'customers.import';

const IMPORT_PAGE = 200;

/** What the channels work with: the desk, and the approvals that tell whether a retry waits. */
interface CustomersDesk {
  context: DeskContext;
  approvals: Pick<Approvals, 'latestFor'>;
}

async function detail({ context, approvals }: CustomersDesk, id: string): Promise<CustomerDetail> {
  const customer = await context.journal.customers.get(id);
  if (!customer) throw refusal.unknownCustomer();
  // Four eyes: a retry waiting for a lead's approval is this case's one retry.
  const approval = await approvals.latestFor(id);
  return customerDetail(
    context.journal,
    customer,
    approval?.state === 'pending' || approval?.state === 'approved',
  );
}

async function addCustomer(desk: CustomersDesk, ref: string): Promise<CustomerDetail> {
  const { reconciler, journal } = desk.context;
  const { baseUrl } = desk.context.connection().status();
  if (!baseUrl) throw new DeskError('NotConfigured', 'Connect to a service first (Settings).');
  const id = customerIdFrom(ref, baseUrl);
  const customer = await reconciler.refresh(id, { source: 'poll' });
  await journal.audit.record({
    action: 'customer.add',
    customerId: id,
    outcome: customer?.goneAt ? 'gone' : 'ok',
  });
  if (!customer || customer.goneAt) {
    throw new DeskError('NotFound', `The service has no customer with the id ${idInWords(id)}.`);
  }
  // The service's own spelling of the id, which its answer carries.
  return detail(desk, customer.id);
}

async function revealPersonal(desk: CustomersDesk, id: string, reason: string): Promise<PersonalData> {
  const { journal } = desk.context;
  await detail(desk, id);
  const personal = await journal.customers.personal(id);
  const reported = Object.entries(await journal.customers.reported(id));
  const any = personal !== undefined || reported.length > 0;
  await journal.audit.record({
    action: 'personal.reveal',
    customerId: id,
    outcome: any ? 'ok' : 'none',
    detail: reason,
  });
  if (!any) throw new DeskError('NoPersonalData', 'Vetted holds no personal data for this customer.');
  const address = personal?.address;
  return {
    address1: address?.address1 ?? null,
    address2: address?.address2 ?? null,
    city: address?.city ?? null,
    state: address?.state ?? null,
    postalCode: address?.postalCode ?? null,
    dateOfBirth: personal?.dateOfBirth ?? null,
    ssnLastFour: personal?.ssnLastFour ?? null,
    reported: reported.map(([field, value]) => ({
      field,
      label: reportedFieldLabel(field),
      value: typeof value === 'string' ? value : JSON.stringify(value),
    })),
  };
}

async function importAvailability(context: DeskContext) {
  const page = await context.connection().client().customers.list({ limit: 1 });
  return 'unsupported' in page
    ? { available: false, reason: 'This service has no customer list, so there is nothing to import.' }
    : { available: true, reason: null };
}

/** Every customer the service lists, page by page, into the journal; the summary of what it did. */
async function importCustomers(
  context: DeskContext,
  progress: (done: number, total: number | null) => void,
): Promise<string> {
  const { journal, events } = context;
  const client = context.connection().client();
  const seen = { added: 0, known: 0, refused: [] as string[] };
  for (let offset = 0, total: number | null = null; total === null || offset < total; ) {
    const page = await client.customers.list({ limit: IMPORT_PAGE, offset });
    if ('unsupported' in page) return 'This service has no customer list.';
    total = page.total;
    for (const customer of page.customers) {
      // An id no channel could open again is not imported: the summary names it, and why.
      if (!isServiceId(customer.id)) {
        seen.refused.push(unusableIdMessage('customer', customer.id));
        continue;
      }
      const {
        customer: saved,
        statusChanged,
        isNew,
      } = await journal.customers.upsert(customer, {
        source: 'poll',
      });
      seen[isNew ? 'added' : 'known']++;
      if (statusChanged) events.emit('customer.updated', queueRowOf(saved));
    }
    offset += page.customers.length;
    progress(offset, total);
    if (page.customers.length === 0) break;
  }
  await journal.audit.record({ action: 'customers.import', outcome: 'ok' });
  return [importSummary(seen.added, seen.known), ...seen.refused.slice(0, 3)].join(' ');
}

/** The queue and the customer view: what the journal knows, refreshed from the service on demand. */
export function customersFeature(
  options: DeskContext,
  { reconcile, approvals }: { reconcile: ReconcileDuty; approvals: Pick<Approvals, 'latestFor'> },
): Feature<CustomerChannels> {
  const { reconciler } = options;
  const desk: CustomersDesk = { context: options, approvals };
  const jobs = jobRunner(options.events, options.log);
  const reconcileAll = () =>
    jobs.run('reconcile', async (progress) => {
      const { failed } = await reconciler.refreshAll((done, total) => progress(done, total));
      return failed > 0 ? `${failed} customers could not be refreshed; they will be tried again.` : null;
    });

  const handlers: Pick<Handlers, CustomerChannels> = {
    'customers.get': ({ id }) => detail(desk, id),
    'customers.add': ({ ref }) => addCustomer(desk, ref),
    async 'customers.refresh'({ id }) {
      await detail(desk, id);
      await reconciler.refresh(id, { source: 'poll' });
      return detail(desk, id);
    },
    'customers.reconcile': () => reconcileAll(),
    'customers.reveal': ({ id, reason }) => revealPersonal(desk, id, reason),
    'customers.importAvailability': () => importAvailability(options),
    'customers.import': () => jobs.run('import', (progress) => importCustomers(options, progress)),
  };
  return {
    handlers,
    // Start-up reconcile runs behind the first screen; its progress is pushed as it goes.
    onConnected() {
      reconcile.onConnected(() => {
        if (options.connection().status().state !== 'not-configured') void reconcileAll();
      });
    },
  };
}

/**
 * A customer URL of the service Vetted is connected to (never another host), or a pasted id. An id is opaque
 * (its case and every character count): only text that reads as a URL of this service's customers is taken
 * for one; anything else is the id itself, refused in words if no customer could have it.
 */
export function customerIdFrom(ref: string, baseUrl: string): string {
  const text = ref.trim();
  const base = new URL(baseUrl);
  const url = urlOf(text);
  if (url && /^https?:$/.test(url.protocol)) {
    const prefix = `${base.pathname.replace(/\/$/, '')}/customers/`;
    const segment = url.pathname.startsWith(prefix)
      ? url.pathname.slice(prefix.length).replace(/\/$/, '')
      : '';
    const id = segment.includes('/') ? '' : decodedSegment(segment);
    if (url.origin !== base.origin || !id) {
      throw new DeskError(
        'BadReference',
        `That is not a customer URL of the connected service (${base.origin}).`,
      );
    }
    return checkedId(id);
  }
  return checkedId(text);
}

function urlOf(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

function checkedId(id: string): string {
  if (!isServiceId(id)) throw new DeskError('BadReference', unusableIdMessage('customer', id));
  return id;
}

async function customerDetail(
  journal: Journal,
  customer: JournalCustomer,
  retryWaits: boolean,
): Promise<CustomerDetail> {
  const personal = await journal.customers.personal(customer.id);
  const reported = await journal.customers.reported(customer.id);
  const retryUsed = await journal.retries.get(customer.id);
  const offered = customerActions(customer);
  return {
    ...queueRowOf(customer),
    url: customer.url,
    ...splitName(customer.name),
    type: customer.type,
    created: customer.created,
    lastRefreshedAt: customer.lastRefreshed,
    history: await journal.customers.history(customer.id),
    links: Object.entries(customer.links)
      .filter(([rel]) => rel !== 'self')
      .map(([rel, link]) => ({ rel, href: link.href })),
    actions: {
      retry: !offered.retry.allowed
        ? offered.retry
        : retryUsed
          ? { allowed: false, reason: REFUSED.retryUsed }
          : retryWaits
            ? { allowed: false, reason: REFUSED.retryWaits }
            : offered.retry,
      upload: offered.upload,
    },
    personal: personal ? { ssnMasked: `•••-••-${personal.ssnLastFour}` } : null,
    reported: Object.keys(reported).map((field) => ({ field, label: reportedFieldLabel(field) })),
  };
}

/** The journal keeps the display name; the view shows both parts as the service has them. */
function splitName(name: string): { firstName: string; lastName: string } {
  const space = name.indexOf(' ');
  return space < 0
    ? { firstName: name, lastName: '' }
    : { firstName: name.slice(0, space), lastName: name.slice(space + 1) };
}

/** One run per job at a time: a second call waits for the running one. Progress goes out as events. */
function jobRunner(events: EventHub, log: FailureLog) {
  const running = new Map<Progress['job'], Promise<Progress>>();
  return {
    run(
      job: Progress['job'],
      work: (progress: (done: number, total: number | null) => void) => Promise<string | null>,
    ) {
      const existing = running.get(job);
      if (existing) return existing;
      let last: Progress = { job, done: 0, total: null, finished: false, message: null };
      const progress = (done: number, total: number | null) => {
        last = { ...last, done, total };
        events.emit('job.progress', last);
      };
      // Jobs share the request budget behind whatever a reviewer is waiting for.
      const promise = inBackground(() => work(progress))
        .then((message) => ({ ...last, finished: true, message }))
        .catch((error: unknown) => ({
          ...last,
          finished: true,
          message: `The ${job} stopped: ${failureMessage(error, log, `the ${job} job`)}`,
        }))
        .then((final) => {
          events.emit('job.progress', final);
          running.delete(job);
          return final;
        });
      running.set(job, promise);
      return promise;
    },
  };
}

/** What an import did, in words: "Imported from the service: 3 new, 4 already here." */
export function importSummary(added: number, known: number): string {
  return `Imported from the service: ${added} new, ${known} already here.`;
}
