import { create } from 'zustand';
import type { ChannelInput } from '#contract/channels.ts';
import type { RetryOutcome, RetryPrefill, RetryWaiting } from '#contract/drafts.ts';
import { api } from '#renderer/api.ts';

interface RetryState {
  /** The form's starting values: from the draft that created the customer, or none. */
  prefill(customerId: string): Promise<RetryPrefill>;
  /** Sends the one retry, or (four eyes) leaves it waiting for a lead's approval. */
  send(request: ChannelInput<'retry.submit'>): Promise<RetryOutcome | RetryWaiting>;
}

/**
 * The retry's way to main. It holds nothing on purpose: what the retry form holds, the full SSN above
 * all, lives in the dialog's components only, so that closing the dialog drops all of it.
 */
export const useRetryStore = create<RetryState>(() => ({
  prefill: (customerId) => api.retry.prefill({ customerId }),
  send: (request) => api.retry.submit(request),
}));
