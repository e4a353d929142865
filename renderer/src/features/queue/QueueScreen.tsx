import { useEffect, useRef, useState } from 'react';
import type { QueueRow } from '../../../../contract/queue.ts';
import { useAppStore } from '../../store.ts';
import { ShortcutsHelp } from '../../ui/ShortcutsHelp.tsx';
import { type Shortcut, useShortcuts } from '../../ui/shortcuts.ts';
import { useWatch } from '../../ui/watch.ts';
import { JobProgress } from '../jobs/JobProgress.tsx';
import { AddCustomerDialog } from './AddCustomerDialog.tsx';
import { QueueList } from './QueueList.tsx';
import { QueueToolbar } from './QueueToolbar.tsx';
import { useQueueStore } from './queue-store.ts';
import { SectionNav } from './SectionNav.tsx';

/** The reviewer's start screen: the customers by section, longest-waiting first. */
export function QueueScreen() {
  const listRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState('');
  const problem = useQueueStore((state) => state.problem);
  const openCustomer = useAppStore((state) => state.openCustomer);
  const openDraft = useAppStore((state) => state.openDraft);
  const queue = useQueueStore.getState;
  useWatch(useQueueStore.getState().watch);

  useEffect(() => {
    const { reload, loadImportAvailability, selectedId } = useQueueStore.getState();
    reload();
    void loadImportAvailability();
    // Back from a customer: the keys carry on where the reviewer left the list.
    if (selectedId) listRef.current?.focus();
  }, []);

  const open = (row: QueueRow | undefined) => {
    // Drafts open in the draft form, which is not part of the queue.
    if (row?.section === 'drafts') openDraft(row.id);
    else if (row) openCustomer(row.id);
  };
  const move = (delta: 1 | -1) => {
    queue().moveBy(delta);
    if (!listRef.current?.contains(document.activeElement)) listRef.current?.focus({ preventScroll: true });
  };
  const shortcuts: Shortcut[] = [
    { keys: ['/'], label: 'Search customers', run: () => searchRef.current?.focus() },
    { keys: ['j', 'ArrowDown'], label: 'Next customer', run: () => move(1) },
    { keys: ['k', 'ArrowUp'], label: 'Previous customer', run: () => move(-1) },
    { keys: ['Enter'], label: 'Open the selected customer', run: () => open(queue().selectedRow()) },
    {
      keys: ['Escape'],
      label: 'Clear the search; in a customer, back to the queue',
      run: () => queue().setSearch(''),
    },
    { keys: ['?'], label: 'Show these shortcuts', run: () => setHelpOpen(true) },
  ];
  useShortcuts(shortcuts);

  return (
    <section className="queue" aria-labelledby="queue-title">
      <header className="queue-header">
        <h2 id="queue-title">Queue</h2>
        <QueueToolbar
          searchRef={searchRef}
          listRef={listRef}
          onAdd={() => setAdding(true)}
          onHelp={() => setHelpOpen(true)}
        />
      </header>
      <JobProgress />
      <p className="queue-notice" aria-live="polite">
        {notice}
      </p>
      {problem && <p role="alert">{problem}</p>}
      <div className="queue-body">
        <SectionNav />
        <QueueList listRef={listRef} onOpen={open} />
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
