import { Send, TriangleAlert } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { RetryOutcome as Outcome, RetryPrefill, RetryWaiting } from '#contract/drafts.ts';
import { VettedError } from '#contract/errors.ts';
import { CustomerFields } from '#renderer/shared/customer-form/CustomerFields.tsx';
import { useCustomerForm } from '#renderer/shared/customer-form/useCustomerForm.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Dialog } from '#renderer/ui/Dialog.tsx';
import { RetryOutcome } from './RetryOutcome.tsx';
import { useRetryStore } from './retry-store.ts';
import { SsnField } from './SsnField.tsx';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The one retry of a customer in `retry`. Everything typed here, the full SSN above all, lives in
 * this dialog's components only: closing it drops all of it.
 */
interface RetryDialogProps {
  open: boolean;
  customerId: string;
  customerName: string;
  onClose(): void;
  /** The retry was answered, whatever the answer: the customer's page reads it again. */
  onSent(): void;
}

export function RetryDialog({ open, customerId, customerName, onClose, onSent }: RetryDialogProps) {
  const [sending, setSending] = useState(false);
  return (
    <Dialog
      open={open}
      title="Retry verification"
      // Not while the retry is on its way: its outcome must be seen.
      onClose={() => {
        if (!sending) onClose();
      }}
    >
      <RetryLoader
        customerId={customerId}
        customerName={customerName}
        onSending={setSending}
        onClose={onClose}
        onSent={onSent}
      />
    </Dialog>
  );
}

interface RetryStepProps {
  customerId: string;
  customerName: string;
  onSending(sending: boolean): void;
  onClose(): void;
  onSent(): void;
}

/** The form's starting values: from the draft that created the customer, or none. */
function RetryLoader(props: RetryStepProps) {
  const [prefill, setPrefill] = useState<RetryPrefill | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    useRetryStore
      .getState()
      .prefill(props.customerId)
      .then(
        (loaded) => current && setPrefill(loaded),
        (error: unknown) => current && setProblem(messageOf(error)),
      );
    return () => {
      current = false;
    };
  }, [props.customerId]);

  if (problem) return <RetryClosed message={problem} onClose={props.onClose} />;
  if (!prefill) return <p>Loading the customer’s details…</p>;
  return <RetryForm {...props} prefill={prefill} />;
}

type Step = 'form' | 'confirm' | 'sending';

function RetryForm({
  customerId,
  customerName,
  prefill,
  onSending,
  onClose,
  onSent,
}: RetryStepProps & { prefill: RetryPrefill }) {
  const control = useCustomerForm('retry', prefill.form);
  const [step, setStep] = useState<Step>('form');
  const [outcome, setOutcome] = useState<Outcome | RetryWaiting | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // On the form (opened, or back after the service rejected fields), the reviewer starts where work is
  // needed: the first error, else the SSN of a pre-filled form, else the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the step coming back to the form is the trigger.
  useEffect(() => {
    if (step === 'form') control.focus(control.firstError() ?? (prefill.fromDraft ? 'tin' : 'firstName'));
  }, [step]);

  const review = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (control.checkAll()) setStep('confirm');
  };
  const send = async () => {
    setStep('sending');
    onSending(true);
    const request = { customerId, form: { ...control.form }, confirmed: true as const };
    try {
      setOutcome(await useRetryStore.getState().send(request));
    } catch (error) {
      if (error instanceof VettedError && Object.keys(error.fields).length > 0) {
        // The fields were refused before anything changed: the one retry is still there.
        control.showReported(error.fields);
        setProblem(`${error.message} Type the full SSN again before you send.`);
        setStep('form');
      } else {
        setFailure(messageOf(error));
      }
    } finally {
      // The full SSN is dropped as soon as the request is answered, whatever the answer.
      request.form.tin = '';
      control.clear('tin');
      onSending(false);
      onSent();
    }
  };

  if (outcome) return <RetryOutcome outcome={outcome} onClose={onClose} />;
  if (failure) return <RetryClosed message={failure} onClose={onClose} />;
  if (step === 'sending') return <p role="status">Sending the retry to the service…</p>;
  if (step === 'confirm') {
    return (
      <RetryConfirm customerName={customerName} onSend={() => void send()} onBack={() => setStep('form')} />
    );
  }
  return (
    <form className="retry-flow" aria-label="Corrected details" onSubmit={review} noValidate>
      <div className="notice notice-warning">
        <TriangleAlert aria-hidden="true" className="notice-icon" />
        <p>
          <strong>One retry only.</strong> The service accepts the corrected details of a customer once: check
          every field before you send them.
        </p>
      </div>
      <p className="hint">
        {prefill.fromDraft
          ? 'Filled in from the draft that created this customer in Vetted. Type the full Social Security number: Vetted never kept it.'
          : 'Vetted did not create this customer, so the form starts empty: fill in every field.'}
      </p>
      {control.formMessage && <p role="alert">{control.formMessage}</p>}
      {problem && <p role="alert">{problem}</p>}
      <CustomerFields
        mode="retry"
        control={control}
        ssnField={
          <SsnField
            value={control.form.tin ?? ''}
            error={control.shown.tin}
            inputRef={control.register('tin')}
            onChange={(value) => control.change('tin', value)}
          />
        }
      />
      <div className="actions dialog-actions">
        <Button type="submit" weight="primary">
          Send retry…
        </Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </form>
  );
}

function RetryConfirm({
  customerName,
  onSend,
  onBack,
}: {
  customerName: string;
  onSend(): void;
  onBack(): void;
}) {
  const question = useRef<HTMLParagraphElement>(null);
  useEffect(() => question.current?.focus(), []);
  return (
    <div className="retry-confirm">
      <p ref={question} tabIndex={-1}>
        <strong>Send the one retry for {customerName}?</strong>
      </p>
      <p>
        The service allows a single retry. Once it is sent, Vetted cannot send another for this customer,
        whatever the outcome.
      </p>
      <div className="actions dialog-actions">
        <Button weight="primary" icon={Send} onClick={onSend}>
          Send the retry
        </Button>
        <Button onClick={onBack}>Back to the form</Button>
      </div>
    </div>
  );
}

/** The retry cannot go ahead (used, refused, or its outcome is unknown): said in words. */
function RetryClosed({ message, onClose }: { message: string; onClose(): void }) {
  return (
    <>
      <p role="alert">{message}</p>
      <div className="actions">
        <button type="button" onClick={onClose}>
          Done
        </button>
      </div>
    </>
  );
}
