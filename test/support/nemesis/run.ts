// A nemesis run (#37): four desks (processes) and two hubs (processes) on one store with its synchronous
// standby, every desk working (drafts, notes, claims, four eyes) while a seeded schedule of faults hits hubs,
// desks, the store (restarted, failed over) and the desks' network; then every fault healed, the team left to
// settle, and the history checked against the team's final state (checker.ts). Used by `npm run soak`
// (bench/soak.ts) and by test/nemesis/soak.test.ts.
import path from 'node:path';
import { seeded } from '#bench/support/team-desk-work.ts';
import { checkHistory, type Verdict } from './checker.ts';
import { startNemesisDesks } from './desk-fleet.ts';
import { DEFAULT_FAULTS, faultKinds, runFaultSchedule } from './faults.ts';
import { readFinalState, settled } from './final-state.ts';
import type { FinalState, Op } from './history.ts';
import { DESK_NAMES, type NemesisTeam, startNemesisTeam } from './team.ts';

export interface NemesisOptions {
  /** How long faults are injected. */
  seconds: number;
  seed: number;
  faults?: readonly string[];
  /** A desk's pause between two operations, on average. */
  everyMs?: number;
  gapMs?: readonly [number, number];
  holdMs?: readonly [number, number];
  say(line: string): void;
}

export interface NemesisReport {
  seed: number;
  /** Faults injected, by kind. */
  faults: Record<string, number>;
  verdict: Verdict;
  history: Op[];
  /** What the checker read (kept for a failed run's investigation). */
  final: FinalState;
  /** Setup, faults, settling, checking: seconds each. */
  seconds: { setup: number; faults: number; settle: number; check: number };
}

export async function runNemesis(options: NemesisOptions): Promise<NemesisReport> {
  const { say } = options;
  const random = seeded(options.seed);
  const clock = stopwatch();
  // The desks' processes load their modules while the store and the team are made.
  const run = startNemesisDesks(DESK_NAMES);
  let team: NemesisTeam | undefined;
  try {
    team = await startNemesisTeam(say);
    for (const [i, desk] of team.desks.entries()) {
      run.desks[i]!.open({
        desk: desk.login,
        dataDir: desk.dataDir,
        lead: desk.lead,
        seed: options.seed * 31 + i + 1,
        everyMs: options.everyMs ?? 400,
        fourEyes: i === 0,
        incarnation: 1,
      });
    }
    // The desks open while the hubs start. Desk 1 turns four eyes on before saying ready: every desk is ready
    // before any works.
    const [customers] = await Promise.all([
      team.startHubs(),
      ...run.desks.map((desk) => desk.said('ready', 180_000)),
    ]);
    const setup = clock();
    say(`hubs and desks up in ${setup} s; ${customers.length} customers in the store`);
    for (const desk of run.desks) desk.tell('start', customers);
    await Promise.all(run.desks.map((desk) => desk.said('started', 30_000)));
    const faults = await runFaultSchedule({
      kinds: faultKinds(options.faults ?? DEFAULT_FAULTS),
      targets: {
        store: team.store,
        admin: team.admin,
        logins: team.logins,
        hubs: team.hubs,
        desks: team.desks.map((desk, i) => ({
          name: desk.name,
          pid: run.desks[i]!.pid,
          network: desk.network,
        })),
      },
      random,
      until: Date.now() + options.seconds * 1000,
      gapMs: options.gapMs ?? [1_000, 4_000],
      holdMs: options.holdMs ?? [1_000, 4_000],
      say,
    });
    const faulted = clock();
    for (const desk of run.desks) desk.tell('stop');
    // A desk whose call never returns keeps its operation unanswered; the run goes on without it.
    await Promise.all(
      run.desks.map((desk) => desk.said('stopped', 60_000).catch((e: Error) => say(e.message))),
    );
    const journals = team.desks.map((desk) => path.join(desk.dataDir, 'journal.db'));
    const stall = await settled(team.admin, journals, team.logins, 120_000, say);
    if (stall) say(stall);
    const settle = clock();
    const history = run.history();
    const final = await readFinalState(
      history,
      [...run.crashes, ...team.crashes, ...(stall ? [stall] : [])],
      {
        store: team.store,
        keyFile: team.keyFile,
        sandbox: team.sandbox,
        desks: team.desks.map((desk, i) => ({ login: desk.login, journal: journals[i]! })),
      },
    );
    const verdict = checkHistory(history, final);
    return {
      seed: options.seed,
      faults,
      verdict,
      history,
      final,
      seconds: { setup, faults: faulted, settle, check: clock() },
    };
  } finally {
    for (const desk of run.desks) desk.tell('close');
    await Promise.all(run.desks.map((desk) => desk.said('closed', 30_000).catch(() => desk.kill())));
    await team?.close();
  }
}

/** Seconds since the last call (or the start). */
function stopwatch(): () => number {
  let last = performance.now();
  return () => {
    const now = performance.now();
    const seconds = Math.round((now - last) / 100) / 10;
    last = now;
    return seconds;
  };
}
