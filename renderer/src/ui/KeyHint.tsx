/**
 * The key that runs an action, shown beside it as a chip. Hidden from screen readers, which hear it from the
 * control's aria-keyshortcuts instead, so the control's name stays its words.
 */
export function KeyHint({ keys }: { keys: string }) {
  return (
    <span className="key-hint" aria-hidden="true">
      {keys}
    </span>
  );
}
