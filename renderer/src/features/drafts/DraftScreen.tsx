import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { CustomerForm, DraftView } from '#contract/drafts.ts';
import { VettedError } from '#contract/errors.ts';
import { CustomerFields } from '#renderer/shared/customer-form/CustomerFields.tsx';
import { fixText } from '#renderer/shared/customer-form/form-rules.ts';
import { useCustomerForm } from '#renderer/shared/customer-form/useCustomerForm.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { useAppStore } from '#renderer/store.ts';
import { DiscardDialog } from './DiscardDialog.tsx';
import { DraftActions } from './DraftActions.tsx';
import { DraftState } from './DraftState.tsx';
import { createDraftSession, type DraftSession } from './draft-session.ts';
import { OutboxPanel } from './OutboxPanel.tsx';

/** Every customer Vetted creates is a personal one; the rest starts empty (the IP address too). */
const NEW_FORM: CustomerForm = { type: 'personal' };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A new customer's form, or a draft reopened as it was left (from the queue's Drafts section). */
export function DraftScreen({ draftId }: { draftId: string | null }) {
  // App keys this screen by opening: each opening is a fresh session.
  const [session] = useState(() => createDraftSession(draftId));
  const opened = useStore(session, (state) => state.opened);
  const problem = useStore(session, (state) => state.openProblem);
  useEffect(() => {
    void session.getState().open();
  }, [session]);
  useWatch(session.getState().watch);

  if (draftId === null || opened) return <DraftEditor session={session} opened={opened} />;
  return (
    <section className="draft" aria-labelledby="draft-title" aria-busy={!problem}>
      <h2 id="draft-title">New customer</h2>
      {problem ? <p role="alert">{problem}</p> : <p>Loading draft…</p>}
    </section>
  );
}

/** Leaving the form, or the window, saves what is still waiting for a pause in typing. */
function useSaveOnLeave(session: DraftSession) {
  useEffect(() => {
    const { saver } = session.getState();
    const saveNow = () => void saver.flush().catch(() => {});
    window.addEventListener('pagehide', saveNow);
    return () => {
      window.removeEventListener('pagehide', saveNow);
      saveNow();
    };
  }, [session]);
}

function DraftEditor({ session, opened }: { session: DraftSession; opened: DraftView | null }) {
  const openCustomer = useAppStore((state) => state.openCustomer);
  const show = useAppStore((state) => state.show);
  const control = useCustomerForm('create', opened?.form ?? NEW_FORM);
  const status = useStore(session, (state) => state.status);
  const saveState = useStore(session, (state) => state.saveState);
  const discarded = useStore(session, (state) => state.discarded);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [discarding, setDiscarding] = useState(false);
  const stateRef = useRef<HTMLElement>(null);
  const { saver } = session.getState();
  const locked = status !== null && !status.actions.edit;
  useSaveOnLeave(session);

  useEffect(() => {
    if (discarded) show('queue');
  }, [discarded, show]);

  const rejected = status?.state === 'rejected' ? status.fieldErrors : {};
  const rejectedKey = JSON.stringify(rejected);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new set of errors is the trigger; the form's functions are read fresh.
  useEffect(() => {
    control.showReported(rejected);
  }, [rejectedKey]);

  /** Runs a button's action on the saved draft; errors go on the fields they name, and in words. */
  const act = async (action: (id: string) => Promise<unknown>) => {
    setBusy(true);
    setProblem(null);
    try {
      const id = await saver.flush();
      if (!id) throw new Error('Type the customer’s details first.');
      await action(id);
    } catch (error) {
      if (error instanceof VettedError && Object.keys(error.fields).length > 0) {
        control.showReported(error.fields, { focus: true });
      }
      setProblem(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    // The same rules main checks before queueing: nothing leaves while one is broken.
    if (!control.checkAll()) return;
    void act(async (id) => {
      const { queued, invalid, skipped } = await session.getState().submit(id);
      if (queued.includes(id)) stateRef.current?.focus();
      const errors = invalid[0]?.errors;
      if (errors) {
        control.showReported(Object.fromEntries(errors.map((error) => [error.path, fixText(error)])), {
          focus: true,
        });
      }
      if (skipped[0]) setProblem(skipped[0].reason);
    });
  };
  const discard = () => session.getState().discard();
  const name = [control.form.firstName, control.form.lastName].filter(Boolean).join(' ');

  return (
    <div className="drafts">
      <form className="draft" aria-labelledby="draft-title" onSubmit={submit} noValidate>
        <header className="screen-header">
          <h2 id="draft-title">New customer</h2>
        </header>
        <DraftState ref={stateRef} status={status} saveState={saveState} />
        {control.formMessage && <p role="alert">{control.formMessage}</p>}
        {problem && <p role="alert">{problem}</p>}
        <CustomerFields
          mode="create"
          control={control}
          locked={locked}
          onFormChange={(form) => saver.schedule(form)}
        />
        <DraftActions
          status={status}
          busy={busy}
          onTryAgain={() => void act(session.getState().tryAgain)}
          onLinkDuplicate={() => void act(session.getState().linkDuplicate)}
          onOpenCustomer={openCustomer}
          onDiscard={() => setDiscarding(true)}
        />
      </form>
      <OutboxPanel currentId={status?.id ?? null} beforeSubmitAll={() => saver.flush()} />
      <DiscardDialog open={discarding} name={name} onClose={() => setDiscarding(false)} onConfirm={discard} />
    </div>
  );
}
