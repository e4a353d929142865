// Joining and leaving a team from Settings → Team. Joining checks everything against the store before it
// keeps anything (a refusal changes nothing); then the team key and the reviewer's database password go to
// the vault and the connection (no secret) to the settings file. Leaving forgets all three; the local
// journal stays. Either takes effect when the desk next starts: it opens its journal once, at start. So does
// a new database password (`team reset-password` gave one), checked against the store before it is kept.
// Plain Node: the feature (index.ts) gives it the desk's vault and settings.
import { DeskError } from '#contract/errors.ts';
import type { TeamStatus } from '#contract/team.ts';
import type { SettingsStore } from '../ground/config/settings-store.ts';
import type { Vault } from '../ground/vault/vault.ts';
import { decodeJoinCode, type JoinCode, JoinCodeError } from './join-code.ts';
import { joinedTeam } from './joined.ts';
import { teamFailure } from './team-failures.ts';
import { decodeTeamKey, encodeTeamKey } from './team-key.ts';
import { probeTeamStore, spendJoinCode, type TeamExpectation } from './team-probe.ts';

export interface MembershipOptions {
  vault: Pick<Vault, 'get' | 'set' | 'delete'>;
  settings: Pick<SettingsStore, 'get' | 'update'>;
  /** The team the running desk started on (null: solo); a difference means a restart is needed. */
  startedOn: string | null;
  /** Joining may wait on a slow network; status is asked often and answers fast. */
  joinTimeoutMs?: number;
  statusTimeoutMs?: number;
  /** Told every secret as it arrives, so the log redacts it. */
  onSecret?(value: string): void;
  /** A failure Vetted has no words for (`TeamFailed`): its cause belongs in the log. */
  onUnexpected?(error: DeskError): void;
}

export interface Membership {
  status(): Promise<TeamStatus>;
  join(code: string, password: string): Promise<TeamStatus>;
  leave(): Promise<TeamStatus>;
  /** Checks the new database password against the store, then keeps it instead of the old one. */
  changePassword(password: string): Promise<TeamStatus>;
}

/** What a desk's membership remembers between calls. */
interface MembershipState {
  options: MembershipOptions;
  joinTimeoutMs: number;
  statusTimeoutMs: number;
  /** The running desk's connections were opened with the old password. */
  passwordChanged: boolean;
}

export function createMembership(options: MembershipOptions): Membership {
  const state: MembershipState = {
    options,
    joinTimeoutMs: options.joinTimeoutMs ?? 10_000,
    statusTimeoutMs: options.statusTimeoutMs ?? 3_000,
    passwordChanged: false,
  };
  return {
    status: () => status(state),
    join: (code, password) => join(state, code, password),
    async leave() {
      const { vault, settings } = options;
      if (settings.get().team) settings.update({ team: undefined });
      vault.delete('teamDatabasePassword');
      vault.delete('teamKey');
      state.passwordChanged = false;
      return base(state);
    },
    changePassword: (password) => changePassword(state, password),
  };
}

function base({ options, passwordChanged }: MembershipState): TeamStatus {
  const team = options.settings.get().team;
  const restartNeeded = (team?.teamId ?? null) !== options.startedOn || (passwordChanged && !!team);
  if (!team) return { mode: 'solo', store: 'not-joined', hub: 'unknown', restartNeeded };
  const { host, port, database, user, sslmode } = team.connection;
  return {
    mode: 'team',
    team: { teamId: team.teamId, reviewer: user, host, port, database, sslmode },
    store: 'connected',
    hub: 'unknown',
    restartNeeded,
  };
}

/** probeTeamStore, telling the log about failures Vetted has no words for. */
function probe({ options }: MembershipState, expected: TeamExpectation, timeoutMs: number) {
  return probeTeamStore(expected, timeoutMs).catch((error: unknown) => {
    const failure = teamFailure(error, expected.connection);
    if (failure.code === 'TeamFailed') options.onUnexpected?.(failure);
    throw failure;
  });
}

async function status(state: MembershipState): Promise<TeamStatus> {
  const now = base(state);
  if (now.mode === 'solo') return now;
  // What the vault holds for the joined team, or undefined when a secret is gone (a memory-only vault).
  const expected = joinedTeam(state.options.settings, state.options.vault) ?? undefined;
  if (!expected) {
    return {
      ...now,
      store: 'refused',
      problem:
        'The team key or your database password is no longer in this desk’s vault: leave the team and join again with your code.',
    };
  }
  try {
    return { ...now, ...(await probe(state, expected, state.statusTimeoutMs)) };
  } catch (error) {
    const failure = teamFailure(error, expected.connection);
    return {
      ...now,
      store: failure.code === 'TeamUnreachable' ? 'unreachable' : 'refused',
      problem: failure.message,
    };
  }
}

async function join(state: MembershipState, text: string, password: string): Promise<TeamStatus> {
  const { options } = state;
  if (options.settings.get().team) {
    throw new DeskError(
      'TeamAlreadyJoined',
      'This desk is already on a team: leave it first to join another.',
    );
  }
  const code = decodeOrRefuse(text);
  options.onSecret?.(password);
  options.onSecret?.(encodeTeamKey(code.teamKey));
  const expected = { teamId: code.teamId, connection: code.connection, password, teamKey: code.teamKey };
  const { hub } = await probe(state, expected, state.joinTimeoutMs);
  // Spent only once the store took the password and the key: a mistyped password keeps the code good.
  await spendJoinCode(expected, code.use, state.joinTimeoutMs);
  keep(options, code, password);
  return { ...base(state), hub };
}

async function changePassword(state: MembershipState, password: string): Promise<TeamStatus> {
  const { vault, settings } = state.options;
  const team = settings.get().team;
  if (!team) throw new DeskError('TeamNotJoined', 'This desk is not on a team: join one with your code.');
  const key = vault.get('teamKey');
  if (!key) {
    throw new DeskError(
      'TeamNotJoined',
      'The team key is no longer in this desk’s vault: leave the team and join again with your code.',
    );
  }
  state.options.onSecret?.(password);
  const expected = {
    teamId: team.teamId,
    connection: team.connection,
    password,
    teamKey: decodeTeamKey(key),
  };
  const { hub } = await probe(state, expected, state.joinTimeoutMs);
  vault.set('teamDatabasePassword', password);
  state.passwordChanged = true;
  return { ...base(state), hub };
}

function decodeOrRefuse(text: string): JoinCode {
  try {
    return decodeJoinCode(text);
  } catch (error) {
    if (error instanceof JoinCodeError) {
      throw new DeskError('TeamCodeDamaged', error.message, { '/code': error.message });
    }
    throw error;
  }
}

/** Secrets first, the settings block last: a desk is joined only once all three are kept. */
function keep(options: MembershipOptions, code: JoinCode, password: string): void {
  const { vault, settings } = options;
  try {
    vault.set('teamKey', encodeTeamKey(code.teamKey));
    vault.set('teamDatabasePassword', password);
    settings.update({ team: { teamId: code.teamId, connection: code.connection } });
  } catch (error) {
    vault.delete('teamKey');
    vault.delete('teamDatabasePassword');
    throw error;
  }
}
