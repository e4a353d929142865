// The interface of webhook events as received, deduplicated by the service's event id.

export interface ReceivedEvent {
  id: string;
  topic: string;
  resourceId: string;
  customerId?: string | null;
  /** The event's own time, from the service. */
  created: string;
  signatureVerified: boolean;
}

export interface JournalEvent {
  id: string;
  topic: string;
  resourceId: string;
  customerId: string | null;
  created: string;
  receivedAt: string;
  signatureVerified: boolean;
  /** Deliveries of the same event after the first. */
  duplicatesSeen: number;
  processedAt: string | null;
}

export interface EventsRepository {
  /** Records an event once; a redelivery only counts as a duplicate. */
  record(event: ReceivedEvent): Promise<{ event: JournalEvent; duplicate: boolean }>;
  get(id: string): Promise<JournalEvent | undefined>;
  /** Newest first. */
  list(page?: { limit?: number; offset?: number }): Promise<JournalEvent[]>;
  /** Recorded but not yet reconciled, oldest first: what a restart must finish. */
  unprocessed(): Promise<JournalEvent[]>;
  markProcessed(id: string): Promise<void>;
  /** The event log: newest received first, narrowed by topic and customer, with the total matching. */
  window(
    filter: EventFilter,
    page: { offset: number; limit: number },
  ): Promise<{ events: JournalEvent[]; total: number }>;
  /** Every event matching, newest received first: for an export. */
  matching(filter: EventFilter): Promise<JournalEvent[]>;
  /** Every topic received, in alphabetical order. */
  topics(): Promise<string[]>;
}

export interface EventFilter {
  topic?: string | undefined;
  customerId?: string | undefined;
}
