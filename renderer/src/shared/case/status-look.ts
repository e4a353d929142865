import {
  Ban,
  CircleCheck,
  CircleDashed,
  CircleHelp,
  CircleOff,
  Clock,
  FilePen,
  FileUp,
  Hourglass,
  Inbox,
  MessageCircleQuestion,
  RotateCcw,
  Send,
  TriangleAlert,
} from 'lucide-react';
import type { DraftState } from '#contract/drafts.ts';
import type { Section } from '#contract/queue.ts';
import { SECTION_TITLES } from '#contract/queue.ts';
import type { SectionFilter } from '#renderer/route.ts';
import type { BadgeLook } from '#renderer/ui/StatusBadge.tsx';
import { stateLabel } from './draft-states.ts';

/**
 * How each place in the queue looks, the same in the sections, the rows and the case: its colour says
 * whose move it is (warning: the reviewer's; info: the service's or the customer's; success: done;
 * danger: stopped; neutral: nothing to do), its icon and words say which.
 */
const SECTION_LOOKS: Record<Section, BadgeLook> = {
  retry: { tone: 'warning', icon: RotateCcw, label: SECTION_TITLES.retry },
  document: { tone: 'warning', icon: FileUp, label: SECTION_TITLES.document },
  review: { tone: 'info', icon: Hourglass, label: 'In review' },
  kba: { tone: 'info', icon: MessageCircleQuestion, label: 'KBA questions' },
  unverified: { tone: 'neutral', icon: CircleDashed, label: SECTION_TITLES.unverified },
  verified: { tone: 'success', icon: CircleCheck, label: SECTION_TITLES.verified },
  suspended: { tone: 'danger', icon: Ban, label: SECTION_TITLES.suspended },
  deactivated: { tone: 'neutral', icon: CircleOff, label: SECTION_TITLES.deactivated },
  other: { tone: 'neutral', icon: CircleHelp, label: SECTION_TITLES.other },
  drafts: { tone: 'neutral', icon: FilePen, label: 'Draft' },
};

const DRAFT_LOOKS: Record<DraftState, Omit<BadgeLook, 'label'>> = {
  draft: { tone: 'neutral', icon: FilePen },
  queued: { tone: 'info', icon: Clock },
  sending: { tone: 'info', icon: Send },
  created: { tone: 'success', icon: CircleCheck },
  rejected: { tone: 'danger', icon: TriangleAlert },
  attention: { tone: 'warning', icon: TriangleAlert },
};

export const ALL_LOOK = { icon: Inbox };

/** The icon of a section in the sections' list. */
export const sectionIcon = (section: SectionFilter) =>
  section === 'all' ? ALL_LOOK.icon : SECTION_LOOKS[section].icon;

/**
 * A customer's (or a draft's) badge: by its section, a status Vetted does not know by its own name, a
 * draft by its state.
 */
export function statusLook(section: Section, status: string): BadgeLook {
  if (section === 'drafts') {
    const look = DRAFT_LOOKS[status as DraftState] ?? DRAFT_LOOKS.draft;
    return { ...look, label: stateLabel(status) };
  }
  const look = SECTION_LOOKS[section];
  return section === 'other' ? { ...look, label: status } : look;
}
