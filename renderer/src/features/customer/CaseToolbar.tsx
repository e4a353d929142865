import { KeyHint } from '../../ui/KeyHint.tsx';
import { useEventLogStore } from '../events/event-log-store.ts';

/** The case's own actions beside the status's ones: a note and the customer's events. */
export function CaseToolbar({ customerId, onNote }: { customerId: string; onNote(): void }) {
  return (
    <div className="actions case-toolbar">
      <button type="button" onClick={onNote} aria-keyshortcuts="n">
        Write a note <KeyHint keys="n" />
      </button>
      <button
        type="button"
        onClick={() => useEventLogStore.getState().showCustomerEvents(customerId)}
        aria-keyshortcuts="e"
      >
        Events for this customer <KeyHint keys="e" />
      </button>
    </div>
  );
}
