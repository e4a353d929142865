import { expect, test } from 'vitest';
import { VettedError } from '#contract/errors.ts';
import { REFUSED } from '#main/data/failures.ts';
import { removeDir, startDesk } from '#test/support/desk/desk-harness.ts';

test('browser mode cannot restart itself: app.restart refuses and says how to restart by hand', async () => {
  const h = await startDesk();
  try {
    const refused = await h.call('app.restart').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(VettedError);
    expect(refused).toMatchObject({ code: 'RestartByHand', message: REFUSED.restartByHand });
    expect(REFUSED.restartByHand).toMatch(/run `npm start` again/);
  } finally {
    await h.close();
    removeDir(h.dataDir);
  }
});
