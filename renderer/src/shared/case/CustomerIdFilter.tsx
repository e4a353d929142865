import { useId } from 'react';

/** A log's "which customer" filter: a customer ID as typed (the store trims it), empty for any. */
export function CustomerIdFilter({ value, onChange }: { value: string; onChange(value: string): void }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>Customer ID</label>
      <input
        id={id}
        type="search"
        className="input input-id"
        value={value}
        autoComplete="off"
        spellCheck={false}
        placeholder="Any customer"
        onChange={(event) => onChange(event.target.value)}
      />
    </>
  );
}
