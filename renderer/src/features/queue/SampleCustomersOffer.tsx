import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import { isSampleEmail } from '#contract/sandbox-panel.ts';
import { api } from '#renderer/api.ts';
import { useTeamViewStore } from '#renderer/shared/team/team-view-store.ts';
import { useAppStore } from '#renderer/store.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Tag } from '#renderer/ui/Tag.tsx';

/**
 * The empty queue's first step on the built-in sandbox: a dozen sample customers, made as a reviewer's
 * New customer makes them. Not offered on a real service nor in a team (main refuses there too).
 */
export function SampleCustomersOffer({ onAdded }: { onAdded(): void }) {
  const onSandbox = useAppStore((state) => state.service?.mode === 'sandbox');
  const inTeam = useTeamViewStore((state) => state.me?.mode === 'team');
  const [state, setState] = useState<{ busy: boolean; problem: string }>({ busy: false, problem: '' });
  if (!onSandbox || inTeam) return null;
  const add = async () => {
    setState({ busy: true, problem: '' });
    try {
      await api.sandbox.addSamples();
      setState({ busy: false, problem: '' });
      onAdded();
    } catch (error) {
      setState({ busy: false, problem: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <span className="sample-offer">
      <Button weight="primary" icon={FlaskConical} disabled={state.busy} onClick={() => void add()}>
        {state.busy ? 'Adding sample customers…' : 'Add sample customers'}
      </Button>
      {state.problem && (
        <span role="alert" className="hint">
          {state.problem}
        </span>
      )}
    </span>
  );
}

/** The queue's mark on a sample customer (its e-mail at the samples' domain). */
export function SampleTag({ email }: { email: string | null }) {
  if (!isSampleEmail(email)) return null;
  return (
    <Tag icon={FlaskConical} title="A sample customer, added on the built-in sandbox">
      Sample
    </Tag>
  );
}
