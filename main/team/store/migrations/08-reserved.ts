// Team store migration 8 is four eyes' (branch foureyes, this wave's reservation). This placeholder keeps the
// numbers contiguous on the branches that take 9 before four eyes lands; the merge replaces it with four
// eyes' own file (and its step test), and no released store ever ran this one.
import type { TeamMigration } from './runner.ts';

export const RESERVED_08: TeamMigration = {
  version: 8,
  name: "reserved for four eyes (this wave's migration 8)",
  sql: 'SELECT 1',
};
