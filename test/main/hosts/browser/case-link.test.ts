// Browser mode's equivalent of a case link: this desk's own address of the case, the renderer's route to it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { samplePerson } from '#test/support/person.ts';

it('gives a case its vetted:// link and, in browser mode, its address on this desk', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-browser-link-'));
  const running = await runBrowserMode({ port: 0, dataDir });
  try {
    const { id } = await running.desk
      .connection()
      .client()
      .customers.create(samplePerson('document', 'Linked', 'linked@example.com'));
    const dispatch = running.desk.dispatcher(() => true);
    expect(await dispatch('customers.add', null, { ref: id })).toMatchObject({ ok: true });
    const origin = new URL(running.launchUrl).origin;
    expect(await dispatch('case.link', null, { customerId: id })).toEqual({
      ok: true,
      value: { customerId: id, link: `vetted://case/${id}`, address: `${origin}/#/case/${id}` },
    });
  } finally {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
