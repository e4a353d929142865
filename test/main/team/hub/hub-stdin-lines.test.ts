import { PassThrough, Readable } from 'node:stream';
import { expect, test } from 'vitest';
import { readAnswers } from '#main/team/hub/stdin-lines.ts';

const questions = [
  { label: 'Join code', hidden: false },
  { label: 'Database password', hidden: true },
];

test('piped lines are read without prompts; missing ones are undefined', async () => {
  const asked: string[] = [];
  expect(await readAnswers(Readable.from(['one\r\ntwo\nthree\n']), questions, (t) => asked.push(t))).toEqual([
    'one',
    'two',
  ]);
  expect(await readAnswers(Readable.from(['only\n']), questions, (t) => asked.push(t))).toEqual([
    'only',
    undefined,
  ]);
  expect(asked).toEqual([]);
});

test('at a terminal each answer is asked for by name, and a hidden one is not echoed', async () => {
  const terminal = Object.assign(new PassThrough(), { isTTY: true });
  let shown = '';
  const answers = readAnswers(terminal, questions, (text) => {
    shown += text;
    if (text.endsWith('Join code: ')) terminal.write('vetted-join-1.abc\n');
    if (text.endsWith('Database password: ')) terminal.write('hunter2-secret\n');
  });
  expect(await answers).toEqual(['vetted-join-1.abc', 'hunter2-secret']);
  expect(shown).toContain('Join code: ');
  expect(shown).toContain('vetted-join-1.abc');
  expect(shown).toContain('Database password: ');
  expect(shown).not.toContain('hunter2');
});
