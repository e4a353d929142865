import type { DraftState, DraftStatus, DraftView } from '#contract/drafts.ts';

export const DRAFT_ID = '00000000-0000-4000-8000-000000000001';

/** A draft's status as main pushes it (`draft.updated`). */
export function draftStatus(state: DraftState, id = DRAFT_ID): DraftStatus {
  const editable = state === 'draft' || state === 'rejected';
  return {
    id,
    state,
    updated: '2025-06-01T10:00:00.000Z',
    customerId: state === 'created' ? 'cust-1' : null,
    attempts: 0,
    nextAttemptAt: null,
    problem: null,
    fieldErrors: {},
    duplicateOf: null,
    actions: { edit: editable, submit: editable, tryAgain: false, discard: editable, linkDuplicate: false },
  };
}

export function draftView(state: DraftState = 'draft'): DraftView {
  return {
    ...draftStatus(state),
    created: '2025-06-01T09:00:00.000Z',
    form: { type: 'personal', firstName: 'Ada' },
  };
}
