import type { Page } from '@playwright/test';
import { SAMPLE_CUSTOMERS, sampleEmail } from '#main/features/sandbox-link/sample-recipe.ts';
import { expect, type PageGlobals, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { caseHeading, caseRows, section } from './support/queue-helpers.ts';

/** The idle lock in browser mode (#40): locked, the page, its storage and main's answers hold no customer. */

const SECRET = 'tea at four';
const FORM = {
  address: '221 Baker Street',
  city: 'Springfield',
  dateOfBirth: '1984-02-29',
  ssnLastFour: '6789',
};
/** Everything personal the samples carry: their names, e-mails, address, date of birth and SSN's last four. */
const PERSONAL = [
  ...SAMPLE_CUSTOMERS.flatMap((sample) => [sample.lastName, sampleEmail(sample)]),
  ...Object.values(FORM),
];

const holdsNothingPersonal = (text: string, where: string) => {
  for (const needle of PERSONAL) expect(text, `${where} holds ${needle}`).not.toContain(needle);
};

/** What the page keeps: its DOM, localStorage, sessionStorage and every IndexedDB database's name. */
async function pageContents(page: Page): Promise<{ dom: string; storage: string; databases: string[] }> {
  const dom = await page.content();
  const { storage, databases } = await page.evaluate(async () => ({
    storage: JSON.stringify([{ ...localStorage }, { ...sessionStorage }]),
    databases: (
      await (
        globalThis as unknown as { indexedDB: { databases(): Promise<{ name?: string }[]> } }
      ).indexedDB.databases()
    ).map((db) => db.name ?? ''),
  }));
  return { dom, storage, databases };
}

/** Every channel's answer to the page, as the page's own bridge (with its session token) gets it. */
async function everyAnswer(page: Page, customerId: string): Promise<string[]> {
  return page.evaluate(async (id) => {
    const vetted = (globalThis as PageGlobals).vetted as unknown as Record<
      string,
      Record<string, (input?: unknown) => Promise<unknown>>
    >;
    const inputs: Record<string, unknown> = {
      'queue.window': { section: 'all', search: '', offset: 0, limit: 50 },
      'customers.get': { id },
      'customers.refresh': { id },
      'customers.reveal': { id, reason: 'checking the lock holds' },
      'case.get': { customerId: id },
      'events.window': { offset: 0, limit: 50 },
      'audit.window': { filter: {}, offset: 0, limit: 50 },
      'documents.list': { customerId: id },
    };
    const answers: string[] = [];
    for (const [namespace, methods] of Object.entries(vetted)) {
      if (typeof methods !== 'object') continue;
      for (const [method, call] of Object.entries(methods)) {
        const channel = `${namespace}.${method}`;
        // Leaves nothing to answer: app.restart is refused in browser mode, lock.now would lock again.
        if (channel === 'app.restart') continue;
        answers.push(`${channel} ${JSON.stringify(await call(inputs[channel]))}`);
      }
    }
    return answers;
  }, customerId);
}

/** Screenshots to look at (not compared) at each size a reviewer uses, light and dark; axe 0 in both schemes. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const [width, height] of [
      [1280, 800],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      // One axe run per scheme: the card is the same at both sizes (and axe takes seconds on a loaded machine).
      if (width === 1280) await expectNoAxeViolations(page, { screen: `${name}, ${colorScheme}` });
      await page.screenshot({ path: `test-results/lock/${name}-${width}x${height}-${colorScheme}.png` });
    }
  }
}

test('after the idle time the page, its storage and every answer hold no customer until the secret is entered; five wrong make it wait', async ({
  page,
  vetted,
}) => {
  test.setTimeout(120_000);
  await page.clock.install();
  await page.goto(vetted.launchUrl);
  await page.getByRole('button', { name: 'Add sample customers' }).click();
  await expect(section(page, 'All')).toHaveAccessibleName('All 12', { timeout: 60_000 });

  // Armed in Settings: this desk's vault has no passphrase, so the reviewer sets a secret.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await page.getByLabel('New secret', { exact: true }).fill(SECRET);
  await page.getByLabel('New secret again').fill(SECRET);
  await page.getByRole('button', { name: 'Arm the lock' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The lock is armed.' })).toBeVisible();
  await page
    .getByRole('region', { name: 'Lock' })
    .screenshot({ path: 'test-results/lock/settings-lock-1280x720-light.png' });

  // A case open, a name searched for: both in the page (and the search in its session storage).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queue' }).click();
  await section(page, 'All').click();
  await page.getByRole('searchbox', { name: 'Search customers' }).fill('Moreau');
  await expect(caseRows(page)).toHaveCount(1);
  await caseRows(page).first().click();
  await expect(caseHeading(page, 'Jean-Baptiste Moreau')).toBeVisible();
  const customerId = decodeURIComponent(page.url().split('/').at(-1) ?? '');
  expect((await pageContents(page)).storage).toContain('Moreau');

  // Fifteen minutes without input, on the page's clock.
  await page.clock.fastForward('15:05');
  await expect(page.getByRole('heading', { name: 'Vetted is locked' })).toBeVisible();
  await expect(page.getByText('It locked after the time without input set in Settings.')).toBeVisible();
  await expect(page.getByLabel('Desk secret')).toBeFocused();
  const locked = await pageContents(page);
  holdsNothingPersonal(locked.dom, 'the DOM');
  holdsNothingPersonal(locked.storage, 'the storage');
  expect(locked.databases).toEqual([]);
  expect(page.url()).not.toContain(customerId);
  const answers = await everyAnswer(page, customerId);
  holdsNothingPersonal(answers.join('\n'), 'the answers');
  expect(answers.find((answer) => answer.startsWith('queue.window'))).toContain('The desk is locked');

  // The session token alone does not open it: the page reloaded (token kept) is still locked.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Vetted is locked' })).toBeVisible();
  holdsNothingPersonal((await pageContents(page)).dom, 'the reloaded DOM');
  await page.screenshot({ path: 'test-results/lock/lock-screen-1280x720-light.png' });

  await page.getByLabel('Desk secret').fill('not the secret');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'That secret does not open this desk. 4 more before the desk makes you wait.',
  );
  await page.getByLabel('Desk secret').fill(SECRET);
  await page.getByRole('button', { name: 'Unlock' }).click();
  // The queue is back, whole: the search typed before the lock was cleared with it.
  await expect(section(page, 'All')).toHaveAccessibleName('All 12');
  await expect(caseRows(page)).toHaveCount(12);
  await expect(page.getByRole('searchbox', { name: 'Search customers' })).toHaveValue('');

  // The lock key locks at once; five wrong secrets in a row make it wait, in words.
  await page.keyboard.press('Control+Shift+L');
  await expect(page.getByRole('heading', { name: 'Vetted is locked' })).toBeVisible();
  await expect(page.getByText('It was locked with the lock key.')).toBeVisible();
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.getByLabel('Desk secret').fill(`wrong ${attempt}`);
    await page.getByRole('button', { name: 'Unlock' }).click();
    if (attempt < 5) await expect(page.getByRole('alert')).toContainText(`${5 - attempt} more`);
  }
  await expect(page.getByRole('alert')).toHaveText(
    /^5 wrong attempts in a row: wait (30|29|28) seconds before trying again\.$/,
  );
  await expect(page.getByRole('button', { name: 'Unlock' })).toBeDisabled();
  await shoot(page, 'lock-screen-waiting');
});
