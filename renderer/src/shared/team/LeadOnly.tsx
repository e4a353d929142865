import { Lock } from 'lucide-react';
import { ASK_A_LEAD, LEAD_ONLY, type LeadAction } from '#contract/roles.ts';
import { useTeamMe } from './team-me-store.ts';

/** Whether this reviewer's role allows `action`: yes until main says otherwise (main refuses it anyway). */
export function useCan(action: LeadAction): boolean {
  return useTeamMe()?.can[action] !== false;
}

/**
 * Said where a reviewer looks for what only a lead may do (the control itself is not shown): why, and whom
 * to ask. Where space is short (a toolbar) `short` words show instead, the whole reason on hover and to
 * screen readers.
 */
export function LeadOnly({ action, short }: { action: LeadAction; short?: string }) {
  const reason = `${LEAD_ONLY[action]} ${ASK_A_LEAD}`;
  return (
    <small className="hint lead-only" title={short ? reason : undefined}>
      <Lock aria-hidden="true" className="lead-only-icon" />
      {short ? (
        <>
          <span aria-hidden="true">{short}</span>
          <span className="visually-hidden">{reason}</span>
        </>
      ) : (
        reason
      )}
    </small>
  );
}
