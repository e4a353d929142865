// The Team screen's store: a burst of claim and queue changes is one read once it settles, a change heard
// during a read asks for one more read after it, "online" is read again on a bounded interval while the screen
// is open and not once it is closed; who sees the screen (a team's lead) and what main's refusal says.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allowedTo, type TeamMe } from '#contract/roles.ts';
import type { TeamOverview } from '#contract/team-overview.ts';
import { deferred, fakeApi, installFresh } from './fake-api.ts';

const OVERVIEW = { at: '2026-11-27T10:00:00.000Z', members: [], sections: [] } as unknown as TeamOverview;
const me = (mode: TeamMe['mode'], role: TeamMe['role']): TeamMe => ({
  mode,
  reviewer: 'ana',
  role,
  claims: mode === 'team',
  can: allowedTo(role),
});

async function store(overview = vi.fn(async () => OVERVIEW)) {
  const fake = fakeApi({ team: { overview, me: vi.fn(async () => me('team', 'lead')) } });
  await installFresh(fake);
  const module = await import('#renderer/shared/team/team-view-store.ts');
  return { fake, overview, ...module };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the Team screen’s figures, live', () => {
  it('reads once after a burst of changes settles, and again on the interval while watched', async () => {
    const { fake, overview, useTeamViewStore, CHANGES_SETTLE_MS, ONLINE_EVERY_MS } = await store();
    const stop = useTeamViewStore.getState().watch();
    for (let i = 0; i < 5; i++) {
      fake.push('claims.changed', { customerId: `c-${i}`, claim: null });
      await vi.advanceTimersByTimeAsync(CHANGES_SETTLE_MS / 2);
    }
    fake.push('customer.updated', {} as never);
    expect(overview).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(CHANGES_SETTLE_MS);
    expect(overview).toHaveBeenCalledTimes(1);
    expect(useTeamViewStore.getState().overview).toBe(OVERVIEW);

    await vi.advanceTimersByTimeAsync(ONLINE_EVERY_MS);
    expect(overview).toHaveBeenCalledTimes(2);
    stop();
    expect(fake.listeners('claims.changed')).toBe(0);
    await vi.advanceTimersByTimeAsync(ONLINE_EVERY_MS * 3);
    expect(overview).toHaveBeenCalledTimes(2);
  });

  it('reads once more after a read that a change overtook, never two at once', async () => {
    const answer = deferred<TeamOverview>();
    const overview = vi.fn(() => answer.promise);
    const { useTeamViewStore } = await store(overview);
    const first = useTeamViewStore.getState().refresh();
    void useTeamViewStore.getState().refresh();
    void useTeamViewStore.getState().refresh();
    expect(overview).toHaveBeenCalledTimes(1);
    answer.resolve(OVERVIEW);
    await first;
    await vi.waitFor(() => expect(overview).toHaveBeenCalledTimes(2));
  });

  it('shows main’s refusal in its words', async () => {
    const overview = vi.fn<() => Promise<TeamOverview>>();
    const { useTeamViewStore } = await store(overview);
    // The error class of the renderer's modules as loaded afresh for this test.
    const { VettedError } = await import('#contract/errors.ts');
    overview.mockRejectedValue(
      new VettedError({ code: 'LeadOnly', message: 'Only a lead can see the Team screen.' }),
    );
    await useTeamViewStore.getState().refresh();
    expect(useTeamViewStore.getState().problem).toBe('Only a lead can see the Team screen.');
  });
});

describe('who sees the Team screen', () => {
  it('a team’s lead; not a team’s reviewer, nor a solo desk (its own lead, with no team)', async () => {
    const { seesTeam } = await store();
    expect(seesTeam(me('team', 'lead'))).toBe(true);
    expect(seesTeam(me('team', 'reviewer'))).toBe(false);
    expect(seesTeam(me('solo', 'lead'))).toBe(false);
    expect(seesTeam(null)).toBe(false);
  });
});
