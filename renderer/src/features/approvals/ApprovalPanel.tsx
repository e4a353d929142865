import { Check, ScanSearch, X } from 'lucide-react';
import { Fragment, useEffect, useState } from 'react';
import { type Approval, type ApprovalDetail, approvalChannels } from '#contract/approvals.ts';
import { ClaimNoteSchema } from '#contract/claims.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { OneFieldDialog } from '#renderer/ui/OneFieldDialog.tsx';
import { StatusBadge } from '#renderer/ui/StatusBadge.tsx';
import { Moment } from '#renderer/ui/time.tsx';
import { APPROVAL_LOOKS, approvalSentence } from './approval-words.tsx';
import { useApprovalsStore } from './approvals-store.ts';

const ssnRule = approvalChannels['approvals.checkSsn'].input.shape.ssn;

const SSN_CHECK_WORDS: Record<ApprovalDetail['ssnCheck'], string | null> = {
  unchecked: null,
  matches: 'The SSN you typed from the document is the one that will be sent.',
  differs: 'The SSN you typed from the document is NOT the one that will be sent.',
};

/** The case's four-eyes panel: what waits for approval on this case, and what the reviewer may do about it. */
export function ApprovalPanel({ customerId }: { customerId: string }) {
  useWatch(useApprovalsStore.getState().watch);
  const approval = useApprovalsStore((state) => state.byCase[customerId]);
  useEffect(() => {
    void useApprovalsStore.getState().loadCase(customerId);
  }, [customerId]);
  // Every step is in the timeline: it follows the approval.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new state of the approval is the trigger.
  useEffect(() => {
    if (approval) void useCaseStore.getState().reload();
  }, [approval?.id, approval?.state]);
  if (!approval || approval.state === 'cancelled') return null;
  return (
    <section aria-labelledby="approval-title" className="case-section approval-panel">
      <h3 id="approval-title">Four eyes</h3>
      <p className="approval-state">
        <StatusBadge {...APPROVAL_LOOKS[approval.state]} />{' '}
        <span className="hint">
          asked by {approval.mine ? 'you' : approval.maker} <Moment at={approval.requestedAt} />
          {approval.state === 'pending' && (
            <>
              {' '}
              · expires <Moment at={approval.expiresAt} />
            </>
          )}
        </span>
      </p>
      <p>{approvalSentence(approval)}</p>
      {approval.state === 'pending' && approval.mine && <Withdraw approval={approval} />}
      {approval.canDecide && <Decide approval={approval} />}
    </section>
  );
}

function Withdraw({ approval }: { approval: Approval }) {
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <div className="actions">
      <Button
        icon={X}
        onClick={() =>
          void useApprovalsStore
            .getState()
            .cancel(approval.id)
            .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)))
        }
      >
        Withdraw request
      </Button>
      {problem && <p role="alert">{problem}</p>}
    </div>
  );
}

type Asking = 'checkSsn' | 'approve' | 'reject' | null;

/** A lead who is not the maker: exactly what will be sent (the SSN masked), and the decision. */
function Decide({ approval }: { approval: Approval }) {
  const [detail, setDetail] = useState<ApprovalDetail | null>(null);
  const [asking, setAsking] = useState<Asking>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setDetail(null);
    useApprovalsStore
      .getState()
      .detail(approval.id)
      .then(setDetail, (error: unknown) =>
        setProblem(error instanceof Error ? error.message : String(error)),
      );
  }, [approval.id]);
  const decide = (approve: boolean) => async (note: string) => {
    await useApprovalsStore.getState().decide(approval.id, approve, note);
  };
  return (
    <>
      <h4 className="approval-what">What will be sent</h4>
      {problem && <p role="alert">{problem}</p>}
      {detail ? (
        <dl className="facts" aria-label="What will be sent">
          {detail.fields.map(({ label, value }) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      ) : (
        !problem && <p className="hint">Opening what will be sent…</p>
      )}
      {detail && SSN_CHECK_WORDS[detail.ssnCheck] && (
        <p
          role={detail.ssnCheck === 'differs' ? 'alert' : 'status'}
          className={detail.ssnCheck === 'differs' ? undefined : 'hint'}
        >
          {SSN_CHECK_WORDS[detail.ssnCheck]}
        </p>
      )}
      <div className="actions">
        <Button weight="primary" icon={Check} onClick={() => setAsking('approve')}>
          Approve and send…
        </Button>
        <Button weight="danger" icon={X} onClick={() => setAsking('reject')}>
          Reject…
        </Button>
        {detail?.fields.some((field) => field.label === 'SSN') && (
          <Button icon={ScanSearch} onClick={() => setAsking('checkSsn')}>
            Check SSN…
          </Button>
        )}
      </div>
      <OneFieldDialog
        open={asking === 'checkSsn'}
        title="Check the SSN against the document"
        label="SSN on the document"
        secret
        hint="Type the SSN the customer's document shows: Vetted says whether it is the one that will be sent, without showing it. The check is written to the team's audit log."
        action={{ label: 'Check', busyLabel: 'Checking…' }}
        fieldPointer="/ssn"
        check={(ssn) => {
          const checked = ssnRule.safeParse(ssn);
          return checked.success ? null : (checked.error.issues[0]?.message ?? 'Type the nine digits.');
        }}
        submit={async (ssn) => setDetail(await useApprovalsStore.getState().detail(approval.id, ssn))}
        onClose={() => setAsking(null)}
      />
      <NoteDialog
        open={asking === 'approve'}
        title="Approve and send"
        hint="It leaves now, once. Your note goes with the approval into the audit log."
        action={{ label: 'Approve and send', busyLabel: 'Sending…' }}
        submit={decide(true)}
        onClose={() => setAsking(null)}
      />
      <NoteDialog
        open={asking === 'reject'}
        title="Reject"
        hint={`Nothing is sent. ${approval.maker} sees your note.`}
        action={{ label: 'Reject', busyLabel: 'Rejecting…' }}
        submit={decide(false)}
        onClose={() => setAsking(null)}
      />
    </>
  );
}

function NoteDialog(props: {
  open: boolean;
  title: string;
  hint: string;
  action: { label: string; busyLabel: string };
  submit(note: string): Promise<void>;
  onClose(): void;
}) {
  return (
    <OneFieldDialog
      {...props}
      label="Note"
      multiline
      fieldPointer="/note"
      check={(note) => {
        const checked = ClaimNoteSchema.safeParse(note);
        return checked.success ? null : (checked.error.issues[0]?.message ?? 'Write a note.');
      }}
      submit={(note) => props.submit(ClaimNoteSchema.parse(note))}
    />
  );
}
