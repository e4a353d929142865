import { beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer, checkAnswerAgainst, checkRequest, operationName, shown } from './contract.ts';
import { type Rig, startRig } from './rig.ts';
import { against, readTable, rowFor } from './tables.ts';
import { runWorkflow } from './workflow.ts';

/**
 * Vetted's client against the sandbox's `real` profile (today's service), checked against the
 * official description: every request the client builds must be one the description accepts, and
 * every answer one it gives, except the statuses the README's allowances table lists (each checked
 * against a stand-in schema there instead). One workflow, recorded once, read by every test here.
 */
let rig: Rig;
beforeAll(async () => {
  rig = await startRig('real');
  try {
    await runWorkflow(rig);
  } finally {
    await rig.close();
  }
}, 60_000);

/** Each operation Vetted uses, with the statuses the workflow must have met (so none goes unchecked). */
const EXPECTED: Record<string, number[]> = {
  'POST /token': [200, 401],
  'POST /customers': [201, 400, 409],
  'GET /customers': [200, 401, 406],
  'GET /customers/{id}': [200, 401, 403, 429, 500, 503],
  'POST /customers/{id}': [200, 403],
  'POST /customers/{id}/documents': [201, 400, 403, 413, 415],
  'GET /customers/{id}/documents': [200, 403],
  'GET /documents/{id}': [200, 404],
  'GET /events': [200],
  'GET /events/{id}': [200, 404],
  'POST /webhook-subscriptions': [201, 400, 429],
  'GET /webhook-subscriptions': [200],
  'GET /webhook-subscriptions/{id}': [200, 404],
  'POST /webhook-subscriptions/{id}': [200, 404],
  'DELETE /webhook-subscriptions/{id}': [200, 404],
  'GET /webhook-subscriptions/{id}/webhooks': [200, 404],
  'POST /webhooks/{id}/retries': [201, 404],
};

describe('the real profile against the official description', () => {
  it('meets every operation Vetted uses, with its success and its refusals', () => {
    const met: Record<string, number[]> = {};
    for (const ex of rig.front.exchanges) {
      const name = operationName(ex);
      met[name] = [...(met[name] ?? []), ex.status];
    }
    for (const [operation, statuses] of Object.entries(EXPECTED)) {
      expect([...new Set(met[operation])].sort(), operation).toEqual(expect.arrayContaining(statuses));
    }
    expect(Object.keys(met).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('sends only requests the description accepts', () => {
    const found = rig.front.exchanges
      .filter((exchange) => !exchange.raw)
      .flatMap((exchange) => checkRequest(exchange).map((finding) => ({ ...finding, exchange })));
    expect(found.map(shown)).toEqual([]);
  });

  it('answers as the description gives, but for the allowances, each used and checked', () => {
    const answers = rig.front.exchanges.flatMap((exchange) =>
      checkAnswer(exchange).map((finding) => ({ ...finding, exchange })),
    );
    const rows = readTable('Allowances');
    const { unlisted, unused } = against(rows, answers);
    expect(unlisted.map(shown)).toEqual([]);
    expect(unused.map((row) => `${row.operation} | ${row.part}`)).toEqual([]);
    for (const finding of answers) {
      const standIn = rowFor(rows, finding)?.cells['stand-in'] ?? '';
      expect(checkAnswerAgainst(finding.exchange, standIn), shown(finding)).toEqual([]);
    }
  });
});
