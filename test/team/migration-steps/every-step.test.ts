// Every team store migration after the first has its test here, named as its file (NN-name.test.ts), as the
// local journal's do (test/journal/migrations/).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { TEAM_LATEST_VERSION } from '../../../main/team/store/migrations/index.ts';

const SOURCES = path.resolve(import.meta.dirname, '../../../main/team/store/migrations');

test('every migration from 2 on has its step, from the one before it', () => {
  const migrations = fs.readdirSync(SOURCES).filter((file) => /^\d\d-.*\.ts$/.test(file));
  expect(migrations.map((file) => Number(file.slice(0, 2)))).toEqual(
    Array.from({ length: TEAM_LATEST_VERSION }, (_, i) => i + 1),
  );
  const tests = fs.readdirSync(import.meta.dirname);
  const untested = migrations
    .filter((file) => !file.startsWith('01-'))
    .filter((file) => !tests.includes(file.replace(/\.ts$/, '.test.ts')));
  expect(untested).toEqual([]);
});
