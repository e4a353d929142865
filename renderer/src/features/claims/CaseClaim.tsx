import { Hand, LogOut, UserRound, UserRoundCheck, UserRoundPen, UserRoundX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ClaimNoteSchema } from '#contract/claims.ts';
import { ASK_A_LEAD, LEAD_ONLY, type TeamMe } from '#contract/roles.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import { useWatch } from '#renderer/shared/data/watch.ts';
import { claimOrigin, claimWords } from '#renderer/shared/team/claim-words.ts';
import { useClaimsStore } from '#renderer/shared/team/claims-store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { ReasonDialog } from '#renderer/ui/ReasonDialog.tsx';
import { useNow } from '#renderer/ui/time.tsx';
import { CaseLink } from './CaseLink.tsx';
import { ReassignDialog } from './ReassignDialog.tsx';

type Opened = 'reassign' | 'takeOver' | null;

/**
 * Team mode, in the case's header: who holds the case and since when (live), Take and Release, a lead's
 * Reassign… and Take over…; a reviewer reads why those are not theirs where they would be. And the case's link.
 */
export function CaseClaim({ customerId, me }: { customerId: string; me: TeamMe }) {
  const known = useClaimsStore((state) => customerId in state.byCase);
  const claim = useClaimsStore((state) => state.byCase[customerId] ?? null);
  const busy = useClaimsStore((state) => state.busy);
  const problem = useClaimsStore((state) =>
    state.problem?.customerId === customerId ? state.problem.text : null,
  );
  const [opened, setOpened] = useState<Opened>(null);
  const now = useNow();
  useWatch(useClaimsStore.getState().watch);
  useEffect(() => {
    const { follow, loadReviewers } = useClaimsStore.getState();
    void follow(customerId);
    void loadReviewers();
  }, [customerId]);

  const { take, release, takeOver } = useClaimsStore.getState();
  const say = useCaseStore.getState().announce;
  /** A take or a release; said once main agrees (a refusal shows in main's words below). */
  const change = (run: (id: string) => Promise<boolean>, said: string) => () =>
    void run(customerId).then((ok) => ok && say(said));
  const theirs = claim !== null && !claim.mine;
  const Icon = !claim ? UserRoundX : claim.mine ? UserRoundCheck : UserRound;
  const origin = claimOrigin(claim);
  const leadOnly = [LEAD_ONLY.reassign, ...(theirs ? [LEAD_ONLY.takeOver] : [])];

  return (
    <section className="case-claim" aria-label="Who has this case">
      <p className="case-claim-holder">
        <Icon aria-hidden="true" className="case-claim-icon" />
        <span>{known ? claimWords(claim, now) : 'Asking who has this case…'}</span>
      </p>
      {origin && <p className="hint case-claim-origin">{origin}</p>}
      <div className="actions case-claim-actions">
        {known && !claim && (
          <Button size="sm" icon={Hand} disabled={busy} onClick={change(take, 'You have this case now.')}>
            Take
          </Button>
        )}
        {claim?.mine && (
          <Button
            size="sm"
            icon={LogOut}
            disabled={busy}
            onClick={change(release, 'You released this case.')}
          >
            Release
          </Button>
        )}
        {me.can.reassign && known && (
          <Button size="sm" icon={UserRoundPen} onClick={() => setOpened('reassign')}>
            Reassign…
          </Button>
        )}
        {me.can.takeOver && theirs && (
          <Button size="sm" icon={Hand} onClick={() => setOpened('takeOver')}>
            Take over…
          </Button>
        )}
        <CaseLink customerId={customerId} />
      </div>
      {!me.can.reassign && (
        <p className="hint case-claim-lead-only">
          {leadOnly.join(' ')} {ASK_A_LEAD}
        </p>
      )}
      {problem && <p role="alert">{problem}</p>}
      <ReassignDialog
        open={opened === 'reassign'}
        customerId={customerId}
        holder={claim?.holder ?? null}
        onClose={() => setOpened(null)}
        onDone={(to) => say(`Reassigned to ${to}.`)}
      />
      <ReasonDialog
        open={opened === 'takeOver'}
        title={`Take over the case from ${claim?.holder ?? 'its holder'}`}
        hint="The audit log keeps your reason, and the holder is told."
        action={{ label: 'Take over', busyLabel: 'Taking over…' }}
        rule={ClaimNoteSchema}
        fieldPointer="/reason"
        submit={async (reason) => {
          await takeOver(customerId, reason);
          say('You have this case now.');
        }}
        onClose={() => setOpened(null)}
      />
    </section>
  );
}
