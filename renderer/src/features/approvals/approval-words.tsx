import { CheckCircle2, Hourglass, Send, TimerOff, Undo2, XCircle } from 'lucide-react';
import type { Approval, ApprovalState } from '#contract/approvals.ts';
import { APPROVAL_KIND_TITLES } from '#contract/approvals.ts';
import type { BadgeLook } from '#renderer/ui/StatusBadge.tsx';

export const APPROVAL_LOOKS: Record<ApprovalState, BadgeLook> = {
  pending: { tone: 'warning', icon: Hourglass, label: 'Waiting for approval' },
  approved: { tone: 'info', icon: CheckCircle2, label: 'Approved' },
  sent: { tone: 'success', icon: Send, label: 'Approved and sent' },
  rejected: { tone: 'danger', icon: XCircle, label: 'Rejected' },
  cancelled: { tone: 'neutral', icon: Undo2, label: 'Withdrawn' },
  expired: { tone: 'neutral', icon: TimerOff, label: 'Expired' },
};

/** What happened to it, in a sentence: who decided, their note, what the service answered. */
export function approvalSentence(approval: Approval): string {
  const what = APPROVAL_KIND_TITLES[approval.kind].toLowerCase();
  const noted = approval.note ? ` Note: “${approval.note}”` : '';
  switch (approval.state) {
    case 'pending':
      return approval.mine
        ? `Waiting for a lead’s approval. Nothing has been sent: another lead of your team must approve your ${what}.`
        : `${approval.maker} asked for this ${what}. Nothing has been sent: it waits for a lead other than ${approval.maker}.`;
    case 'approved':
      return `${approval.checker} approved it; ${approval.maker} takes it from Waiting for approval.${noted}`;
    case 'sent':
      return `${approval.checker} approved it and it was sent${approval.outcome ? ` (${approval.outcome})` : ''}.${noted}`;
    case 'rejected':
      return `${approval.checker} rejected it: nothing was sent.${noted}`;
    case 'cancelled':
      return `${approval.maker} withdrew it: nothing was sent.`;
    case 'expired':
      return 'Nobody decided in time: it expired, nothing was sent, and its details were deleted.';
  }
}
