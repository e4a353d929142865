// Being told of four eyes (#39): a request that waits for this lead, and this maker's request decided, as
// desktop notifications through the desk's one rule (the notifier). The store tells every change, and on
// start everything open as if it had just changed: what was already so when the desk started is not news
// (the queue's "Waiting for approval" shows it), so the first look at the store is the line.
import { APPROVAL_KIND_TITLES, type Approval } from '#contract/approvals.ts';
import type { NotificationKind } from '#contract/notifications.ts';
import type { Journal } from '#main/data/journal/index.ts';
import type { Notifier } from '#main/ground/notifier.ts';
import type { Approvals } from '../team-interfaces/approvals.ts';

const DECIDED: ReadonlySet<Approval['state']> = new Set(['approved', 'rejected', 'sent']);

interface Moment {
  kind: NotificationKind;
  title: string;
  body: (name: string) => string;
}

const what = (approval: Approval) => APPROVAL_KIND_TITLES[approval.kind].toLowerCase();

/** The moment this change is for this reviewer, if any: a request to decide, or their own decided. */
function momentOf(approval: Approval): Moment | null {
  if (approval.state === 'pending' && approval.canDecide) {
    return {
      kind: 'approvalWaiting',
      title: 'Approval waiting for you',
      body: (name) => `${approval.maker} asks you to approve a ${what(approval)} for ${name}.`,
    };
  }
  if (approval.mine && DECIDED.has(approval.state)) {
    const verdict = approval.state === 'rejected' ? 'rejected' : 'approved';
    return {
      kind: 'approvalDecided',
      title: `Request ${verdict}`,
      body: (name) => `${approval.checker ?? 'A lead'} ${verdict} your ${what(approval)} for ${name}.`,
    };
  }
  return null;
}

/** Returns what the approvals feature calls with each change, as this reviewer sees it. */
export function approvalNotices(options: {
  approvals: Pick<Approvals, 'open'>;
  journal: Pick<Journal, 'customers'>;
  notifier: Pick<Notifier, 'tell'>;
}): (approval: Approval) => Promise<void> {
  const { approvals, journal, notifier } = options;
  // Each request's state when the desk started; a failed read makes every change news, not none.
  const before = approvals.open().then(
    (open) => new Map(open.map((approval) => [approval.id, approval.state])),
    () => new Map<string, Approval['state']>(),
  );
  // Told once each: a request waiting, a decision (approved and then sent is one decision).
  const told = new Set<string>();
  return async (approval) => {
    const moment = momentOf(approval);
    // An export with names is no one case to open: the queue's "Waiting for approval" shows it.
    if (!moment || approval.customerId === null) return;
    const key = `${approval.id}:${moment.kind}`;
    const was = (await before).get(approval.id);
    const known =
      moment.kind === 'approvalWaiting' ? was === 'pending' : was !== undefined && DECIDED.has(was);
    if (known || told.has(key)) return;
    told.add(key);
    const customer = await journal.customers.get(approval.customerId);
    notifier.tell(moment.kind, {
      customerId: approval.customerId,
      status: 'approval',
      title: moment.title,
      body: moment.body(customer?.name ?? 'a customer'),
    });
  };
}
