// The words of `npm run team -- --help` and of each command's --help.
export const TEAM_HELP: Record<string, string> = {
  '': `Usage: npm run team -- <command> --database postgres://ADMIN@HOST:PORT/DATABASE [options]

Administer a Vetted team store (PostgreSQL 15 or later). Commands:
  init            make an empty database the team's store, and write the team key file
  add-reviewer    give a reviewer a login of their own; prints their join code and password
  add-hub         give a hub a login of its own, marked as a hub (never listed as a reviewer)
  mark-hub        mark a hub added with add-reviewer as a hub
  remove-reviewer take a reviewer's login away (their audit rows and notes stay)
  rotate-key      make a new team key (after someone leaves); --reseal re-encrypts every row under it
  reseal          finish (or resume) re-encrypting every row under the current key
  reset-password  give a reviewer (or a hub) a new password, under the same name; prints it
  join-code       print a reviewer's join code again (a new desk, a lost one)
  set-role        make a reviewer a lead (who may reassign and take over cases), or a reviewer again
  status          schema, reviewers, the hub holding the webhook listener, the team outbox, events
  migrate         update the store's schema to this Vetted's and re-apply the reviewers' grants
  verify-audit    check the audit log's hash chain and seals, in the store or in an export file

The administrator's password may be in the URL, in PGPASSWORD or in ~/.pgpass; it is never printed.
Run \`npm run team -- <command> --help\` for a command's options.
`,
  init: `Usage: npm run team -- init --database URL [--key-file FILE]

Creates the team's schema, the reviewers' group role (<database>_reviewers) and its grants, and the team
data key, written to FILE (default ./<database>.team-key, readable by you only; an existing file is never
replaced). Keep that file safe: it is needed to add reviewers, and without it the team's data cannot be read.
Refuses a database that already is a team store (use \`migrate\`).
`,
  'add-reviewer': `Usage: npm run team -- add-reviewer NAME --database URL --key-file FILE
         [--host HOST] [--port PORT] [--sslmode verify-full|disable] [--ca CA.pem]
         [--direct-host HOST] [--direct-port PORT]

Creates the login NAME (lower-case letters, digits, _) in the reviewers' group with a random password, and
prints the join code for their desk (where the store is as desks reach it, their login, the team key) and,
separately, the one-time password: hand the two over by different channels.
  --host, --port  how desks reach the database (default: the host and port of --database). A store with a
                  standby: every node, as libpq lists them (--host a,b --port 5432,5433, or one port for
                  all): desks and hubs connect to the first that accepts writes, and again after a failover
  --sslmode       verify-full (TLS, the server's certificate checked) or disable (no TLS: only for a store
                  on the desks' own machine or a private network; said with a warning). Default: verify-full
                  when --database has sslmode=verify-full or --ca is given; otherwise it must be given
  --ca            the PEM certificate of the CA that signed the server's certificate (default with
                  verify-full: --database's sslrootcert, if it names one)
  --direct-host, --direct-port
                  when --host/--port is a pooler in transaction mode (PgBouncer): the PostgreSQL server
                  itself, where desks and hubs open what needs a session of its own (LISTEN, the hub's
                  listener lock); --direct-port defaults to the port of --database
`,
  'add-hub': `Usage: npm run team -- add-hub NAME --database URL --key-file FILE [add-reviewer's options]

Creates the login NAME for a hub, as add-reviewer does for a reviewer (the same options: where the hub
reaches the store and how it checks it), and marks it as a hub in the store: a hub is not a person, so it is
never listed among the reviewers (who has a case, whom a lead may reassign one to, the Team screen's
reviewers), never holds a case and is never a lead. The mark is recorded in the team's audit chain, sealed
with the team key. Prints the hub's join code and one-time password, for \`npm run hub -- join\`.
`,
  'mark-hub': `Usage: npm run team -- mark-hub NAME --database URL --key-file FILE

Marks NAME, a login the team already has, as a hub: for a hub added with add-reviewer before Vetted knew
hubs apart. From then on it is listed as a hub, not a reviewer; its join code and password do not change.
Refused for a lead (set-role NAME reviewer first) and for a login holding cases. Recorded in the audit
chain, sealed with the team key (--key-file).
`,
  'remove-reviewer': `Usage: npm run team -- remove-reviewer NAME --database URL

Takes NAME's login and group membership away and ends their open sessions. What they wrote stays, under
their name.
`,
  'reset-password': `Usage: npm run team -- reset-password NAME --database URL

Gives NAME a new random password (one that may have leaked) and ends the sessions opened with the old
one. They stay the same reviewer: what they do next is stamped with the same name, and their join code
does not change. On their desk: Settings → Team → New password… (it takes effect when Vetted restarts).
A hub: \`npm run hub -- leave\`, then \`join\` with its code and the new password. Hand the password over
by another channel than the join code.
`,
  'join-code': `Usage: npm run team -- join-code NAME --database URL --key-file FILE
         [--host HOST] [--port PORT] [--sslmode verify-full|disable] [--ca CA.pem]
         [--direct-host HOST] [--direct-port PORT]

Prints a fresh join code for NAME, a current reviewer: for a new desk, one whose join code was lost or
expired, or after rotate-key. A code is for one use within 7 days; their older unused codes stop working. The options are add-reviewer's (where desks reach the store and how they
check it). If the password was lost too, \`reset-password\` gives a new one.
`,
  'set-role': `Usage: npm run team -- set-role NAME lead|reviewer --database URL --key-file FILE

Gives NAME, a current reviewer, a role in the team. A lead may reassign a case to another reviewer, take a
case over from whoever holds it, export the queue with names, remove stored document images and change the
team settings (how long a claim lasts unused); a reviewer may not (the team store refuses it, whatever their
desk does). Everyone starts as a reviewer. The change holds at once and is recorded in the team's audit
chain, sealed with the team key: --key-file is the file init wrote (the store refuses a role change that is
not in the chain).
`,
  'rotate-key': `Usage: npm run team -- rotate-key --database URL --key-file FILE [--reseal] [--batch N]
         [--join-codes [--sslmode verify-full|disable] [--ca CA.pem]]

Makes a new team key and writes it over FILE (first to FILE.new, moved over FILE once the store has
committed: an interrupted rotation is finished by running the command again). The store's data keys are
re-wrapped under it, new data is sealed with a new data key, and the old team key no longer opens the
store's keys; unused join codes stop working. Desks that hold the old key say so and need a new join code
(join-code NAME for each current reviewer and the hub).
  --join-codes  then print a fresh one-use join code for each current reviewer and the hub, carrying the new
              key (the options are join-code's); hand each over privately, as join-code's.
  --reseal    then re-encrypt every sealed value under the new data key, N rows per transaction (--batch,
              default 500) while desks keep working, and delete the old data keys: a copy of the store
              taken afterwards cannot be opened with the old team key. Resume an interrupted one with reseal.
`,
  reseal: `Usage: npm run team -- reseal --database URL --key-file FILE [--batch N]

Re-encrypts every sealed value not yet under the current data key, N rows per transaction, and then deletes
the old data keys. Safe to stop and run again: each value says which key sealed it.
`,
  status: `Usage: npm run team -- status --database URL

Shows the schema version, the team, its reviewers, whether a hub holds the webhook listener, the team
outbox by state, and the webhook events received.
`,
  migrate: `Usage: npm run team -- migrate --database URL [--key-file FILE]

Brings the team store's schema up to this Vetted's version and re-applies the reviewers' grants.
Run it after updating Vetted, before the desks and the hub update. The update that makes the audit log a
sealed hash chain chains the entries already there and seals them with the team key: give it --key-file
(the file init wrote); a store whose audit log is still empty needs none.
`,
  'verify-audit': `Usage: npm run team -- verify-audit --database URL --key-file FILE [--head SEQ:HASH]
       npm run team -- verify-audit --file EXPORT.jsonl [--key-file FILE]

Checks the audit log's hash chain: each entry's content against its hash, each entry's link to the one
before, and each entry's seal, made with the audit key (kept wrapped by the team key, so a rotation leaves
the seals verifiable), which the database never holds in the clear
(so even the database's owner cannot rewrite an entry and recompute the chain unseen). Prints OK with the
number of entries and the chain's head (SEQ:HASH), or names the first entry that was changed, removed or
reordered, and exits with 1.
  --key-file  the team key file init wrote (needed for the store; for an export, to check its seals)
  --head      a head printed before: the chain must still hold that entry (its end was not cut since)
  --file      an audit export in JSON Lines (Audit → Export), checked offline, without a database: an
              export of the whole log is checked from the chain's start to its head; a filtered one entry
              by entry (it cannot show that no entry was left out). A solo desk's export is checked the
              same way; its seals are made with that desk's own key, which no key file holds.
`,
};
