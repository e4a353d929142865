import pg from 'pg';
import { readKeyFile } from '#admin/key-file.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import { teamSubscriptionSecrets } from '#main/team/subscription-secrets.ts';

/**
 * The secret of the team's subscription as the service knows it (the deliveries are signed with it): the team
 * store holds it sealed with the team key, which the bench reads from the team's key file.
 */
export async function teamSubscriptionSecret(adminUrl: string, keyFile: string): Promise<string> {
  const db = new pg.Client({ connectionString: adminUrl });
  await db.connect();
  try {
    const meta = await db.query<{ key_check: string }>('SELECT key_check FROM vetted.team_meta');
    const teamKey = readKeyFile(keyFile, meta.rows[0]!.key_check);
    const { fields } = await loadTeamKeys(db, teamKey);
    const secrets = teamSubscriptionSecrets({ db, fields, log: createLogger(() => undefined) });
    await secrets.load();
    const [secret] = secrets.all();
    if (!secret) throw new Error('the leading hub kept no subscription secret');
    return secret;
  } finally {
    await db.end();
  }
}
