// The team outbox (exactly once across desks): submit moves drafts from the desk's local journal into it,
// drainers on every desk and the hub send them. See submit.ts and drain.ts.
export { startTeamDrain, type TeamDrain, type TeamDrainOptions } from './drain.ts';
export { listTeamOutbox } from './list.ts';
export { type FlushResult, flushLocal, holdDraftsOnRetiredKey, submitToTeam } from './submit.ts';
