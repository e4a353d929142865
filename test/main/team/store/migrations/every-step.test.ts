// Every team store migration after the first has its test here, named as its file (NN-name.test.ts), as the
// local journal's do (test/main/data/journal/migrations/).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { TEAM_LATEST_VERSION, TEAM_MIGRATIONS } from '#main/team/store/migrations/index.ts';

const SOURCES = path.resolve(import.meta.dirname, '../../../../../main/team/store/migrations');

test('every migration from 2 on has its step, from the one before it', () => {
  const migrations = fs.readdirSync(SOURCES).filter((file) => /^\d\d-.*\.ts$/.test(file));
  // Each file is its migration's number, in order; a number reserved for another change may be missing.
  expect(migrations.map((file) => Number(file.slice(0, 2)))).toEqual(TEAM_MIGRATIONS.map((m) => m.version));
  expect(TEAM_MIGRATIONS.at(-1)?.version).toBe(TEAM_LATEST_VERSION);
  const tests = fs.readdirSync(import.meta.dirname);
  const untested = migrations
    .filter((file) => !file.startsWith('01-'))
    .filter((file) => !tests.includes(file.replace(/\.ts$/, '.test.ts')));
  expect(untested).toEqual([]);
});
