import { Link2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ChannelOutput } from '#contract/channels.ts';
import { api } from '#renderer/api.ts';
import { useCaseStore } from '#renderer/shared/case/case-store.ts';
import { copyText } from '#renderer/shared/data/clipboard.ts';
import { Button } from '#renderer/ui/Button.tsx';

type CaseLinkAnswer = ChannelOutput<'case.link'>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Copies one of the case's addresses, and says so (or why not) in the case's announcement. */
async function copy(text: string, what: string) {
  const { announce } = useCaseStore.getState();
  try {
    await copyText(text);
    announce(`${what} copied.`);
  } catch (error) {
    announce(`The ${what.toLowerCase()} could not be copied: ${messageOf(error)}`);
  }
}

/**
 * The case's link (`vetted://case/<id>`), for a lead to paste into chat: it opens this case on any desk of
 * the team. In browser mode this desk's own address of the case is shown too, as a desk there opens that.
 */
export function CaseLink({ customerId }: { customerId: string }) {
  const [answer, setAnswer] = useState<CaseLinkAnswer | null>(null);
  useEffect(() => {
    let current = true;
    setAnswer(null);
    api.case
      .link({ customerId })
      .then((link) => current && setAnswer(link))
      .catch((error: unknown) =>
        useCaseStore.getState().announce(`No link for this case: ${messageOf(error)}`),
      );
    return () => {
      current = false;
    };
  }, [customerId]);

  return (
    <>
      <Button
        size="sm"
        weight="quiet"
        icon={Link2}
        disabled={!answer}
        onClick={() => answer && void copy(answer.link, 'Link')}
      >
        Copy link
      </Button>
      {answer?.address && (
        <span className="case-link-address">
          <span className="case-id-label">This desk’s address</span>{' '}
          <code title={answer.address}>{answer.address}</code>
          <Button size="sm" weight="quiet" onClick={() => void copy(answer.address as string, 'Address')}>
            Copy<span className="visually-hidden"> this desk’s address</span>
          </Button>
        </span>
      )}
    </>
  );
}
