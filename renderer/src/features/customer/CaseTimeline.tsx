import {
  ArrowRightLeft,
  Eye,
  FileText,
  History,
  type LucideIcon,
  MousePointerClick,
  Radio,
  StickyNote,
} from 'lucide-react';
import type { TimelineEntry } from '#contract/case.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { EmptyState } from '#renderer/ui/EmptyState.tsx';
import { dayKey, formatClockTime, formatDayTitle, Moment, useNow } from '#renderer/ui/time.tsx';
import { EventLogLink } from './EventLogLink.tsx';

const KINDS: Record<TimelineEntry['kind'], { label: string; icon: LucideIcon }> = {
  status: { label: 'Status', icon: ArrowRightLeft },
  event: { label: 'Service event', icon: Radio },
  action: { label: 'Action', icon: MousePointerClick },
  note: { label: 'Note', icon: StickyNote },
  reveal: { label: 'Personal data', icon: Eye },
  document: { label: 'Document', icon: FileText },
};

/** Entries newest first, cut into the local days they fall on. */
export function byDay(entries: readonly TimelineEntry[]): { day: string; entries: TimelineEntry[] }[] {
  const days: { day: string; entries: TimelineEntry[] }[] = [];
  for (const entry of entries) {
    const day = dayKey(entry.at);
    const last = days.at(-1);
    if (last?.day === day) last.entries.push(entry);
    else days.push({ day, entries: [entry] });
  }
  return days;
}

/** Everything about the customer, newest first, by day, each with its kind, who and when; older on request. */
export function CaseTimeline({ customerId }: { customerId: string }) {
  const entries = useCaseStore((state) => state.timeline);
  const hasOlder = useCaseStore((state) => state.hasOlder);
  const problem = useCaseStore((state) => state.problem);
  const now = useNow();
  return (
    <section aria-labelledby="case-timeline" className="case-section">
      <h3 id="case-timeline">Timeline</h3>
      {problem && <p role="alert">{problem}</p>}
      {entries.length === 0 ? (
        <EmptyState icon={History} title="Nothing recorded yet" />
      ) : (
        byDay(entries).map(({ day, entries: onDay }) => {
          const title = formatDayTitle(onDay[0]?.at ?? day, now);
          return (
            <div key={day} className="timeline-day">
              <h4 className="timeline-day-title">{title}</h4>
              <ol className="timeline" aria-label={`${title}, newest first`}>
                {onDay.map((entry) => (
                  <TimelineItem key={entry.key} entry={entry} customerId={customerId} />
                ))}
              </ol>
            </div>
          );
        })
      )}
      {hasOlder && (
        <Button size="sm" onClick={() => void useCaseStore.getState().showOlder()}>
          Show older
        </Button>
      )}
    </section>
  );
}

function TimelineItem({ entry, customerId }: { entry: TimelineEntry; customerId: string }) {
  const kind = KINDS[entry.kind];
  return (
    <li className={`timeline-entry timeline-${entry.kind}`}>
      <span className="timeline-icon">
        <kind.icon aria-hidden="true" />
      </span>
      <div className="timeline-body">
        <p className="timeline-head">
          <span className="visually-hidden">{kind.label}: </span>
          <strong>{entry.title}</strong>
        </p>
        {entry.detail && <p className="timeline-detail">{entry.detail}</p>}
        <p className="timeline-meta">
          {entry.who} · <Moment at={entry.at} format={formatClockTime} />
          {entry.eventId && (
            <>
              {' · '}
              <EventLogLink customerId={customerId} eventId={entry.eventId} />
            </>
          )}
        </p>
      </div>
    </li>
  );
}
