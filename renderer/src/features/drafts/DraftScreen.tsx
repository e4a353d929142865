import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { CustomerForm, DraftStatus, DraftView } from '../../../../contract/drafts.ts';
import { VettedError } from '../../../../contract/errors.ts';
import { api } from '../../api.ts';
import { useAppStore } from '../../store.ts';
import { type Autosaver, createAutosaver, type SaveState } from './autosave.ts';
import { CustomerFields } from './CustomerFields.tsx';
import { DiscardDialog } from './DiscardDialog.tsx';
import { DraftActions } from './DraftActions.tsx';
import { DraftState } from './DraftState.tsx';
import { fixText } from './form-rules.ts';
import { OutboxPanel } from './OutboxPanel.tsx';
import { useCustomerForm } from './useCustomerForm.ts';

/** A pause in typing this long saves the draft. */
const AUTOSAVE_DELAY_MS = 600;
/** Every customer Vetted creates is a personal one; the rest starts empty (the IP address too). */
const NEW_FORM: CustomerForm = { type: 'personal' };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A new customer's form, or a draft reopened as it was left (from the queue's Drafts section). */
export function DraftScreen({ draftId }: { draftId: string | null }) {
  const [opened, setOpened] = useState<DraftView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!draftId) return;
    let current = true;
    api.drafts.get({ id: draftId }).then(
      (view) => current && setOpened(view),
      (error: unknown) => current && setProblem(`This draft could not be opened: ${messageOf(error)}`),
    );
    return () => {
      current = false;
    };
  }, [draftId]);

  if (draftId === null || opened) return <DraftEditor opened={opened} />;
  return (
    <section className="draft" aria-labelledby="draft-title" aria-busy={!problem}>
      <h2 id="draft-title">New customer</h2>
      {problem ? <p role="alert">{problem}</p> : <p>Loading draft…</p>}
    </section>
  );
}

/** The autosave of this form; a new form becomes a draft at its first save. */
function useAutosaver(
  opened: DraftView | null,
  onCreated: (draft: DraftStatus) => void,
  onState: (state: SaveState) => void,
): Autosaver {
  const [saver] = useState(() =>
    createAutosaver({
      id: opened?.id ?? null,
      delayMs: AUTOSAVE_DELAY_MS,
      async create() {
        const draft = await api.drafts.create();
        onCreated(draft);
        return draft.id;
      },
      save: async (id, form) => (await api.drafts.save({ id, form })).savedAt,
      onState,
    }),
  );
  useEffect(() => {
    // Leaving the form, or the window, saves what is still waiting for a pause in typing.
    const saveNow = () => void saver.flush().catch(() => {});
    window.addEventListener('pagehide', saveNow);
    return () => {
      window.removeEventListener('pagehide', saveNow);
      saveNow();
    };
  }, [saver]);
  return saver;
}

function DraftEditor({ opened }: { opened: DraftView | null }) {
  const openCustomer = useAppStore((state) => state.openCustomer);
  const show = useAppStore((state) => state.show);
  const control = useCustomerForm('create', opened?.form ?? NEW_FORM);
  const [status, setStatus] = useState<DraftStatus | null>(opened);
  const [saveState, setSaveState] = useState<SaveState>(
    opened ? { kind: 'saved', at: opened.updated } : { kind: 'unsaved' },
  );
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [discarding, setDiscarding] = useState(false);
  const stateRef = useRef<HTMLElement>(null);
  const saver = useAutosaver(opened, setStatus, setSaveState);
  const locked = status !== null && !status.actions.edit;

  useEffect(() => {
    const offUpdated = api.on('draft.updated', (draft) => {
      if (draft.id === saver.id()) setStatus(draft);
    });
    const offDiscarded = api.on('draft.discarded', ({ id }) => {
      if (id === saver.id()) show('queue');
    });
    return () => {
      offUpdated();
      offDiscarded();
    };
  }, [saver, show]);

  // The service's field errors of a rejection go on their fields, until the reviewer edits each.
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
      const { queued, invalid, skipped } = await api.drafts.submit({ ids: [id] });
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
  const discard = async () => {
    const id = saver.id();
    if (id) await api.drafts.discard({ id, confirmed: true });
    saver.cancel();
    show('queue');
  };
  const name = [control.form.firstName, control.form.lastName].filter(Boolean).join(' ');

  return (
    <div className="drafts">
      <form className="draft" aria-labelledby="draft-title" onSubmit={submit} noValidate>
        <h2 id="draft-title">New customer</h2>
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
          onTryAgain={() => void act((id) => api.drafts.tryAgain({ id }))}
          onLinkDuplicate={() => void act((id) => api.drafts.linkDuplicate({ id }))}
          onOpenCustomer={openCustomer}
          onDiscard={() => setDiscarding(true)}
        />
      </form>
      <OutboxPanel currentId={status?.id ?? null} beforeSubmitAll={() => saver.flush()} />
      <DiscardDialog open={discarding} name={name} onClose={() => setDiscarding(false)} onConfirm={discard} />
    </div>
  );
}
