import { type RefObject, useEffect, useRef, useState } from 'react';
import type { QueueRow } from '#contract/queue.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { JobProgress } from '#renderer/shared/jobs/JobProgress.tsx';
import { StoreNotice } from '#renderer/shared/team/StoreNotice.tsx';
import { rowAt } from '#renderer/shared/windowed/windowed-pages.ts';
import { useAppStore } from '#renderer/store.ts';
import { ShortcutsHelp } from '#renderer/ui/ShortcutsHelp.tsx';
import { type Shortcut, useShortcuts } from '#renderer/ui/shortcuts.ts';
import { AddCustomerDialog } from './AddCustomerDialog.tsx';
import { CasePane } from './CasePane.tsx';
import { useOverdueStore } from './overdue-store.ts';
import { QueueFilters } from './QueueFilters.tsx';
import { QueuePane } from './QueuePane.tsx';
import { QueueToolbar } from './QueueToolbar.tsx';
import type { QueueParts } from './queue-parts.ts';
import { useQueueStore } from './queue-store.ts';
import { SectionNav } from './SectionNav.tsx';
import { SplitView } from './SplitView.tsx';
import { useNextCase } from './use-next-case.ts';
import { useOpenOnStart } from './use-open-on-start.ts';
import { useRouteSync } from './use-route-sync.ts';

/** The queue is on screen: its stores follow main and the address, and it loads its rows and counts. */
function useQueueOnScreen(gridRef: RefObject<HTMLTableElement | null>) {
  useWatch(useQueueStore.getState().watch);
  useWatch(useOverdueStore.getState().watch);
  useRouteSync();
  useOpenOnStart();
  useEffect(() => {
    const { reload, loadImportAvailability } = useQueueStore.getState();
    reload();
    void loadImportAvailability();
    void useOverdueStore.getState().load();
    // Back from another screen: the keys carry on where the reviewer left the list.
    if (useQueueStore.getState().selectedId) gridRef.current?.focus({ preventScroll: true });
  }, [gridRef]);
}

/**
 * The reviewer's workspace: the queue on the left, the selected case on the right, each case at its own address.
 * `onRowsPainted` hears when the list's first rows are on screen (the shell then fetches the other screens);
 * `parts` are what the queue shows of other features (the case, the exports, what waits for approval).
 */
export function QueueScreen({ onRowsPainted, parts }: { onRowsPainted(): void; parts: QueueParts }) {
  const gridRef = useRef<HTMLTableElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState('');
  const [focusRequest, setFocusRequest] = useState(0);
  const [openFirstWanted, setOpenFirstWanted] = useState(false);
  const problem = useQueueStore((state) => state.problem);
  const firstRow = useQueueStore((state) => rowAt(state.pages, 0));
  const customerId = useAppStore((state) => state.customerId);
  const { openDraft, navigate } = useAppStore.getState();
  const queue = useQueueStore.getState;
  useQueueOnScreen(gridRef);

  /** Opens a row: a case in the right pane, its heading focused; a draft in the draft form. */
  const open = (row: QueueRow | undefined) => {
    if (row?.section === 'drafts') openDraft(row.id);
    else if (row) {
      navigate({ view: 'queue', section: queue().section, customerId: row.id });
      setFocusRequest((n) => n + 1);
    }
  };

  // Enter in the search box opens the first match, once the answer to the search is in.
  useEffect(() => {
    if (!openFirstWanted || !firstRow) return;
    setOpenFirstWanted(false);
    queue().select(firstRow.id, 0);
    open(firstRow);
  });

  // Team mode: the next unclaimed case, taken and opened (its heading focused) by one key.
  const nextCase = useNextCase((customerId) => {
    navigate({ view: 'queue', section: queue().section, customerId });
    setFocusRequest((n) => n + 1);
  }, setNotice);

  const move = (delta: 1 | -1) => {
    queue().moveBy(delta);
    if (!gridRef.current?.contains(document.activeElement)) gridRef.current?.focus({ preventScroll: true });
  };
  const backToList = () => {
    gridRef.current?.focus({ preventScroll: true });
    queue().moveBy(0);
  };
  const shortcuts: Shortcut[] = [
    { keys: ['/'], label: 'Search customers', run: () => searchRef.current?.focus() },
    { keys: ['j', 'ArrowDown'], label: 'Next case (the case panel follows)', run: () => move(1) },
    { keys: ['k', 'ArrowUp'], label: 'Previous case (the case panel follows)', run: () => move(-1) },
    {
      keys: ['Enter'],
      label: 'Open the selected case (focus on its heading)',
      run: () => open(queue().selectedRow()),
    },
    { keys: ['Escape'], label: 'Back to the list, at the same row', run: backToList },
    ...(nextCase.shortcut ? [nextCase.shortcut] : []),
    { keys: ['?'], label: 'Show these shortcuts', run: () => setHelpOpen(true) },
  ];
  useShortcuts(shortcuts);

  return (
    <section className="queue" aria-labelledby="queue-title">
      <header className="screen-header queue-header">
        <h2 id="queue-title">Queue</h2>
        <QueueToolbar
          searchRef={searchRef}
          listRef={gridRef}
          onOpenFirst={() => setOpenFirstWanted(true)}
          onAdd={() => setAdding(true)}
          onHelp={() => setHelpOpen(true)}
          Exports={parts.Exports}
        />
      </header>
      <JobProgress />
      <StoreNotice />
      <p className="queue-notice" aria-live="polite">
        {notice}
      </p>
      {problem && <p role="alert">{problem}</p>}
      <div className="queue-body">
        <div className="queue-side">
          <SectionNav
            onNextCase={nextCase.shown ? nextCase.run : null}
            waiting={<parts.WaitingForApproval />}
          />
          <QueueFilters />
        </div>
        <SplitView
          list={<QueuePane gridRef={gridRef} onPick={open} onRowsPainted={onRowsPainted} />}
          detail={
            <CasePane
              customerId={customerId}
              focusRequest={focusRequest}
              onBack={backToList}
              CaseView={parts.CaseView}
            />
          }
        />
      </div>
      <ShortcutsHelp open={helpOpen} onClose={() => setHelpOpen(false)} shortcuts={shortcuts} />
      <AddCustomerDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(customer) => {
          setNotice(`Added ${customer.name} (${customer.status}).`);
        }}
      />
    </section>
  );
}
