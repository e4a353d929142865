import { X } from 'lucide-react';
import { useEffect, useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CustomerIdFilter } from '#renderer/shared/case/CustomerIdFilter.tsx';
import { ExportFileButton } from '#renderer/shared/case/ExportFileButton.tsx';
import { Button } from '#renderer/ui/Button.tsx';
import { Select } from '#renderer/ui/Select.tsx';
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
    <section className="log-screen audit" aria-labelledby="audit-title">
      <header className="screen-header">
        <h2 id="audit-title">Audit</h2>
        <p className="log-count">
          {total === null ? '' : `${total} ${total === 1 ? 'entry' : 'entries'}${filtered ? ' match' : ''}`}
        </p>
        <div className="screen-tools">
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
        </div>
      </header>
      <AuditFilters />
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
    <div className="filter-bar log-filters audit-filters">
      <span className="filter-item">
        <label htmlFor={`${id}-actor`}>Person</label>
        <Select id={`${id}-actor`} value={fields.actor} onChange={on('actor')}>
          <option value="">Everyone</option>
          {[...new Set([fields.actor, ...actors])].filter(Boolean).map((actor) => (
            <option key={actor} value={actor}>
              {actor}
            </option>
          ))}
        </Select>
      </span>
      <span className="filter-item">
        <label htmlFor={`${id}-action`}>Action</label>
        <Select id={`${id}-action`} value={fields.action} onChange={on('action')}>
          <option value="">Every action</option>
          {actions.map(({ action, what }) => (
            <option key={action} value={action}>
              {what}
            </option>
          ))}
        </Select>
      </span>
      <span className="filter-item">
        <CustomerIdFilter value={fields.customerId} onChange={(value) => setField('customerId', value)} />
      </span>
      <span className="filter-item">
        <label htmlFor={`${id}-from`}>From</label>
        <input id={`${id}-from`} type="date" value={fields.fromDay} onChange={on('fromDay')} />
        <label htmlFor={`${id}-to`}>to</label>
        <input id={`${id}-to`} type="date" value={fields.toDay} onChange={on('toDay')} />
      </span>
      {anyFilter && (
        <Button size="sm" weight="quiet" icon={X} onClick={clearFilter}>
          Clear filters
        </Button>
      )}
    </div>
  );
}
