import { useEffect, useState } from 'react';
import type { CustomerDetail, PersonalData } from '../../../../contract/customers.ts';
import { RevealDialog } from './RevealDialog.tsx';

/** The masked form of an SSN; the full number never reaches the renderer. */
const maskedSsn = (lastFour: string) => `•••-••-${lastFour}`;

function addressOf(data: PersonalData): string {
  return [data.address1, data.address2, `${data.city}, ${data.state} ${data.postalCode}`]
    .filter(Boolean)
    .join(', ');
}

interface PersonalDataPanelProps {
  customerId: string;
  personal: CustomerDetail['personal'];
}

/**
 * Personal data stays masked until the reviewer gives a reason. What is revealed lives in this
 * component only: leaving the customer forgets it.
 */
export function PersonalDataPanel({ customerId, personal }: PersonalDataPanelProps) {
  const [revealed, setRevealed] = useState<PersonalData | null>(null);
  const [asking, setAsking] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another customer must not show this one's data.
  useEffect(() => setRevealed(null), [customerId]);

  return (
    <section aria-labelledby="customer-personal" className="customer-section">
      <h3 id="customer-personal">Personal data</h3>
      {!personal ? (
        <p>Vetted holds no personal data for this customer: it was not created here.</p>
      ) : (
        <>
          <dl className="facts">
            <dt>SSN</dt>
            <dd>{revealed ? maskedSsn(revealed.ssnLastFour) : personal.ssnMasked}</dd>
            <dt>Date of birth</dt>
            <dd>{revealed ? revealed.dateOfBirth : <span className="masked">Hidden</span>}</dd>
            <dt>Address</dt>
            <dd>{revealed ? addressOf(revealed) : <span className="masked">Hidden</span>}</dd>
          </dl>
          {revealed ? (
            <button type="button" onClick={() => setRevealed(null)}>
              Hide personal data
            </button>
          ) : (
            <button type="button" onClick={() => setAsking(true)}>
              Reveal personal data…
            </button>
          )}
          <RevealDialog
            open={asking}
            customerId={customerId}
            onClose={() => setAsking(false)}
            onRevealed={setRevealed}
          />
        </>
      )}
    </section>
  );
}
