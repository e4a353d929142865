import { expect, test } from 'vitest';
import { DeskError } from '#contract/errors.ts';
import { decodeJoinCode } from '#main/team/join-code.ts';
import {
  addTestLogin,
  initTeamStore,
  joinCodeCommand,
  parseAddReviewer,
  runTeam,
  type TestStore,
  uniqueName,
} from '#test/support/team/admin-support.ts';
import { connectTo } from '#test/support/team/team-journal.ts';
import { membershipDesk } from './membership-desk.ts';

const desk = () => membershipDesk();

async function refusal(work: Promise<unknown>): Promise<DeskError> {
  const error = await work.then(
    () => new Error('joined'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/** `add-reviewer NAME` (or `join-code NAME`): the code and the password it printed (join-code prints none). */
async function codeFor(store: TestStore, command: 'add-reviewer' | 'join-code', name: string) {
  const run = await joinCodeCommand(command, name, store, store.keyFile);
  expect(run, run.err).toMatchObject({ code: 0 });
  const printed = parseAddReviewer(run.out);
  expect(printed.joinCode).toMatch(/^vetted-join-2\./);
  return printed;
}

const today = () => new Date().toISOString().slice(0, 10);

test('a code joins one desk once; the same code again is refused with its day; join-code NAME makes a fresh one', async () => {
  const store = await initTeamStore();
  const name = uniqueName('alice');
  const { joinCode, password } = await codeFor(store, 'add-reviewer', name);
  expect(await desk().membership.join(joinCode, password)).toMatchObject({ store: 'connected' });

  const second = desk();
  const used = await refusal(second.membership.join(joinCode, password));
  expect(used.code).toBe('TeamCodeUsed');
  expect(used.message).toBe(
    `This join code was already used on ${today()}; ask your administrator for a fresh one (a join code for ${name})`,
  );
  expect(second.settings.get().team).toBeUndefined();
  expect(second.vault.get('teamKey')).toBeUndefined();

  const fresh = await codeFor(store, 'join-code', name);
  expect(await second.membership.join(fresh.joinCode, password)).toMatchObject({ store: 'connected' });
  // The store keeps a hash of each code's secret, never the secret.
  const owner = await connectTo(store.url);
  const stored = JSON.stringify((await owner.query('SELECT * FROM vetted.join_codes')).rows);
  expect(stored).not.toContain(decodeJoinCode(fresh.joinCode).use.secret);
});

test('a mistyped password leaves the code good; an expired code and one a fresher replaced are refused in words', async () => {
  const store = await initTeamStore();
  const name = uniqueName('bob');
  const first = await codeFor(store, 'add-reviewer', name);
  const d = desk();
  expect((await refusal(d.membership.join(first.joinCode, 'not-the-password'))).code).toBe(
    'TeamWrongPassword',
  );

  const second = await codeFor(store, 'join-code', name);
  const replaced = await refusal(d.membership.join(first.joinCode, first.password));
  expect(replaced.code).toBe('TeamCodeExpired');
  expect(replaced.message).toMatch(/^This join code was replaced on \d{4}-\d\d-\d\d .*a join code for bob_/);

  const owner = await connectTo(store.url);
  await owner.query(`UPDATE vetted.join_codes SET expires_at = now() - interval '1 day' WHERE id = $1`, [
    decodeJoinCode(second.joinCode).use.id,
  ]);
  const expired = await refusal(d.membership.join(second.joinCode, first.password));
  expect(expired.code).toBe('TeamCodeExpired');
  expect(expired.message).toMatch(
    new RegExp(
      `^This join code expired on \\d{4}-\\d\\d-\\d\\d; ask your administrator for a fresh one \\(a join code for ${name}\\)$`,
    ),
  );
  expect(d.settings.get().team).toBeUndefined();
});

test('after a rotation a joined desk says the team key changed and how to get it; a fresh code joins it again', async () => {
  const store = await initTeamStore();
  const name = uniqueName('carol');
  const { joinCode, password } = await codeFor(store, 'add-reviewer', name);
  const d = desk();
  await d.membership.join(joinCode, password);
  const unused = await codeFor(store, 'join-code', name);

  // --join-codes: a fresh code for every login of the team, carrying the new key: a hub's too, though no
  // reviewer.
  const hub = await addTestLogin('add-hub', store, 'hub');
  const rotated = await runTeam(
    'rotate-key',
    '--database',
    store.url,
    '--key-file',
    store.keyFile,
    '--join-codes',
    '--sslmode',
    'disable',
  );
  expect(rotated, rotated.err).toMatchObject({ code: 0 });
  const rotationCode = new RegExp(`JOIN CODE for ${name} \\(one use[^)]*\\):\\n(vetted-join-2\\.\\S+)`).exec(
    rotated.out,
  )?.[1];
  expect(rotationCode).toBeDefined();
  expect(rotated.out).toContain(`JOIN CODE for ${hub.name} (one use`);
  const status = await d.membership.status();
  expect(status).toMatchObject({ mode: 'team', store: 'refused' });
  expect(status.problem).toMatch(
    /^The team's key was changed on \d{4}-\d\d-\d\d \(your administrator rotated it\)/,
  );
  expect(status.problem).toMatch(
    /new join code for your login, then leave the team and join again.*drafts stay/,
  );
  // A code made before the rotation carries the old key: it no longer joins.
  const other = desk();
  expect((await refusal(other.membership.join(unused.joinCode, password))).code).toBe('TeamKeyChanged');

  await d.membership.leave();
  expect(await d.membership.join(rotationCode as string, password)).toMatchObject({ store: 'connected' });
  expect((await d.membership.status()).problem).toBeUndefined();
  // Used: join-code NAME makes another, as ever.
  await d.membership.leave();
  const fresh = await codeFor(store, 'join-code', name);
  expect(await d.membership.join(fresh.joinCode, password)).toMatchObject({ store: 'connected' });
});
