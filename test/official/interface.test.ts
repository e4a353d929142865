import { beforeAll, describe, expect, it } from 'vitest';
import { findingsOf, shown } from './contract.ts';
import { type Rig, startRig } from './rig.ts';
import { against, readTable, rowFor } from './tables.ts';
import { runWorkflow } from './workflow.ts';

/**
 * The same workflow against the sandbox's `interface` profile (the interface document's service).
 * It differs from the official description, by design: every difference found must be a row of the
 * README's "interface profile" table (each row a row of service-interface.md or real-service.md),
 * and every row must still be found, so the table stays complete and honest. What the real profile
 * is allowed too (the allowances: statuses no operation lists) is not a difference.
 */
let rig: Rig;
beforeAll(async () => {
  rig = await startRig('interface');
  try {
    await runWorkflow(rig);
  } finally {
    await rig.close();
  }
}, 60_000);

describe('the interface profile against the official description', () => {
  it('differs exactly as the README table lists', () => {
    const allowances = readTable('Allowances');
    const differences = findingsOf(rig.front.exchanges).filter((finding) => !rowFor(allowances, finding));
    const { unlisted, unused } = against(readTable('The interface profile'), differences);
    expect(unlisted.map(shown)).toEqual([]);
    expect(unused.map((row) => `${row.operation} | ${row.part}`)).toEqual([]);
  });
});
