// Joining brings the desk's history (#30), in browser mode: a desk that worked alone (customers, notes,
// audit entries, with audit entries) is offered, in the join form, to bring them (yes unless
// unticked), with what that is counted; joining brings them and says what came over; the team store holds
// each once. Screenshots of the offer at 1280×800, light and dark, go to test-results for a look.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openJournal } from '#main/data/journal/index.ts';
import { openSettings } from '#main/ground/config/settings-store.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { type PgCluster, startPgCluster } from '../support/postgres/pg-cluster.ts';
import { startTeamRig, type TeamRig } from '../support/team/team-rig.ts';
import { expect, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';

let cluster: PgCluster;
let rig: TeamRig;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPgCluster();
  rig = await startTeamRig(await cluster.createDatabase('vetted_join_history'));
  // A desk that worked alone on the team's service account: two customers, three notes, audit entries. (A
  // queued draft would be sent by this solo desk as it starts: test/main/team/history/history-bring.test.ts brings drafts.)
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-solo-desk-'));
  const settings = openSettings({ dir: dataDir });
  const vault = openFileKeyVault({ dir: dataDir });
  settings.update({ serviceMode: 'custom', baseUrl: rig.sandbox.baseUrl, clientId: rig.sandbox.clientId });
  vault.set('clientSecret', rig.sandbox.clientSecret);
  const journal = openJournal({ file: path.join(dataDir, 'journal.db'), dataKey: vault.dataKey() });
  for (const id of ['solo-a', 'solo-b']) {
    const customer = {
      id,
      firstName: 'Jane',
      lastName: id === 'solo-a' ? 'Alone' : 'Solo',
      email: `${id}@example.com`,
      type: 'personal',
      status: 'suspended',
      created: '2026-02-01T08:00:00.000Z',
      _links: { self: { href: `${rig.sandbox.baseUrl}/customers/${id}` } },
    };
    await journal.customers.upsert(customer as never, { source: 'poll' });
    await journal.audit.record({ action: 'retry.open', customerId: id, outcome: 'ok' });
  }
  for (const text of ['Called the customer', 'Asked for a clearer ID', 'ID received']) {
    await journal.notes.add({ customerId: 'solo-a', text });
  }
  await journal.close();
});

test.afterAll(async () => {
  await rig?.close();
  await cluster?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('joining offers to bring the desk’s history, brings it once, and says what came over', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const desk = await runBrowserMode({ port: 0, dataDir, writeLog: () => undefined });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  try {
    await page.goto(desk.launchUrl);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    const team = page.getByRole('region', { name: 'Team' });
    const choice = team.getByRole('group', { name: 'This desk’s history' });
    const bringIt = choice.getByRole('checkbox', { name: 'Bring my history into the team' });
    await expect(bringIt).toBeChecked();
    await expect(choice).toContainText('3 notes,');
    await expect(choice).toContainText('2 customers and 0 drafts waiting to be sent');

    await team.getByLabel('Join code').fill(rig.reviewers.alice.joinCode);
    await team.getByLabel('Database password').fill(rig.reviewers.alice.password);
    await choice.scrollIntoViewIfNeeded();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await expectNoAxeViolations(page, {
        include: 'section.team',
        screen: `the history offer (${colorScheme})`,
      });
      await page.screenshot({ path: test.info().outputPath(`history-offer-1280x800-${colorScheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // From the keyboard: the box is ticked already, Enter in the password field joins and brings.
    await team.getByLabel('Database password').press('Enter');
    await expect(team.getByRole('status').filter({ hasText: 'Brought into the team:' })).toContainText(
      '3 notes, ',
      { timeout: 30_000 },
    );
    await expect(team.getByRole('status').filter({ hasText: 'Brought into the team:' })).toContainText(
      '2 customers and 0 drafts waiting to be sent',
    );
    await expectNoAxeViolations(page, { include: 'section.team', screen: 'the history brought' });
    await page.screenshot({ path: test.info().outputPath('history-brought-1280x800-light.png') });

    const db = new pg.Client({ connectionString: rig.adminUrl });
    await db.connect();
    try {
      const alice = rig.reviewers.alice.login;
      const notes = await db.query(`SELECT author FROM vetted.notes WHERE brought_from IS NOT NULL`);
      expect(notes.rows).toEqual([{ author: alice }, { author: alice }, { author: alice }]);
      const customers = await db.query(`SELECT id FROM vetted.customers WHERE id LIKE 'solo-%' ORDER BY id`);
      expect(customers.rows).toEqual([{ id: 'solo-a' }, { id: 'solo-b' }]);
    } finally {
      await db.end();
    }
  } finally {
    await page.close();
    await desk.close();
  }
});
