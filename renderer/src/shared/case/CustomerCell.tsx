import { useAppStore } from '#renderer/store.ts';
import { CustomerRef } from './CustomerRef.tsx';

/** A log row's customer cell (Events, Audit): its name beside its ID, opening the case; a dash for none. */
export function CustomerCell({ id, name }: { id: string | null; name: string | null | undefined }) {
  return (
    <td>
      {id ? <CustomerRef id={id} name={name} onOpen={() => useAppStore.getState().openCustomer(id)} /> : '—'}
    </td>
  );
}
