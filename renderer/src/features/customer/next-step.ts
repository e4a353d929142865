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
} from 'lucide-react';
import type { CustomerDetail } from '../../../../contract/customers.ts';
import type { Section } from '../../../../contract/queue.ts';
import type { Tone } from '../../ui/StatusBadge.tsx';

export interface NextStep {
  /** What the case's state asks for, in a few words. */
  title: string;
  icon: LucideIcon;
  tone: Tone;
  /** The one action that does it, when it is the reviewer's to take now. */
  primary: 'retry' | 'upload' | null;
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

/** What the case asks of the reviewer: one primary action where the status allows it, else what to wait for. */
export function nextStep(customer: Pick<CustomerDetail, 'section' | 'actions' | 'gone'>): NextStep {
  const step = STEPS[customer.section === 'drafts' ? 'other' : customer.section];
  if (customer.gone) return { title: 'Gone from the service', icon: Ban, tone: 'danger', primary: null };
  const primary =
    customer.section === 'retry' && customer.actions.retry.allowed
      ? 'retry'
      : customer.section === 'document' && customer.actions.upload.allowed
        ? 'upload'
        : null;
  return { ...step, primary };
}
