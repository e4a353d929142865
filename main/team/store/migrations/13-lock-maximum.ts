// Team store migration 13 (#40): the idle lock's team maximum. A lead sets how many minutes without input a
// desk of the team may stay open at most (15 unless changed, the payment industry's rule); a desk's own idle
// time cannot exceed it. One more team setting, changed through set_team_setting as the others (audited).
import type { TeamMigration } from './runner.ts';

const SQL = `
INSERT INTO vetted.team_settings (name, value) VALUES ('lock_idle_max_minutes', '15');
ALTER TABLE vetted.team_settings ADD CONSTRAINT lock_idle_max_minutes CHECK (name <> 'lock_idle_max_minutes' OR (
  jsonb_typeof(value) = 'number' AND (value #>> '{}')::numeric BETWEEN 1 AND 240
  AND (value #>> '{}')::numeric = trunc((value #>> '{}')::numeric)));
`;

export const LOCK_MAXIMUM: TeamMigration = {
  version: 13,
  name: 'the idle lock: the team’s maximum idle minutes, a lead’s setting',
  sql: SQL,
};
