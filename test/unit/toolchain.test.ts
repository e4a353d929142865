import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';

describe('toolchain', () => {
  it('runs on Node 24 with node:sqlite, as inside Electron 45', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
    const db = new DatabaseSync(':memory:');
    expect(db.prepare('select 1 + 1 as two').get()).toEqual({ two: 2 });
    db.close();
  });
});
