/**
 * The customer a log row is about, as the queue names it: its name (opening the case) with its ID beside it,
 * shortened, the full ID on hover and to a screen reader. A customer Vetted does not follow has its ID only.
 */
export function CustomerRef({
  id,
  name,
  onOpen,
}: {
  id: string;
  name: string | null | undefined;
  onOpen(): void;
}) {
  return (
    <span className="customer-ref">
      {name ? (
        <button
          type="button"
          className="link-button customer-ref-name"
          title={`Open ${name}`}
          onClick={onOpen}
        >
          {name}
        </button>
      ) : (
        <span className="customer-ref-name masked" title="Not a customer Vetted follows">
          Not followed
        </span>
      )}
      <code className="customer-ref-id" title={id}>
        <span aria-hidden="true">{id.slice(0, 8)}</span>
        <span className="visually-hidden">{id}</span>
      </code>
    </span>
  );
}
