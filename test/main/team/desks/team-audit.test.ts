// Every action a solo desk audits is in the team's audit log when a team desk (or the hub, or whichever
// drainer sends a draft) does it: the same action name, the login that did it as the store stamps it, and
// the customer. Two desks and a hub on one sandbox, as an administrator and two reviewers would have them.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { QueueRow } from '#contract/queue.ts';
import { createServiceClient } from '#main/data/service/index.ts';
import { type DeskHarness, PERSON } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import type { RigReviewer } from '#test/support/team/team-rig.ts';
import { teamSuite } from './team-suite.ts';

// Alice is a lead: removing a stored image is a lead's action (#28).
const team = teamSuite({ leads: ['alice'] });
let admin: pg.Pool;
beforeAll(() => {
  admin = new pg.Pool({ connectionString: team.rig.adminUrl, max: 2 });
});
afterAll(() => admin?.end());

interface TeamAuditRow {
  seq: string;
  actor: string;
  customer_id: string | null;
  outcome: string;
  detail: string | null;
}

/** The team store's audit rows of one action, oldest first, as its administrator reads them. */
async function teamAudit(action: string): Promise<TeamAuditRow[]> {
  const { rows } = await admin.query<TeamAuditRow>(
    `SELECT seq, actor, customer_id, outcome, detail FROM vetted.audit_log WHERE action = $1 ORDER BY seq`,
    [action],
  );
  return rows;
}

const login = (who: RigReviewer) => team.rig.reviewers[who].login;
const LOGINS = () => `(${['alice', 'bob', 'hub'].map((who) => login(who as RigReviewer)).join('|')})`;

/** Submits one draft on `desk` and waits for its customer on the desk's queue; answers both ids. */
async function submitOn(desk: DeskHarness, firstName: string, lastName: string) {
  const email = `${lastName.toLowerCase()}.${randomUUID().slice(0, 8)}@example.com`;
  const { id: draftId } = await desk.call('drafts.create');
  await desk.call('drafts.save', { id: draftId, form: validForm({ firstName, lastName, email }) });
  expect((await desk.call('drafts.submit', { ids: [draftId] })).queued).toEqual([draftId]);
  const row = await until(
    async () =>
      (await desk.call('queue.window', { section: 'all', search: lastName, offset: 0, limit: 5 })).rows.find(
        (r: QueueRow) => r.email === email,
      ),
    `${firstName} ${lastName} created and on the desk`,
    30_000,
  );
  return { draftId, customerId: row.id, email };
}

describe('customer.create', () => {
  test('a draft alice submits, sent by any drainer, is audited once under alice with its customer; bob’s Audit screen shows it', async () => {
    const { draftId, customerId } = await submitOn(team.alice, 'retry', 'Ashdown');

    const rows = (await teamAudit('customer.create')).filter((row) => row.detail?.includes(draftId));
    expect(rows).toEqual([
      {
        seq: expect.any(String),
        actor: login('alice'),
        customer_id: customerId,
        outcome: 'ok',
        detail: expect.stringMatching(new RegExp(`^draft ${draftId}, sent by ${LOGINS()}$`)),
      },
    ]);
    const seen = await team.bob.call('audit.window', {
      filter: { action: 'customer.create', customerId },
      offset: 0,
      limit: 10,
    });
    expect(seen.rows.map((row) => [row.actor, row.customerId, row.outcome])).toEqual([
      [login('alice'), customerId, 'ok'],
    ]);
  }, 60_000);

  test('a draft the service refuses is audited under its submitter with the refusal, as on a solo desk', async () => {
    const { email } = await submitOn(team.bob, 'retry', 'Brackley');
    // The same e-mail again: the service refuses it as a duplicate.
    const { id: draftId } = await team.alice.call('drafts.create');
    await team.alice.call('drafts.save', {
      id: draftId,
      form: validForm({ firstName: 'retry', lastName: 'Brackley', email }),
    });
    await team.alice.call('drafts.submit', { ids: [draftId] });
    const rows = await until(
      async () => {
        const found = (await teamAudit('customer.create')).filter((row) => row.detail?.includes(draftId));
        return found.length > 0 && found;
      },
      'the refusal in the team’s audit log',
      30_000,
    );
    expect(rows.map((row) => [row.actor, row.customer_id, row.outcome])).toEqual([
      [login('alice'), null, 'rejected'],
    ]);
  }, 60_000);
});

describe('every other audited action reaches the team’s audit log', () => {
  let retryId = '';
  let documentId = '';
  let uploadedId = '';

  beforeAll(async () => {
    retryId = (await submitOn(team.alice, 'retry', 'Carmody')).customerId;
    documentId = (await submitOn(team.alice, 'document', 'Dunmore')).customerId;
  }, 60_000);

  interface AuditedAction {
    action: string;
    by: RigReviewer;
    /** Does it; answers the customer the entry must name. */
    run(): Promise<string | null>;
  }
  /** An action alice's desk does with `call`, about `customer()` (none by default). */
  const onAlicesDesk = (
    action: string,
    call: () => Promise<unknown>,
    customer = (): string | null => null,
  ): AuditedAction => ({
    action,
    by: 'alice',
    async run() {
      await call();
      return customer();
    },
  });
  const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64)]).toString('base64');

  const ACTIONS: AuditedAction[] = [
    {
      action: 'customer.add',
      by: 'alice',
      async run() {
        const service = createServiceClient({
          baseUrl: team.rig.sandbox.baseUrl,
          clientId: team.rig.sandbox.clientId,
          clientSecret: team.rig.sandbox.clientSecret,
        });
        try {
          const made = await service.customers.create({
            ...PERSON,
            firstName: 'verified',
            email: `added.${randomUUID().slice(0, 8)}@example.com`,
          });
          await team.alice.call('customers.add', { ref: made.id });
          return made.id;
        } finally {
          await service.close();
        }
      },
    },
    onAlicesDesk('customers.import', () => team.alice.call('customers.import')),
    onAlicesDesk(
      'document.upload',
      async () => {
        const upload = {
          uploadId: randomUUID(),
          documentType: 'passport',
          fileName: 'passport.png',
        } as const;
        const uploaded = await team.alice.call('documents.upload', {
          ...upload,
          customerId: documentId,
          bytesBase64: png,
        });
        uploadedId = uploaded.id;
      },
      () => documentId,
    ),
    onAlicesDesk(
      'document.imagePurge',
      async () =>
        expect(await team.alice.call('documents.purgeImage', { documentId: uploadedId })).toEqual({
          purged: true,
        }),
      () => documentId,
    ),
    onAlicesDesk('draft.discard', async () => {
      const { id } = await team.alice.call('drafts.create');
      await team.alice.call('drafts.discard', { id, confirmed: true });
    }),
    onAlicesDesk(
      'note.add',
      () => team.alice.call('notes.add', { customerId: retryId, text: 'Called the customer.' }),
      () => retryId,
    ),
    onAlicesDesk(
      'personal.reveal',
      () => team.alice.call('customers.reveal', { id: retryId, reason: 'checking the address' }),
      () => retryId,
    ),
    onAlicesDesk('queue.export', () => team.alice.call('queue.export', { section: 'all', search: '' })),
    onAlicesDesk('audit.export', () => team.alice.call('audit.export', { filter: {}, format: 'csv' })),
    onAlicesDesk(
      'retry.open',
      () => team.alice.call('retry.prefill', { customerId: retryId }),
      () => retryId,
    ),
    onAlicesDesk(
      'customer.retry',
      () => {
        const form = validForm({ firstName: 'verified', lastName: 'Carmody', tin: '123-45-6789' });
        return team.alice.call('retry.submit', { customerId: retryId, form, confirmed: true });
      },
      () => retryId,
    ),
    onAlicesDesk('settings.change', () => team.alice.call('settings.update', { notifications: false })),
    // Refused (the desk has joined already), and the refusal is audited.
    onAlicesDesk('team.join', async () => {
      const { joinCode: code, password } = team.rig.reviewers.alice;
      await expect(team.alice.call('team.join', { code, password })).rejects.toMatchObject({
        code: 'TeamAlreadyJoined',
      });
    }),
    // The hub subscribed the team's public URL when it took the listener role.
    { action: 'webhook.subscribe', by: 'hub', run: async () => null },
  ];

  test.each(ACTIONS)('$action, done by $by', async ({ action, by, run }) => {
    const before = (await teamAudit(action)).length;
    const customerId = await run();
    const rows = await teamAudit(action);
    expect(rows.length, `${action} rows`).toBeGreaterThan(by === 'hub' ? 0 : before);
    expect(rows.at(-1)).toMatchObject({ actor: login(by), customer_id: customerId });
  });
});
