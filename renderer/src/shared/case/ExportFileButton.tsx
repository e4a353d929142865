import { Download } from 'lucide-react';
import { useState } from 'react';
import type { ExportFile } from '#contract/case.ts';
import { ReasonButton } from '#renderer/ui/ReasonButton.tsx';
import { downloadFile } from '../data/download.ts';

interface ExportFileButtonProps {
  label: string;
  /** Asks main for the file; what it counts is said once it is handed over. */
  make(): Promise<ExportFile>;
  noun: { one: string; many: string };
}

/** A button that makes a file in main and hands it to the reviewer, saying how it went. */
export function ExportFileButton({ label, make, noun }: ExportFileButtonProps) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'done' | 'failed'; text: string } | null>(null);
  const onExport = async () => {
    setBusy(true);
    setResult(null);
    try {
      const file = await make();
      downloadFile(file);
      setResult({ kind: 'done', text: `Exported ${file.count} ${file.count === 1 ? noun.one : noun.many}.` });
    } catch (error) {
      setResult({
        kind: 'failed',
        text: `The export failed: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="export-file">
      <ReasonButton
        unavailable={null}
        busy={busy}
        weight="quiet"
        icon={Download}
        onClick={() => void onExport()}
      >
        {busy ? 'Exporting…' : label}
      </ReasonButton>
      <span role="status" className="export-file-result">
        {result?.kind === 'done' && result.text}
      </span>
      {result?.kind === 'failed' && <span role="alert">{result.text}</span>}
    </span>
  );
}
