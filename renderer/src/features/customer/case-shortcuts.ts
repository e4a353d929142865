import type { CustomerDetail } from '#contract/customers.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import type { Shortcut } from '#renderer/ui/shortcuts.ts';

export interface CaseOpeners {
  back(): void;
  help(): void;
  retry(): void;
  upload(): void;
  note(): void;
  /** The event log, narrowed to this customer. */
  events(customerId: string): void;
}

type ActionState = CustomerDetail['actions']['retry'];

/** Runs an action the status allows; otherwise says why, as the button beside it does. */
const whenAllowed = (state: ActionState, run: () => void) => () => {
  if (state.allowed) run();
  else useCaseStore.getState().announce(state.reason ?? 'Not allowed in this status.');
};

/** The case panel's keys: the same list drives the keys, the hints on the buttons and the `?` overlay. */
export function caseShortcuts(customer: CustomerDetail | null, open: CaseOpeners): Shortcut[] {
  const shortcuts: Shortcut[] = [
    { keys: ['Escape'], label: 'Back to the queue', run: open.back },
    { keys: ['?'], label: 'Show these shortcuts', run: open.help },
  ];
  if (!customer) return shortcuts;
  return [
    { keys: ['r'], label: 'Retry verification', run: whenAllowed(customer.actions.retry, open.retry) },
    { keys: ['u'], label: 'Upload documents', run: whenAllowed(customer.actions.upload, open.upload) },
    { keys: ['n'], label: 'Write a note', run: open.note },
    { keys: ['c'], label: 'Copy the customer ID', run: () => void useCaseStore.getState().copyId() },
    {
      keys: ['e'],
      label: 'Open the events of this customer',
      run: () => open.events(customer.id),
    },
    ...shortcuts,
  ];
}
