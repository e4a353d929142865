// The audit log's actions and their words, in one table (contract/audit-actions.ts, #36). The type checker
// holds every action main/ records to the table; the team store's own functions build theirs in SQL, so
// these tests read the migrations for every action they can write and look each up.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_WORDS,
  AUDIT_ACTIONS,
  AuditActionSchema,
  actionWords,
  isAuditAction,
  LEAD_ONLY_AUDIT_ACTIONS,
} from '#contract/audit-actions.ts';
import { NOBODYS_ACTION, NOT_A_FIRST_ACTION } from '#contract/team-overview.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const migrations = (dir: string) =>
  fs
    .readdirSync(path.join(ROOT, dir))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => fs.readFileSync(path.join(ROOT, dir, name), 'utf8'))
    .join('\n');
const TEAM_SQL = migrations('main/team/store/migrations');
const JOURNAL_SQL = migrations('main/data/journal/migrations');

/** Every action the team store's functions can write: the literal ones, and those built from a claim or a state. */
function actionsTheStoreWrites(): string[] {
  const literal = [
    ...`${TEAM_SQL}\n${JOURNAL_SQL}`.matchAll(/'((?:claim|approval|team|audit)\.[a-zA-Z]+)'/g),
  ];
  const hows = /CHECK \(how IN \(([^)]*)\)\)/.exec(TEAM_SQL)?.[1]?.match(/[a-zA-Z]+/g) ?? [];
  // A take by an action or by "next case" is recorded as a claim.take (vetted.audited_change).
  const claims = hows.map((how) => `claim.${['take', 'action', 'next'].includes(how) ? 'take' : how}`);
  const approvalAction =
    /FUNCTION vetted\.approval_action[\s\S]*?\$\$([\s\S]*?)\$\$/.exec(TEAM_SQL)?.[1] ?? '';
  const states = [...approvalAction.matchAll(/(?:THEN|ELSE) '([a-z]+)'/g)].map(
    (match) => `approval.${match[1]}`,
  );
  expect(claims.length).toBeGreaterThan(4);
  expect(states.length).toBeGreaterThan(4);
  return [...new Set([...literal.map((match) => match[1] ?? ''), ...claims, ...states])];
}

describe('the audit actions', () => {
  it('say every action in words, and an unknown one as it is recorded', () => {
    expect(actionWords('personal.reveal')).toBe('Personal data revealed');
    expect(actionWords('desk.locked')).toBe('Desk locked');
    expect(actionWords('something.new')).toBe('something.new');
    expect(actionWords('toString')).toBe('toString');
    for (const action of AUDIT_ACTIONS) expect(AUDIT_ACTION_WORDS[action]).toMatch(/^[A-Z]/);
  });

  it('refuse an action outside the table where the store answers one', () => {
    expect(AuditActionSchema.parse('claim.takeOver')).toBe('claim.takeOver');
    expect(AuditActionSchema.safeParse('claim.steal').success).toBe(false);
  });

  it("hold every action the team store's functions write, and the lists other code keeps", () => {
    const written = actionsTheStoreWrites();
    expect(written).toEqual(expect.arrayContaining(['claim.takeOver', 'approval.sent', 'team.setting']));
    expect(written.filter((action) => !isAuditAction(action))).toEqual([]);
    const lists = [...LEAD_ONLY_AUDIT_ACTIONS, ...NOBODYS_ACTION, ...NOT_A_FIRST_ACTION];
    expect(lists.filter((action) => !isAuditAction(action))).toEqual([]);
  });
});
