import { FileLock2 } from 'lucide-react';
import { useState } from 'react';
import { QueueExportInputSchema } from '#contract/case.ts';
import { api } from '#renderer/api.ts';
import type { SectionFilter } from '#renderer/route.ts';
import { ExportFileButton } from '#renderer/shared/case/ExportFileButton.tsx';
import { downloadFile } from '#renderer/shared/data/download.ts';
import { LeadOnly, useCan } from '#renderer/shared/team/LeadOnly.tsx';
import { Button } from '#renderer/ui/Button.tsx';
import { ReasonDialog } from '#renderer/ui/ReasonDialog.tsx';

const reasonRule = QueueExportInputSchema.shape.revealReason.unwrap();
const ROWS = { one: 'row', many: 'rows' };

/** What the queue shows when an export is asked for: its section and search (the queue's toolbar says). */
export interface QueueShown {
  section: SectionFilter;
  search: string;
}

/** The queue as shown (section and search), as CSV, through main. */
const exportView = ({ section, search }: QueueShown, revealReason?: string) =>
  api.queue.export({ section, search, ...(revealReason ? { revealReason } : {}) });

/**
 * The queue toolbar's exports: names and e-mails masked, or in full once the reviewer says why (the
 * audit log records the reason, as for any reveal).
 */
export function QueueExportButtons({ shown }: { shown(): QueueShown }) {
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState('');
  const withNames = useCan('exportNames');
  return (
    <>
      <ExportFileButton label="Export view (CSV)" noun={ROWS} make={() => exportView(shown())} />
      {withNames ? (
        <Button weight="quiet" icon={FileLock2} onClick={() => setAsking(true)}>
          Export with names…
        </Button>
      ) : (
        <LeadOnly action="exportNames" short="With names: leads only" />
      )}
      <span role="status" className="visually-hidden">
        {done}
      </span>
      <ReasonDialog
        open={asking}
        title="Export the view with names in full"
        hint="Vetted writes who exported personal data, when and why to its audit log."
        action={{ label: 'Export CSV', busyLabel: 'Exporting…' }}
        rule={reasonRule}
        fieldPointer="/revealReason"
        submit={async (reason) => {
          // Four eyes: the team may ask a second lead to approve it first (its maker downloads it then).
          if ((await api.approvals.required()).exportNames) {
            const { section, search } = shown();
            await api.approvals.requestExport({ section, search, revealReason: reason });
            setDone(
              'Asked for a second lead’s approval: download it from Waiting for approval once approved.',
            );
            return;
          }
          const file = await exportView(shown(), reason);
          downloadFile(file);
          setDone(`Exported ${file.count} ${file.count === 1 ? ROWS.one : ROWS.many} with names.`);
        }}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
