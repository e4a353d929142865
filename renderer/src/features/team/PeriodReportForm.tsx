import { FileText } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { PAGE_SIZES, type PageSize } from '#contract/case-file.ts';
import { REPORT_FORMATS, type ReportFormat } from '#contract/period-report.ts';
import { api } from '#renderer/api.ts';
import { downloadFile } from '#renderer/shared/data/download.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Field } from '#renderer/ui/Field.tsx';
import { Select } from '#renderer/ui/Select.tsx';
import {
  lastWeek,
  localDay,
  type PeriodProblems,
  type PeriodReportChoice,
  periodProblems,
} from './period-report-form.ts';

const FORMAT_LABELS: Record<ReportFormat, string> = { pdf: 'PDF', csv: 'CSV', jsonl: 'JSON Lines' };

/**
 * The period report (a lead's): the team's figures over chosen days as a PDF with charts, or as CSV / JSON Lines
 * rows, made in main and saved as the other exports are. The days are checked here in words before main is
 * asked; main checks them again.
 */
export function PeriodReportForm() {
  const [choice, setChoice] = useState<PeriodReportChoice>(() => ({
    ...lastWeek(new Date()),
    format: 'pdf',
    pageSize: 'A4',
  }));
  const [problems, setProblems] = useState<PeriodProblems>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'done' | 'failed'; text: string } | null>(null);
  const set = (patch: Partial<PeriodReportChoice>) => setChoice((current) => ({ ...current, ...patch }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = periodProblems(choice, localDay(new Date()));
    setProblems(found);
    setResult(null);
    if (found.from || found.to) return;
    setBusy(true);
    try {
      const file = await api.report.period(choice);
      downloadFile(file);
      const noun = choice.format === 'pdf' ? 'page' : 'row';
      setResult({
        kind: 'done',
        text: `Saved the report: ${file.count} ${noun}${file.count === 1 ? '' : 's'}.`,
      });
    } catch (error) {
      setResult({
        kind: 'failed',
        text: `The report could not be made: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="team-report">
      <h3 id="team-report">Period report</h3>
      <form
        className="period-report"
        aria-labelledby="team-report"
        noValidate
        onSubmit={(e) => void onSubmit(e)}
      >
        <p className="team-muted">
          The team’s figures over chosen days — cases opened and closed, times, overdue, four eyes, rejected
          documents and the audit chain’s head — as a PDF with the trends’ charts, or as rows. Making it is
          recorded in the audit log.
        </p>
        <div className="period-report-fields">
          <DayField
            label="First day"
            value={choice.from}
            error={problems.from}
            onChange={(from) => set({ from })}
          />
          <DayField label="Last day" value={choice.to} error={problems.to} onChange={(to) => set({ to })} />
          <Field label="Format">
            {(control) => (
              <Select
                {...control}
                value={choice.format}
                onChange={(e) => set({ format: REPORT_FORMATS.find((f) => f === e.target.value) ?? 'pdf' })}
              >
                {REPORT_FORMATS.map((format) => (
                  <option key={format} value={format}>
                    {FORMAT_LABELS[format]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Page size">
            {(control) => (
              <Select
                {...control}
                value={choice.pageSize}
                disabled={choice.format !== 'pdf'}
                onChange={(e) =>
                  set({ pageSize: PAGE_SIZES.find((s) => s === e.target.value) ?? ('A4' as PageSize) })
                }
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Button type="submit" weight="secondary" icon={FileText} disabled={busy}>
            {busy ? 'Making the report…' : 'Make the period report'}
          </Button>
        </div>
        <p role="status" className="team-muted">
          {result?.kind === 'done' && result.text}
        </p>
        {result?.kind === 'failed' && <p role="alert">{result.text}</p>}
      </form>
    </section>
  );
}

function DayField(props: {
  label: string;
  value: string;
  error: string | undefined;
  onChange(day: string): void;
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(control) => (
        <input
          {...control}
          type="date"
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
