import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '#main/data/journal/index.ts';
import type { ServiceClient } from '#main/data/service/index.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { type RunningSandbox, startSandbox } from '#sandbox/index.ts';
import { type ChildRun, runChild as runScript } from '#test/support/child.ts';
import { customersWithEmail, quickClient, removeDir, setFaults, tempDir } from '#test/support/desk/drafts.ts';

/**
 * Kill -9 during a drain: a child process runs the whole desk against a sandbox this test owns (so the
 * service lives on while the desk dies, and finishes requests whose answers nobody reads). The child is
 * killed at a random point of its drain, restarted, ten times; then a last run drains what is left.
 */
const CHILD = path.join(import.meta.dirname, 'crash-child.ts');
const DRAFTS = 100;
const KILLS = 10;

type Run = ChildRun;

function runChild(
  dataDir: string,
  service: RunningSandbox,
  args: string[],
  onLine?: (line: string) => void,
): Run {
  const env = {
    VETTED_TEST_SERVICE: JSON.stringify({
      baseUrl: service.baseUrl,
      clientId: service.clientId,
      clientSecret: service.clientSecret,
    }),
  };
  return runScript(CHILD, [dataDir, ...args], env, onLine);
}

/** A small seeded generator: a failing run can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('crash test: SIGKILL during a drain', () => {
  let sandbox: RunningSandbox;
  let client: ServiceClient;
  const dataDir = tempDir('vetted-crash-');

  beforeAll(async () => {
    sandbox = await startSandbox();
    client = quickClient(sandbox);
  });
  afterAll(async () => {
    await client.close();
    await sandbox.close();
    removeDir(dataDir);
  });

  it(`creates each of ${DRAFTS} drafts exactly once across ${KILLS} kills`, {
    timeout: 300_000,
  }, async () => {
    const seed = Date.now() % 100_000;
    const random = seededRandom(seed);
    const seeded = runChild(dataDir, sandbox, ['seed', String(DRAFTS)]);
    expect(await seeded.exited, seeded.lines.join('\n')).toEqual({ code: 0, signal: null });

    // Requests are held a moment (so kills land while they are in flight) and some answers are lost.
    await setFaults(sandbox, client, {
      rate: 0.3,
      kinds: ['delay', 'reset', '500'],
      delayMs: 40,
      paths: ['/customers', '/customers/{id}'],
    });
    const killedAt: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      // Somewhere early in what is left: before the first request, or after up to 16 sends and creations.
      // The child waits after each state line for this side's word: it is killed exactly there, never
      // later, and cannot finish the drain by itself first (16 changes never use up the drafts).
      const after = Math.floor(random() * 17);
      let changes = 0;
      const run = runChild(dataDir, sandbox, ['drain', '--gated'], (line) => {
        if (!line.startsWith('state ')) return;
        if (/^state (sending|created)$/.test(line) && ++changes >= after) run.child.kill('SIGKILL');
        else run.child.stdin!.write('g');
      });
      if (after === 0) run.child.kill('SIGKILL');
      const { signal } = await run.exited;
      killedAt.push(signal === 'SIGKILL' ? changes : -1);
    }

    await setFaults(sandbox, client, { rate: 0 });
    const last = runChild(dataDir, sandbox, ['drain']);
    expect(await last.exited, `seed ${seed}: ${last.lines.slice(-5).join('\n')}`).toEqual({
      code: 0,
      signal: null,
    });
    // Every run was killed mid-drain; none finished by itself.
    expect(
      killedAt.filter((changes) => changes < 0),
      `seed ${seed}, killed at ${killedAt}`,
    ).toEqual([]);

    const journal = openJournal({
      file: path.join(dataDir, 'journal.db'),
      dataKey: openFileKeyVault({ dir: dataDir }).dataKey(),
    });
    try {
      const drafts = await journal.drafts.list();
      expect(drafts).toHaveLength(DRAFTS);
      expect(drafts.filter((draft) => draft.state !== 'created')).toEqual([]);
      for (const draft of drafts) {
        const customers = await customersWithEmail(client, draft.email);
        expect(
          customers.map((customer) => customer.id),
          `seed ${seed}, ${draft.email}`,
        ).toEqual([draft.customerId]);
      }
      expect(new Set(drafts.map((draft) => draft.customerId)).size).toBe(DRAFTS);
    } finally {
      await journal.close();
    }
    const all = await client.customers.list({ limit: 200 });
    expect('total' in all && all.total).toBe(DRAFTS);
  });
});
