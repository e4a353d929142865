// A desk's membership on a data directory of its own (vault and settings), removed after the test: what
// joining tests drive Settings → Team through.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openSettings } from '#main/ground/config/settings-store.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { createMembership } from '#main/team/membership.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function membershipDesk(startedOn: string | null = null) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-membership-'));
  dirs.push(dir);
  const vault = openFileKeyVault({ dir });
  const settings = openSettings({ dir });
  return { dir, vault, settings, membership: createMembership({ vault, settings, startedOn }) };
}
