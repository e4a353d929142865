import { FileLock2 } from 'lucide-react';
import { useState } from 'react';
import { QueueExportInputSchema } from '#contract/case.ts';
import { api } from '#renderer/api.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { downloadFile } from '#renderer/ui/download.ts';
import { ExportFileButton } from '#renderer/ui/ExportFileButton.tsx';
import { ReasonDialog } from '#renderer/ui/ReasonDialog.tsx';
import { LeadOnly, useCan } from '../claims/LeadOnly.tsx';
import { useQueueStore } from '../queue/queue-store.ts';

const reasonRule = QueueExportInputSchema.shape.revealReason.unwrap();
const ROWS = { one: 'row', many: 'rows' };

/** The queue as shown (section and search), as CSV, through main. */
const exportView = (revealReason?: string) => {
  const { section, search } = useQueueStore.getState();
  return api.queue.export({ section, search, ...(revealReason ? { revealReason } : {}) });
};

/**
 * The queue toolbar's exports: names and e-mails masked, or in full once the reviewer says why (the
 * audit log records the reason, as for any reveal).
 */
export function QueueExportButtons() {
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState('');
  const withNames = useCan('exportNames');
  return (
    <>
      <ExportFileButton label="Export view (CSV)" noun={ROWS} make={() => exportView()} />
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
            const { section, search } = useQueueStore.getState();
            await api.approvals.requestExport({ section, search, revealReason: reason });
            setDone(
              'Asked for a second lead’s approval: download it from Waiting for approval once approved.',
            );
            return;
          }
          const file = await exportView(reason);
          downloadFile(file);
          setDone(`Exported ${file.count} ${file.count === 1 ? ROWS.one : ROWS.many} with names.`);
        }}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
