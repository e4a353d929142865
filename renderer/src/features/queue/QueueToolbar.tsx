import { CloudDownload, Keyboard, Plus, RefreshCw, Search } from 'lucide-react';
import type { RefObject } from 'react';
import { isRunning, useJobStore } from '#renderer/shared/jobs/job-store.ts';
import { Button, IconButton } from '#renderer/ui/Button.tsx';
import { ReasonButton } from '#renderer/ui/ReasonButton.tsx';
import type { QueueParts } from './queue-parts.ts';
import { useQueueStore } from './queue-store.ts';

interface QueueToolbarProps {
  searchRef: RefObject<HTMLInputElement | null>;
  listRef: RefObject<HTMLElement | null>;
  /** Enter in the search box: the first match opens. */
  onOpenFirst(): void;
  onAdd(): void;
  onHelp(): void;
  /** The exports, handed in by the shell. */
  Exports: QueueParts['Exports'];
}

/** The section and search the queue shows now, read when an export is asked for. */
const shownNow = () => {
  const { section, search } = useQueueStore.getState();
  return { section, search };
};

/** Search, and the actions that bring customers in or bring them up to date. */
export function QueueToolbar({ searchRef, listRef, onOpenFirst, onAdd, onHelp, Exports }: QueueToolbarProps) {
  const search = useQueueStore((state) => state.search);
  const availability = useQueueStore((state) => state.importAvailability);
  const jobs = useJobStore((state) => state.jobs);
  const { setSearch, moveBy } = useQueueStore.getState();
  const { start } = useJobStore.getState();

  const importUnavailable = !availability
    ? 'Asking the service whether it offers a list of customers…'
    : availability.available
      ? null
      : (availability.reason ?? 'The service offers no list of customers to import.');

  return (
    <div className="queue-toolbar">
      <span className="search-field">
        <Search aria-hidden="true" className="search-field-icon" />
        <input
          ref={searchRef}
          type="search"
          className="queue-search"
          aria-label="Search customers"
          aria-keyshortcuts="/"
          placeholder="Search by name or e-mail"
          autoComplete="off"
          spellCheck={false}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            // From the search box straight into the results, as in any search-as-you-type list.
            if (event.key === 'Enter') {
              event.preventDefault();
              onOpenFirst();
            } else if (event.key === 'ArrowDown') {
              event.preventDefault();
              if (!useQueueStore.getState().selectedId) moveBy(1);
              listRef.current?.focus();
            } else if (event.key === 'Escape' && search === '') {
              listRef.current?.focus();
            }
          }}
        />
        <span className="key-hint search-field-key" aria-hidden="true">
          /
        </span>
      </span>
      <Button icon={Plus} onClick={onAdd}>
        Add customer
      </Button>
      <ReasonButton
        unavailable={importUnavailable}
        busy={isRunning(jobs.import)}
        weight="quiet"
        icon={CloudDownload}
        onClick={() => void start('import')}
      >
        Import from service
      </ReasonButton>
      <ReasonButton
        unavailable={null}
        busy={isRunning(jobs.reconcile)}
        weight="quiet"
        icon={RefreshCw}
        onClick={() => void start('reconcile')}
      >
        Refresh all
      </ReasonButton>
      <Exports shown={shownNow} />
      <IconButton icon={Keyboard} label="Keyboard shortcuts" aria-keyshortcuts="?" onClick={onHelp} />
    </div>
  );
}
