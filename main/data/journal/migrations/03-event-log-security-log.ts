// Journal migration 3: the event log's topic index and the webhook listener's security log.
import type { Migration } from './runner.ts';

// The event log is filtered by topic. (Catching up reads max(created) once per run: no index for that, as
// every index costs each delivery's insert.)
// Requests the webhook listener refused (bad signature, too large, too slow…): who and when, for a
// security review. Never the body or the headers' values, which an attacker chose.
const eventLogSecurityLog = `
CREATE INDEX events_by_topic ON events (topic, received_at);

CREATE TABLE webhook_rejections (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  remote_address TEXT NOT NULL,
  -- X-Forwarded-For or CF-Connecting-IP as the tunnel passed it: the sender as far as the tunnel says.
  forwarded_for TEXT,
  status INTEGER NOT NULL,
  reason TEXT NOT NULL
) STRICT;
`;

export const EVENT_LOG_SECURITY_LOG: Migration = {
  version: 3,
  name: 'event log indexes, webhook security log',
  sql: eventLogSecurityLog,
};
