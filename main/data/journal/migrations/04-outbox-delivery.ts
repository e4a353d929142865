// Journal migration 4: what the outbox engine needs to deliver drafts exactly once.
import type { Migration } from './runner.ts';

// The outbox engine (main/features/drafts/outbox/). maybe_created: a request with this key may have been processed without
// Vetted learning the answer, so the key must be replayed (or, once the service may have forgotten it, the
// customer looked for) before the draft can change. duplicate_of: the existing customer a Duplicate e-mail named.
const outboxDelivery = `
ALTER TABLE outbox ADD COLUMN maybe_created INTEGER NOT NULL DEFAULT 0 CHECK (maybe_created IN (0, 1));
ALTER TABLE outbox ADD COLUMN duplicate_of TEXT;

-- The outbox's next drafts to send: queued, due first.
CREATE INDEX drafts_due ON drafts (next_attempt_at, updated, id) WHERE state = 'queued';
-- The retry form is pre-filled from the draft that created the customer.
CREATE INDEX drafts_by_customer ON drafts (customer_id) WHERE customer_id IS NOT NULL;
`;

export const OUTBOX_DELIVERY: Migration = {
  version: 4,
  name: 'outbox delivery: uncertain sends, duplicates, due drafts',
  sql: outboxDelivery,
};
