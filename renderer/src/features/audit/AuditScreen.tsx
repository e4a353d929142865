import { useEffect, useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CustomerIdFilter } from '../../ui/CustomerIdFilter.tsx';
import { ExportFileButton } from '../../ui/ExportFileButton.tsx';
import { AuditTable } from './AuditTable.tsx';
import { type AuditFilterFields, filterOf, useAuditStore } from './audit-store.ts';

const ENTRIES = { one: 'entry', many: 'entries' };

/** Every action taken at this desk: who, when, what, on which customer; filtered, exported. */
export function AuditScreen() {
  const { fields, total, problem } = useAuditStore(
    useShallow((state) => ({ fields: state.fields, total: state.total, problem: state.problem })),
  );
  const filtered = Object.keys(filterOf(fields)).length > 0;
  // Opening the screen shows what happened since it was last open.
  useEffect(() => useAuditStore.getState().refresh(), []);

  return (
    <section className="event-log audit" aria-labelledby="audit-title">
      <header className="event-log-header">
        <h2 id="audit-title">Audit</h2>
        <AuditFilters />
        <ExportFileButton
          label="Export CSV"
          noun={ENTRIES}
          make={() => useAuditStore.getState().exportShown('csv')}
        />
        <ExportFileButton
          label="Export JSON Lines"
          noun={ENTRIES}
          make={() => useAuditStore.getState().exportShown('jsonl')}
        />
      </header>
      <p className="event-log-count">
        {total === null ? '' : `${total} ${total === 1 ? 'entry' : 'entries'}${filtered ? ' match' : ''}`}
      </p>
      {problem && <p role="alert">{problem}</p>}
      <AuditTable filtered={filtered} />
    </section>
  );
}

function AuditFilters() {
  const id = useId();
  const { fields, actors, actions } = useAuditStore(
    useShallow((state) => ({ fields: state.fields, actors: state.actors, actions: state.actions })),
  );
  const { setField, clearFilter } = useAuditStore.getState();
  const on = (name: keyof AuditFilterFields) => (event: { target: { value: string } }) =>
    setField(name, event.target.value);
  const anyFilter = Object.values(fields).some(Boolean);
  return (
    <div className="event-log-filters audit-filters">
      <label htmlFor={`${id}-actor`}>Person</label>
      <select id={`${id}-actor`} value={fields.actor} onChange={on('actor')}>
        <option value="">Everyone</option>
        {[...new Set([fields.actor, ...actors])].filter(Boolean).map((actor) => (
          <option key={actor} value={actor}>
            {actor}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-action`}>Action</label>
      <select id={`${id}-action`} value={fields.action} onChange={on('action')}>
        <option value="">Every action</option>
        {actions.map(({ action, what }) => (
          <option key={action} value={action}>
            {what}
          </option>
        ))}
      </select>
      <CustomerIdFilter value={fields.customerId} onChange={(value) => setField('customerId', value)} />
      <label htmlFor={`${id}-from`}>From</label>
      <input id={`${id}-from`} type="date" value={fields.fromDay} onChange={on('fromDay')} />
      <label htmlFor={`${id}-to`}>To</label>
      <input id={`${id}-to`} type="date" value={fields.toDay} onChange={on('toDay')} />
      {anyFilter && (
        <button type="button" onClick={clearFilter}>
          Clear filters
        </button>
      )}
    </div>
  );
}
