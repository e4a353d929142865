// The words of `npm run hub -- --help` and of each command's --help (as `npm run team`'s, admin/cli-help.ts).
const COMMON = `
  --data-dir DIR  the hub's data (default ~/.config/Vetted/hub)
  --verbose       log lines on standard error too
`;

export const HUB_HELP: Readonly<Record<string, string>> = {
  '': `Usage: npm run hub -- [command] [options]   (or: npx vetted-hub [command] [options])

The team's headless hub: the one webhook listener, the team's reconciler, a drainer of the team outbox.
Commands:
  run [--port P] [--public-url URL] [--database URL] [--retry-seconds S]
                  lead the webhook listener, or stand by and try every S seconds (default 5)
  join            join a team: the join code, then the database password, on standard input
  leave           forget the team's key, the database password and the connection
  service --base-url URL --client-id ID   the service (client secret on standard input)
  service --sandbox                       the built-in sandbox
  status          the team joined, who holds the listener role, the service
${COMMON}
Run \`npm run hub -- <command> --help\` for a command's options.
`,
  run: `Usage: npm run hub -- run [--port P] [--public-url URL] [--database URL] [--retry-seconds S]

Runs the hub (the default command): it drains the team outbox and follows the team store, and takes the
listener role if no other hub holds it, or stands by and tries again every S seconds (default 5). While it
leads it runs the team's webhook listener on port P, makes sure the team has its one subscription, and
reconciles the team's customers. SIGTERM or Ctrl-C releases the role.
  --port P           the listener's port (0: any free one; default: the settings' webhook port)
  --public-url URL   the https address of the tunnel in front of the listener, ending in /webhooks, for
                     this run (the service delivers there; a real service needs one)
  --database URL     another address of the same team store: postgres://user@host:port/db, never with
                     a password in it (the hub's login and password come from \`join\`)
  --retry-seconds S  how often a standby hub tries for the listener role (0.05 to 3600)
${COMMON}`,
  join: `Usage: npm run hub -- join   (the join code, then the database password, on standard input)

Joins the hub to a team with its own join code and password (\`npm run team -- add-hub hub\`). At a
terminal both are asked for and not echoed; otherwise give each on a line of standard input. The store is
checked (the password, the schema, the team key) before anything is kept; the key and the password go to
the hub's vault only.
${COMMON}`,
  leave: `Usage: npm run hub -- leave

Forgets the team: its key, the database password and the connection leave the hub's vault and settings.
${COMMON}`,
  service: `Usage: npm run hub -- service --base-url URL --client-id ID   (the client secret on standard input)
       npm run hub -- service --sandbox

Sets the service the hub works against: the team's service account (the client secret asked for at a
terminal, or one line of standard input; kept in the hub's vault), or the built-in sandbox, private to
this hub. To try a team on one shared sandbox, run \`npm run sandbox\` and give its baseUrl, clientId and
clientSecret here and in each desk's Settings.
  --base-url URL   the service's base URL
  --client-id ID   the service account's client ID
  --sandbox        the built-in sandbox instead
${COMMON}`,
  status: `Usage: npm run hub -- status

Shows the team joined and whether its store answers, whether a hub holds the listener role, and the
service the hub works against.
${COMMON}`,
};
