import { useEffect, useId, useState } from 'react';
import { SECTION_TITLES } from '#contract/queue.ts';
import { AGEING_SECTIONS, type AgeingTargets } from '#contract/queue-view.ts';
import { useSettingsStore } from './settings-store.ts';

/** Settings → Ageing targets: hours a case may wait per section, and whether going overdue notifies. */
export function AgeingTargetsSection() {
  const settings = useSettingsStore((state) => state.settings);
  const { save } = useSettingsStore.getState();
  const [hours, setHours] = useState<Record<keyof AgeingTargets, string> | null>(null);
  const [notify, setNotify] = useState(true);
  const [saved, setSaved] = useState('');
  const id = useId();
  useEffect(() => {
    if (!settings) return;
    setHours({
      retry: String(settings.ageingTargets.retry),
      document: String(settings.ageingTargets.document),
      review: String(settings.ageingTargets.review),
    });
    setNotify(settings.overdueNotifications);
  }, [settings]);
  if (!settings || !hours) return null;

  return (
    <section aria-labelledby={`${id}-title`} className="ageing">
      <h3 id={`${id}-title`}>Ageing targets</h3>
      <form
        aria-labelledby={`${id}-title`}
        onSubmit={async (event) => {
          event.preventDefault();
          setSaved('');
          const ageingTargets = {
            retry: Number(hours.retry),
            document: Number(hours.document),
            review: Number(hours.review),
          };
          if (await save({ ageingTargets, overdueNotifications: notify })) setSaved('Ageing targets saved.');
        }}
      >
        <p className="hint">
          A case waiting longer than its section’s target is marked overdue in the queue.
        </p>
        {AGEING_SECTIONS.map((section) => (
          <label key={section} className="field">
            <span>{SECTION_TITLES[section]} (hours)</span>
            <input
              type="number"
              min={1}
              max={8760}
              required
              value={hours[section]}
              onChange={(event) => setHours({ ...hours, [section]: event.target.value })}
            />
          </label>
        ))}
        <label className="checkbox">
          <input type="checkbox" checked={notify} onChange={(event) => setNotify(event.target.checked)} />
          Notify me when a case goes overdue
        </label>
        <div className="actions">
          <button type="submit">Set targets</button>
        </div>
        <p role="status">{saved}</p>
      </form>
    </section>
  );
}
