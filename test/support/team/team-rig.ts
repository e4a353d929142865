import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NewReviewer } from '#admin/reviewers.ts';
import { hubRoles } from '#main/compose/hub.ts';
import { createServiceClient } from '#main/data/service/index.ts';
import { WEBHOOK_PATH } from '#main/features/webhooks/listener.ts';
import { openSettings } from '#main/ground/config/settings-store.ts';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { connectTeam, hubTeam } from '#main/team/hub/hub-config.ts';
import { type RunningHub, runHub } from '#main/team/hub/run-hub.ts';
import { createMembership } from '#main/team/membership.ts';
import { type RunningSandbox, type SandboxProfile, startSandbox } from '#sandbox/index.ts';
import { freePort } from '../free-port.ts';
import { samplePerson } from '../person.ts';
import { joinedHubConfig, makeTeam, type ServiceAccount, type TeamReach } from './team-admin.ts';

/** `hub2`: a second hub's login, for a standby (the rig runs only `hub`). */
export type RigReviewer = 'alice' | 'bob' | 'hub' | 'hub2';

export interface TeamRig {
  adminUrl: string;
  sandbox: RunningSandbox;
  teamId: string;
  /** The team key file `init` wrote (the administrator's: set-role seals its audit entry with it). */
  keyFile: string;
  /** Each reviewer's PostgreSQL login (the name with a random suffix: roles are cluster-wide) and secrets. */
  reviewers: Record<RigReviewer, NewReviewer & { login: string }>;
  hub: RunningHub;
  /** Where the hub's listener listens (its subscription on the sandbox points here). */
  hubListenerUrl: string;
  hubLog: string[];
  /**
   * Someone other than the desks retries a customer in `retry` on the service (its one retry, every field
   * again, the full SSN): the service then sends the hub one webhook, the desks' only way to learn of it.
   */
  retryOnService(customerId: string, lastName: string, email: string): Promise<void>;
  /** A new data directory for a desk, joined as `who` and set to the sandbox as "My service account". */
  deskDir(who: Exclude<RigReviewer, 'hub' | 'hub2'>): Promise<string>;
  close(): Promise<void>;
}

const tempDir = (prefix: string) => mkdtempSync(path.join(os.tmpdir(), prefix));

/** `promise`, or an error naming `what` once `ms` have passed. */
async function withinMs<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Waited ${ms} ms for ${what}.`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Joins a data directory's vault and settings to the team and points it at the service's account. */
export async function prejoin(dir: string, sandbox: ServiceAccount, reviewer: NewReviewer): Promise<void> {
  const settings = openSettings({ dir });
  const vault = openFileKeyVault({ dir });
  settings.update({ serviceMode: 'custom', baseUrl: sandbox.baseUrl, clientId: sandbox.clientId });
  vault.set('clientSecret', sandbox.clientSecret);
  await createMembership({ vault, settings, startedOn: null }).join(reviewer.joinCode, reviewer.password);
}

export interface TeamRigOptions extends TeamReach {
  /** The sandbox's behaviour profile (default the interface document's). */
  profile?: SandboxProfile;
  /** The hub's `run --database URL`, made from the connection its join code gave it. */
  hubDatabase?: (joined: TeamConnection) => string;
}

export async function startTeamRig(adminUrl: string, options: TeamRigOptions = {}): Promise<TeamRig> {
  const dirs: string[] = [];
  const keep = (dir: string) => {
    dirs.push(dir);
    return dir;
  };
  const sandbox = await startSandbox({ port: 0, profile: options.profile });
  const hubLog: string[] = [];
  let hub: RunningHub | undefined;
  try {
    const { teamId, keyFile, reviewers } = await makeTeam(
      adminUrl,
      keep(tempDir('vetted-team-admin-')),
      ['alice', 'bob', 'hub', 'hub2'] as const,
      options,
    );
    const log = createLogger((line) => hubLog.push(line));
    const config = await joinedHubConfig(keep(tempDir('vetted-hub-')), reviewers.hub, sandbox, log);
    const port = await freePort();
    const hubListenerUrl = `http://127.0.0.1:${port}${WEBHOOK_PATH}`;
    const joined = hubTeam(config);
    const team = options.hubDatabase ? hubTeam(config, options.hubDatabase(joined.connection)) : joined;
    // The hub says when it leads: wait for that line, for a bounded time.
    let led!: () => void;
    const leading = new Promise<void>((resolve) => {
      led = resolve;
    });
    hub = await runHub(
      {
        connect: () => connectTeam(team),
        say: (line) => {
          if (line.startsWith('hub: leading')) led();
        },
        log,
      },
      hubRoles({ config, team, log, port, publicUrl: hubListenerUrl }),
    );
    await withinMs(leading, 30_000, 'the hub to lead');
    const running = hub;
    return {
      adminUrl,
      sandbox,
      teamId,
      keyFile,
      reviewers,
      hub: running,
      hubListenerUrl,
      hubLog,
      async retryOnService(customerId, lastName, email) {
        const service = createServiceClient({
          baseUrl: sandbox.baseUrl,
          clientId: sandbox.clientId,
          clientSecret: sandbox.clientSecret,
        });
        try {
          await service.customers.retry(
            customerId,
            samplePerson('retry', lastName, email, { tin: '123-45-6789' }),
          );
        } finally {
          await service.close();
        }
      },
      async deskDir(who) {
        const dir = keep(tempDir(`vetted-desk-${who}-`));
        await prejoin(dir, sandbox, reviewers[who]);
        return dir;
      },
      async close() {
        await running.close();
        await sandbox.close();
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await hub?.close();
    await sandbox.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
