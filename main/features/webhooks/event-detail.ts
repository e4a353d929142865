import { rejectionReasonText } from '#contract/document-rules.ts';
import { DeskError } from '#contract/errors.ts';
import type { EventDetail } from '#contract/event-detail.ts';
import { failureMessage } from '#main/data/failures.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { namesOf, toEventRow } from './ingest.ts';

const REJECTED_TOPIC = 'customer_verification_document_failed';

/**
 * An event of the log opened in full. The journal holds what Vetted learnt of the delivery; the event's
 * body is asked of the service (its event resource is the very body of the webhook), so the journal
 * keeps no second copy of every payload. Offline, the detail still opens, and says why the payload is missing.
 */
export function eventDetailFeature(context: DeskContext): Feature<'events.detail'> {
  const { journal } = context;
  return {
    handlers: {
      async 'events.detail'({ id }) {
        const event = await journal.events.get(id);
        if (!event) throw new DeskError('NotFound', 'Vetted has received no event with this id.');
        const row = toEventRow(event, await namesOf(journal, [event]));
        const detail: EventDetail = {
          event: row,
          deliveryId: event.id,
          reason: null,
          payload: null,
          payloadProblem: null,
        };
        try {
          const client = context.connection().client();
          const body = await client.events.get(event.id);
          detail.payload = JSON.stringify(body, null, 2);
        } catch (error) {
          detail.payloadProblem = `The service could not be asked for this event: ${failureMessage(error, context.log, 'asking for an event')}`;
          return detail;
        }
        if (event.topic === REJECTED_TOPIC) {
          // The reason is a bonus: without it the detail still says "Document rejected".
          const document = async () => context.connection().client().documents.get(event.resourceId);
          detail.reason = await document().then(rejectionReasonText, () => null);
        }
        return detail;
      },
    },
  };
}
