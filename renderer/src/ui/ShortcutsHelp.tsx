import { Fragment } from 'react';
import { Dialog } from './Dialog.tsx';
import { keyName, type Shortcut, shortcutsOnScreen } from './shortcuts.ts';

interface ShortcutsHelpProps {
  open: boolean;
  onClose(): void;
  shortcuts: Pick<Shortcut, 'keys' | 'label'>[];
}

/**
 * The `?` overlay: the screen's own shortcut list, so it cannot drift from what the keys do, and those of
 * every panel on screen with it (the queue's split view shows a case's keys beside the list's).
 */
export function ShortcutsHelp({ open, onClose, shortcuts }: ShortcutsHelpProps) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <dl className="shortcuts">
        {(open ? shortcutsOnScreen(shortcuts) : []).map((shortcut) => (
          <Fragment key={shortcut.label}>
            <dt>
              {shortcut.keys.map((key, i) => (
                <Fragment key={key}>
                  {i > 0 && ' or '}
                  <kbd>{keyName(key)}</kbd>
                </Fragment>
              ))}
            </dt>
            <dd>{shortcut.label}</dd>
          </Fragment>
        ))}
      </dl>
    </Dialog>
  );
}
