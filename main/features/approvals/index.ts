// The four-eyes channels: what waits for approval, what it will send, and a lead's decision. An approved
// retry leaves from the approving lead's desk, through the one-time retry's own send with a key derived from
// the approval (exactly once: the store hands its payload to one approver only); an approved export is
// produced for its maker, once. Every step is audited by the store's functions' callers (the team's chain)
// and so shows in the case's timeline. The SSN stays masked: a checker compares it with the customer's document
// (checkSsn, audited as a reveal, since it tells whether a typed SSN is this customer's), never reads it.
import type { Approval, ApprovalDetail } from '#contract/approvals.ts';
import { QueueExportInputSchema } from '#contract/case.ts';
import { CustomerFormSchema } from '#contract/drafts.ts';
import { DeskError } from '#contract/errors.ts';
import type { TeamMe } from '#contract/roles.ts';
import { describeError } from '#main/ground/log/logger.ts';
import { exportQueue } from '../case/queue-export.ts';
import type { OneTimeRetry } from '../drafts/one-time-retry.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { Approvals, StoredApproval } from '../team-interfaces/approvals.ts';
import { type Roles, requireLead } from '../team-interfaces/claims.ts';
import { approvalNotices } from './notices.ts';
import { fieldsOf, idempotencyKeyOf, sameSsn, ssnOf } from './what-is-sent.ts';

type ApprovalChannel =
  | 'approvals.required'
  | 'approvals.list'
  | 'approvals.forCase'
  | 'approvals.get'
  | 'approvals.checkSsn'
  | 'approvals.approve'
  | 'approvals.reject'
  | 'approvals.cancel'
  | 'approvals.requestExport'
  | 'approvals.collect';

export interface ApprovalsFeatureOptions {
  approvals: Approvals;
  roles: Roles;
  retry: Pick<OneTimeRetry, 'sendApproved'>;
}

const noSuchApproval = () => new DeskError('NoSuchApproval', 'Nothing with this id waits for approval.');

/** What the channels work with: the store, who the reviewer is, the journal, and the retry's send. */
interface ApprovalsDesk {
  journal: DeskContext['journal'];
  approvals: Approvals;
  roles: Roles;
  retry: Pick<OneTimeRetry, 'sendApproved'>;
}

const viewOf = (approval: StoredApproval, me: TeamMe): Approval => ({
  ...approval,
  mine: approval.maker === me.reviewer,
  canDecide: me.can.approve && approval.maker !== me.reviewer && approval.state === 'pending',
});

const view = async ({ roles }: ApprovalsDesk, approval: StoredApproval) => viewOf(approval, await roles.me());

async function find({ approvals }: ApprovalsDesk, id: string): Promise<StoredApproval> {
  const approval = await approvals.get(id);
  if (!approval) throw noSuchApproval();
  return approval;
}

/** What will be sent: for its maker and for leads (the others see that it waits, not what). */
async function detail(desk: ApprovalsDesk, id: string, typedSsn?: string): Promise<ApprovalDetail> {
  const approval = await find(desk, id);
  const me = await desk.roles.me();
  if (approval.maker !== me.reviewer) await requireLead(desk.roles, 'approve');
  const payload = await desk.approvals.payload(id);
  const ssn = ssnOf(approval.kind, payload);
  const ssnCheck =
    typedSsn === undefined || ssn === null ? 'unchecked' : sameSsn(ssn, typedSsn) ? 'matches' : 'differs';
  return { ...viewOf(approval, me), fields: fieldsOf(approval.kind, payload), ssnCheck };
}

/** Compares a typed SSN with the one the approval will send; audited as a reveal, since it tells whether
 *  a typed SSN is this customer's. */
async function checkSsn(desk: ApprovalsDesk, id: string, ssn: string): Promise<ApprovalDetail> {
  await requireLead(desk.roles, 'approve');
  const approval = await find(desk, id);
  const checked = await detail(desk, id, ssn);
  await desk.journal.audit.record({
    action: 'personal.reveal',
    ...(approval.customerId ? { customerId: approval.customerId } : {}),
    outcome: checked.ssnCheck,
    detail: `the SSN approval ${approval.id} will send, compared with the customer’s document`,
  });
  return checked;
}

/** Sends an approved retry from this desk; its outcome (or why it failed) is recorded with the approval. */
async function sendRetry({ approvals, retry }: ApprovalsDesk, approval: StoredApproval, payload: string) {
  const form = CustomerFormSchema.parse(JSON.parse(payload));
  try {
    const outcome = await retry.sendApproved({
      customerId: approval.customerId as string,
      form,
      idempotencyKey: idempotencyKeyOf(approval.id),
    });
    return (await approvals.finish(approval.id, outcome.status)).approval;
  } catch (error) {
    const code = error instanceof DeskError ? error.code : 'failed';
    await approvals.finish(approval.id, `not sent: ${code}`);
    throw error;
  }
}

/** Produces an approved export for its maker, once (finishing hands the payload out a single time). */
async function collectExport(desk: ApprovalsDesk, id: string) {
  await requireLead(desk.roles, 'exportNames');
  const approval = await find(desk, id);
  if (approval.kind !== 'exportNames') throw noSuchApproval();
  const { payload } = await desk.approvals.finish(id, 'exported');
  if (payload === null) throw noSuchApproval();
  return exportQueue(desk.journal, QueueExportInputSchema.parse(JSON.parse(payload)));
}

function approvalHandlers(desk: ApprovalsDesk): Feature<ApprovalChannel>['handlers'] {
  const { approvals, roles } = desk;
  return {
    'approvals.required': () => approvals.required(),
    async 'approvals.list'() {
      const me = await roles.me();
      return (await approvals.open()).map((approval) => viewOf(approval, me));
    },
    async 'approvals.forCase'({ customerId }) {
      const approval = await approvals.latestFor(customerId);
      return { approval: approval ? await view(desk, approval) : null };
    },
    'approvals.get': ({ id }) => detail(desk, id),
    'approvals.checkSsn': ({ id, ssn }) => checkSsn(desk, id, ssn),
    async 'approvals.approve'({ id, note }) {
      await requireLead(roles, 'approve');
      const { approval, payload } = await approvals.decide(id, true, note);
      if (approval.kind === 'retry' && payload !== null) {
        return view(desk, await sendRetry(desk, approval, payload));
      }
      return view(desk, approval);
    },
    async 'approvals.reject'({ id, note }) {
      await requireLead(roles, 'approve');
      return view(desk, (await approvals.decide(id, false, note)).approval);
    },
    async 'approvals.cancel'({ id }) {
      return view(desk, await approvals.cancel(id));
    },
    async 'approvals.requestExport'(input) {
      await requireLead(roles, 'exportNames');
      if (!(await approvals.required()).exportNames) {
        throw new DeskError('NoApprovalNeeded', 'An export with names needs no approval here: export it.');
      }
      return view(desk, await approvals.request('exportNames', null, JSON.stringify(input)));
    },
    'approvals.collect': ({ id }) => collectExport(desk, id),
  };
}

export function approvalsFeature(
  { journal, events, log, notifier }: DeskContext,
  { approvals, roles, retry }: ApprovalsFeatureOptions,
): Feature<ApprovalChannel> {
  const desk: ApprovalsDesk = { journal, approvals, roles, retry };
  const notify = approvalNotices({ approvals, journal, notifier });
  const stopWatching = approvals.watch((approval) => {
    view(desk, approval)
      .then((changed) => {
        events.emit('approvals.changed', changed);
        return notify(changed);
      })
      .catch((error: unknown) => log.warn('approval change not told', describeError(error)));
  });
  return {
    handlers: approvalHandlers(desk),
    async close() {
      stopWatching();
      await approvals.close();
    },
  };
}
