import { MousePointerClick } from 'lucide-react';
import { type ComponentType, Suspense, useEffect, useRef } from 'react';
import { EmptyState } from '#renderer/ui/EmptyState.tsx';

/** The case panel's heading: opening a case moves focus there, so a screen reader starts at its name. */
const HEADING_ID = 'customer-title';

interface CasePaneProps {
  customerId: string | null;
  /** Bumped when the reviewer opens a case (Enter, a click): focus goes to its heading once shown. */
  focusRequest: number;
  onBack(): void;
  /** The case panel, handed in by the shell (a chunk of its own, hence the Suspense below). */
  CaseView: ComponentType<{ id: string; onBack(): void }>;
}

/** The right side of the split view: the selected case, or a word on how to pick one. */
export function CasePane({ customerId, focusRequest, onBack, CaseView }: CasePaneProps) {
  const paneRef = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a request is the trigger; the case it names is read now.
  useEffect(() => {
    const pane = paneRef.current;
    if (focusRequest === 0 || !pane || !customerId) return;
    // The heading appears when the case has loaded: wait for it rather than for a guessed time.
    const focusHeading = () => {
      const heading = pane.querySelector<HTMLElement>(`#${HEADING_ID}`);
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(pane, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [focusRequest]);

  return (
    <section ref={paneRef} className="case-pane" aria-label="Case">
      {customerId ? (
        <Suspense fallback={<p className="hint case-loading">Loading the case…</p>}>
          <CaseView id={customerId} onBack={onBack} />
        </Suspense>
      ) : (
        <EmptyState icon={MousePointerClick} title="No case open">
          Select a case in the queue (j and k, or the arrow keys) to see it here.
        </EmptyState>
      )}
    </section>
  );
}
