import { useEventLogStore } from './event-log-store.ts';

/** From a customer's status history to the event log, narrowed to that customer, with the event pointed out. */
export function EventLogLink({ customerId, eventId }: { customerId: string; eventId: string }) {
  return (
    <button
      type="button"
      className="link-button"
      onClick={() => useEventLogStore.getState().showCustomerEvents(customerId, eventId)}
    >
      Show in event log
    </button>
  );
}
