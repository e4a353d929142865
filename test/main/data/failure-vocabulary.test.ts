// The one vocabulary (main/data/failures.ts, with team mode's words composed in) knows the team store's and the journal's failures too, and a fault
// told in words still reaches the log.
import { expect, test, vi } from 'vitest';
import { toAppError } from '#main/compose/app-errors.ts';
import { JOURNAL_FAILED } from '#main/data/failures.ts';
import { JournalError } from '#main/data/journal/errors.ts';
import { type Handlers, serve } from '#main/ground/serve.ts';
import { TeamConnectionError } from '#main/team/store/connection-error.ts';
import { TeamSchemaError } from '#main/team/store/migrations/runner.ts';

const journalFault = () =>
  new JournalError(
    "The team store's customers hold a row this Vetted cannot read (id cus_4711 in /home/a/journal.db).",
  );

test('a journal failure reads as one plain sentence without the journal’s internals', () => {
  const told = toAppError(journalFault());
  expect(told).toEqual({ code: 'JournalFailed', message: JOURNAL_FAILED, unexpected: true });
  expect(told?.message).not.toMatch(/cus_4711|journal\.db|team store's customers|row/);
});

test('team store failures that reach a handler unworded answer in the team’s words', () => {
  expect(
    toAppError(
      new TeamConnectionError(
        'auth',
        'The team store refused the password for "alice": check the password.',
        { passwordRefused: true },
      ),
    ),
  ).toMatchObject({
    code: 'TeamWrongPassword',
    fields: { '/password': expect.stringMatching(/refused the password/) },
  });
  expect(
    toAppError(new TeamConnectionError('tls', 'The secure (TLS) connection to h:5432 failed.')),
  ).toMatchObject({
    code: 'TeamTls',
  });
  expect(
    toAppError(
      new TeamSchemaError('The team store is at schema 9, newer than this Vetted (1): update Vetted.'),
    ),
  ).toEqual({
    code: 'TeamNotAStore',
    message: 'The team store is at schema 9, newer than this Vetted (1): update Vetted.',
  });
  expect(toAppError(new TeamConnectionError('unexpected', 'Connecting failed: odd'))).toBeUndefined();
});

test('serve: a fault told in words still goes to the log, and the flag does not cross to the renderer', async () => {
  const fault = journalFault();
  const onUnexpected = vi.fn();
  const handlers = {
    'app.ping': () => {
      throw fault;
    },
  } as unknown as Handlers;
  const dispatch = serve(handlers, {
    host: 'browser',
    isTrustedSender: () => true,
    toAppError,
    onUnexpected,
  });
  expect(await dispatch('app.ping', 'ours', { nonce: 'a' })).toEqual({
    ok: false,
    error: { code: 'JournalFailed', message: JOURNAL_FAILED },
  });
  expect(onUnexpected).toHaveBeenCalledWith('app.ping', fault);
});
