import { useEffect } from 'react';
import type { Metrics } from '#contract/metrics.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { diagnosticsRows, useDiagnosticsStore } from './diagnostics-store.ts';

/** Settings → Diagnostics: the figures the app keeps (the same the benches read), current while open. */
export function DiagnosticsSection() {
  const { metrics, problem, load, watch } = useDiagnosticsStore();
  useWatch(watch);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="diagnostics-title" className="diagnostics">
      <h3 id="diagnostics-title">Diagnostics</h3>
      {problem && <p role="alert">Could not read the figures: {problem}</p>}
      {metrics && <DiagnosticsTable metrics={metrics} />}
      <div className="actions">
        <button type="button" onClick={() => void load()}>
          Refresh figures
        </button>
      </div>
    </section>
  );
}

/** The figures, one row each, named by its row header. */
export function DiagnosticsTable({ metrics }: { metrics: Metrics }) {
  return (
    <table>
      <caption>Since Vetted started; refreshed every few seconds while shown</caption>
      <tbody>
        {diagnosticsRows(metrics).map((row) => (
          <tr key={row.name}>
            <th scope="row">{row.name}</th>
            <td>{row.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
