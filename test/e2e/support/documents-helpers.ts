import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { PageGlobals } from '../fixtures.ts';
import type { QueueApp } from './queue-fixtures.ts';

/** What the documents e2e tests share: a customer opened from the queue, files dropped, progress seen. */

export const SAMPLES_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'assets', 'sandbox-ids');

export interface DroppedFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** The few browser globals the page-side code below uses: the test project has no DOM types. */
interface PageSide {
  DataTransfer: new () => { items: { add(file: File): void } };
  DragEvent: new (
    type: string,
    init: { bubbles: boolean; cancelable: boolean; dataTransfer: unknown },
  ) => { defaultPrevented: boolean };
  MutationObserver: new (
    callback: () => void,
  ) => { observe(target: unknown, options: Record<string, boolean>): void };
  document: {
    body: { dispatchEvent(event: unknown): boolean };
    querySelectorAll(
      selector: string,
    ): Iterable<{ getAttribute(name: string): string | null; value: number; max: number }>;
  };
  progressSeen: ProgressSeen[];
}

export interface ProgressSeen {
  label: string;
  value: number;
  max: number;
}

export const sampleFile = (name: string): DroppedFile => ({
  name,
  type: 'image/png',
  bytes: readFileSync(path.join(SAMPLES_DIR, name)),
});

/** A passport uploaded from this desk through main's API (as the upload panel does): its image is kept. */
export async function uploadPassportFromDesk(page: Page, customerId: string): Promise<void> {
  await page.evaluate(
    async ({ id, bytesBase64 }) => {
      await (globalThis as PageGlobals).vetted?.documents.upload({
        customerId: id,
        uploadId: crypto.randomUUID(),
        documentType: 'passport',
        fileName: 'passport.png',
        bytesBase64,
      });
    },
    { id: customerId, bytesBase64: sampleFile('passport.png').bytes.toString('base64') },
  );
}

/** A new customer in `document` on the sandbox, added to Vetted and opened. */
export async function openDocumentCustomer(page: Page, app: QueueApp, lastName: string): Promise<string> {
  const { id } = await app.sandbox.createCustomer('document', lastName);
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add customer' });
  await dialog.getByLabel('Customer ID or URL').fill(id);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page
    .getByRole('grid', { name: 'Customers' })
    .getByRole('row', { name: new RegExp(`document ${lastName}`) })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: `document ${lastName}` })).toBeVisible();
  return id;
}

/** A DataTransfer in the page holding these files, as the desktop hands one over on a drop. */
export function dataTransferOf(page: Page, files: DroppedFile[]) {
  return page.evaluateHandle(
    (encoded) => {
      const transfer = new (globalThis as unknown as PageSide).DataTransfer();
      for (const file of encoded) {
        const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      return transfer;
    },
    files.map(({ name, type, bytes }) => ({ name, type, base64: bytes.toString('base64') })),
  );
}

/** Drags the files over the zone (it lights up) and drops them. */
export async function dropFiles(page: Page, zone: Locator, files: DroppedFile[]): Promise<void> {
  const dataTransfer = await dataTransferOf(page, files);
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('dragover', { dataTransfer });
  await expect(zone).toHaveAttribute('data-dragging', 'true');
  await zone.dispatchEvent('drop', { dataTransfer });
  await expect(zone).not.toHaveAttribute('data-dragging');
}

/**
 * Records every value the page's progress bars take. A sample uploads over loopback in a blink,
 * faster than any look at the screen: the page itself notes what it showed.
 */
export async function recordProgress(page: Page): Promise<() => Promise<ProgressSeen[]>> {
  await page.evaluate(() => {
    const side = globalThis as unknown as PageSide;
    side.progressSeen = [];
    new side.MutationObserver(() => {
      for (const bar of side.document.querySelectorAll('progress')) {
        side.progressSeen.push({
          label: bar.getAttribute('aria-label') ?? '',
          value: bar.value,
          max: bar.max,
        });
      }
    }).observe(side.document.body, { subtree: true, childList: true, attributes: true });
  });
  return () => page.evaluate(() => (globalThis as unknown as PageSide).progressSeen);
}

/** Drops the files on the page outside any drop zone; says whether the page kept the browser from opening them. */
export async function dropOutsideZone(page: Page, files: DroppedFile[]): Promise<boolean> {
  const dataTransfer = await dataTransferOf(page, files);
  return page.evaluate((transfer) => {
    const side = globalThis as unknown as PageSide;
    const drop = new side.DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer });
    side.document.body.dispatchEvent(drop);
    return drop.defaultPrevented;
  }, dataTransfer);
}
