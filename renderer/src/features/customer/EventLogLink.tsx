import { useCaseParts } from './case-parts.tsx';

/** From a customer's status history to the event log, narrowed to that customer, with the event pointed out. */
export function EventLogLink({ customerId, eventId }: { customerId: string; eventId: string }) {
  const { showEvents } = useCaseParts();
  return (
    <button type="button" className="link-button" onClick={() => showEvents(customerId, eventId)}>
      Show in event log
    </button>
  );
}
