// Every journal migration after the first has its test here, named as its file (NN-name.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LATEST_VERSION } from '#main/data/journal/migrations/index.ts';
import { NOT_THE_LOCAL_FILE } from './at-version.ts';

const SOURCES = path.resolve(import.meta.dirname, '../../../../../main/data/journal/migrations');

describe.skipIf(NOT_THE_LOCAL_FILE)('journal migrations’ tests', () => {
  it('cover each migration from 2 on, from the one before it', () => {
    const migrations = fs.readdirSync(SOURCES).filter((file) => /^\d\d-.*\.ts$/.test(file));
    expect(migrations).toHaveLength(LATEST_VERSION);
    const tests = fs.readdirSync(import.meta.dirname);
    const untested = migrations
      .filter((file) => !file.startsWith('01-'))
      .filter((file) => !tests.includes(file.replace(/\.ts$/, '.test.ts')));
    expect(untested).toEqual([]);
  });
});
