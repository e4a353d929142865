// A team's hubs as real processes, as a team runs a leader and its standbys: each hub its own login and data
// directory (joined, pointed at the service), each `npm run hub -- run` a process of its own with the real
// core, all subscribed to one public URL. Started, waited for (the lines a hub prints), killed with SIGKILL.
// No vitest here: the failover bench (and later the team bench) use it too.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '#main/ground/log/logger.ts';
import { freePort } from '../free-port.ts';
import { type HubChild, startHubProcess } from './hub-process.ts';
import {
  joinedHubConfig,
  type MadeTeam,
  makeTeam,
  type ServiceAccount,
  type TeamLogin,
  type TeamReach,
} from './team-admin.ts';

export const LEADING_LINE = /hub: leading — webhook listener on (\S+)\n/;
export const STANDBY_LINE = /hub: standby — another hub holds the listener\n/;

export interface HubProcess extends HubChild {
  readonly name: string;
  /** Its data directory (its log is vetted.log there). */
  readonly dir: string;
  /** Where its listener listens when it leads (the front relays there). */
  readonly port: number;
  /** Resolves once the hub has printed a line matching `pattern` (rejects after `timeoutMs`, or if it exits). */
  said(pattern: RegExp, what: string, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves with its listener's URL once it leads. */
  leading(timeoutMs?: number): Promise<string>;
  standingBy(timeoutMs?: number): Promise<void>;
  /** kill -9, as a crash: resolves once the process is gone. */
  kill(): Promise<void>;
}

export interface HubFleet {
  teamId: string;
  keyFile: string;
  /** Each hub's login, `hub_1`… */
  logins: TeamLogin[];
  /** Starts hub `index` (0-based) as a new process; a killed hub is started again the same way. */
  start(index: number): HubProcess;
  /** The ports the hubs listen on when leading, in order: the front's backends. */
  readonly ports: readonly number[];
  /** Kills every hub still running and removes their data. */
  close(): Promise<void>;
}

export interface HubFleetOptions extends TeamReach {
  hubs: number;
  service: ServiceAccount;
  /** The public URL every hub subscribes (the front, the tunnel). */
  publicUrl: string;
  /** How often a standby tries for the role (`--retry-seconds`). */
  retrySeconds: number;
}

/** A team on the database at `adminUrl` (`team init` runs there) with `hubs` hub logins, joined, not started. */
export async function startHubFleet(adminUrl: string, options: HubFleetOptions): Promise<HubFleet> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'vetted-hub-fleet-'));
  const names = hubNames(options.hubs);
  const team = await makeTeam(adminUrl, root, names, options);
  return hubFleetOf(team, names, root, options);
}

/** `hub_1`…: the hubs' names, and their logins' in `makeTeam`. */
export const hubNames = (hubs: number): string[] => Array.from({ length: hubs }, (_, i) => `hub_${i + 1}`);

/**
 * The hubs of a team already made (with logins for `names`, among others), each joined in a data directory
 * under `root` (removed on close). `prepare` may put files in a hub's directory before it joins (a bench
 * gives each hub a journal whose replica has caught up already).
 */
export async function hubFleetOf(
  team: MadeTeam<string>,
  names: readonly string[],
  root: string,
  options: Omit<HubFleetOptions, 'hubs'> & { prepare?: (dir: string) => void },
): Promise<HubFleet> {
  const logins = names.map((name) => team.reviewers[name]!);
  const log = createLogger(() => undefined);
  const dirs: string[] = [];
  const ports: number[] = [];
  for (const [index, login] of logins.entries()) {
    const dir = path.join(root, names[index]!);
    options.prepare?.(dir);
    await joinedHubConfig(dir, login, options.service, log);
    dirs.push(dir);
    ports.push(await freePort());
  }
  const running = new Set<HubProcess>();
  return {
    teamId: team.teamId,
    keyFile: team.keyFile,
    logins,
    ports,
    start(index) {
      const hub = hubProcess(names[index]!, dirs[index]!, ports[index]!, options);
      running.add(hub);
      void hub.exited.then(() => running.delete(hub));
      return hub;
    },
    async close() {
      await Promise.all([...running].map((hub) => hub.kill()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function hubProcess(
  name: string,
  dir: string,
  port: number,
  options: Pick<HubFleetOptions, 'publicUrl' | 'retrySeconds'>,
): HubProcess {
  const args = ['run', '--data-dir', dir, '--port', String(port), '--public-url', options.publicUrl];
  const started = startHubProcess([...args, '--retry-seconds', String(options.retrySeconds)]);
  let gone = false;
  void started.exited.then(() => {
    gone = true;
  });
  const said = (pattern: RegExp, what: string, timeoutMs = 60_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(started.output.out);
        if (match) finish(() => resolve(match));
        else if (gone)
          finish(() => reject(new Error(`${name} exited before ${what}: ${started.output.err}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`Waited ${timeoutMs} ms for ${name}: ${what}.`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        started.child.stdout.off('data', onData);
        started.child.off('exit', onData);
        settle();
      };
      // Checked after the output handler of hub-process.ts has appended the chunk.
      const onData = () => setImmediate(check);
      started.child.stdout.on('data', onData);
      started.child.on('exit', onData);
      check();
    });
  return {
    ...started,
    name,
    dir,
    port,
    said,
    leading: async (timeoutMs) => (await said(LEADING_LINE, 'to lead', timeoutMs))[1]!,
    standingBy: async (timeoutMs) => {
      await said(STANDBY_LINE, 'to stand by', timeoutMs);
    },
    async kill() {
      if (!gone) started.child.kill('SIGKILL');
      await started.exited;
    },
  };
}
