import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it, vi } from 'vitest';
import { sharedFakeElectron } from './fake-electron.ts';

vi.mock('electron', async () => (await import('./fake-electron.ts')).sharedFakeElectron());

it('a start that fails says why in a dialog and exits with 1, leaving no windowless process', async () => {
  const electron = sharedFakeElectron();
  // Not a journal: opening it throws in the middle of start.
  writeFileSync(path.join(electron.app.getPath(), 'journal.db'), 'this is not a SQLite database, at all');
  await import('#main/hosts/electron/index.ts');
  await vi.waitFor(() => expect(electron.app.exit.calls).toEqual([[1]]), { timeout: 15_000, interval: 20 });
  const [[title, content]] = electron.dialog.showErrorBox.calls as [[string, string]];
  expect(title).toBe('Vetted could not start');
  expect(content).toMatch(/journal/i);
  expect(electron.windows).toEqual([]);
});
