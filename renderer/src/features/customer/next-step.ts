import {
  Ban,
  CircleCheck,
  CircleDashed,
  CircleHelp,
  CircleOff,
  FileUp,
  Hourglass,
  type LucideIcon,
  MessageCircleQuestion,
  RotateCcw,
  UserRound,
} from 'lucide-react';
import { claimedByWords } from '#contract/claims.ts';
import type { CustomerDetail } from '#contract/customers.ts';
import type { Section } from '#contract/queue.ts';
import type { Tone } from '#renderer/ui/StatusBadge.tsx';

export interface NextStep {
  /** What the case's state asks for, in a few words. */
  title: string;
  icon: LucideIcon;
  tone: Tone;
  /** The one action that does it, when it is the reviewer's to take now. */
  primary: 'retry' | 'upload' | 'note' | null;
  /** Said under the title instead of the status's guidance: what this reviewer can do about a held case. */
  detail?: string;
}

/** Team mode: a case another reviewer holds, and whether this reviewer (a lead) may take it over. */
export interface HeldByAnother {
  holder: string;
  canTakeOver: boolean;
}

const STEPS: Record<Exclude<Section, 'drafts'>, Omit<NextStep, 'primary'>> = {
  retry: { title: 'Send the corrected details', icon: RotateCcw, tone: 'warning' },
  document: { title: 'Upload an ID document', icon: FileUp, tone: 'warning' },
  review: { title: 'Wait for the review', icon: Hourglass, tone: 'info' },
  kba: { title: 'Wait for the customer’s answers', icon: MessageCircleQuestion, tone: 'info' },
  unverified: { title: 'Nothing to send yet', icon: CircleDashed, tone: 'neutral' },
  verified: { title: 'Nothing left to do', icon: CircleCheck, tone: 'success' },
  suspended: { title: 'Suspended: nothing can be sent', icon: Ban, tone: 'danger' },
  deactivated: { title: 'Read-only', icon: CircleOff, tone: 'neutral' },
  other: { title: 'A status Vetted does not know', icon: CircleHelp, tone: 'neutral' },
};

/**
 * What the case asks of the reviewer: one primary action where the status allows it, else what to wait for.
 * A case another reviewer holds asks nothing of the status's kind of this one: who holds it, and what is left
 * to this reviewer (a note for the holder; asking for it, or a lead's take-over).
 */
export function nextStep(
  customer: Pick<CustomerDetail, 'section' | 'actions' | 'gone'>,
  held: HeldByAnother | null = null,
): NextStep {
  const step = STEPS[customer.section === 'drafts' ? 'other' : customer.section];
  if (customer.gone) return { title: 'Gone from the service', icon: Ban, tone: 'danger', primary: null };
  if (held) return heldStep(held);
  const primary =
    customer.section === 'retry' && customer.actions.retry.allowed
      ? 'retry'
      : customer.section === 'document' && customer.actions.upload.allowed
        ? 'upload'
        : null;
  return { ...step, primary };
}

function heldStep({ holder, canTakeOver }: HeldByAnother): NextStep {
  return {
    title: `Leave this case to ${holder}, or ${canTakeOver ? 'take it over' : 'ask for it'}`,
    icon: UserRound,
    tone: 'info',
    primary: 'note',
    detail: `${claimedByWords(holder)} Write a note for them, or ${
      canTakeOver ? 'take it over (above) if it cannot wait' : `ask ${holder} or a lead to hand it to you`
    }.`,
  };
}
