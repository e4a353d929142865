import { TrendsPanel } from './TrendsPanel.tsx';

/**
 * Settings → My work: this desk's reviewer's own trends (solo or in a team), the same figures a lead reads for
 * the team on the Team screen.
 */
export function MyWork() {
  return (
    <section aria-labelledby="my-work-title" className="my-work">
      <h3 id="my-work-title">My work</h3>
      <p className="hint">
        What you did over the last days: the queue’s backlog day by day, the cases you closed, how long your
        first actions and resolutions took, and the overdue cases you held.
      </p>
      <TrendsPanel scope="mine" />
    </section>
  );
}
