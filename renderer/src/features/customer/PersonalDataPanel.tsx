import { Eye, EyeOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { CustomerDetail, PersonalData } from '#contract/customers.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { RevealDialog } from './RevealDialog.tsx';

/** The masked form of an SSN; the full number never reaches the renderer. */
const maskedSsn = (lastFour: string) => `•••-••-${lastFour}`;

function addressOf(data: PersonalData): string {
  return [data.address1, data.address2, `${data.city}, ${data.state} ${data.postalCode}`]
    .filter(Boolean)
    .join(', ');
}

const HIDDEN = <span className="masked">Hidden</span>;

interface PersonalDataPanelProps {
  customerId: string;
  personal: CustomerDetail['personal'];
  /** The fields the service reported beyond the interface document's, by name: masked until revealed. */
  reported?: CustomerDetail['reported'];
}

function revealedValue(revealed: PersonalData | null, field: string): string | null {
  return revealed?.reported.find((entry) => entry.field === field)?.value ?? null;
}

function ReportedField({ label, value }: { label: string; value: string | null }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value ?? HIDDEN}</dd>
    </>
  );
}

/**
 * Personal data stays masked until the reviewer gives a reason. What is revealed lives in this
 * component only: leaving the customer forgets it.
 */
export function PersonalDataPanel({ customerId, personal, reported = [] }: PersonalDataPanelProps) {
  const [revealed, setRevealed] = useState<PersonalData | null>(null);
  const [asking, setAsking] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another customer must not show this one's data.
  useEffect(() => setRevealed(null), [customerId]);

  return (
    <section aria-labelledby="customer-personal" className="case-section">
      <h3 id="customer-personal">Personal data</h3>
      {!personal && reported.length === 0 ? (
        <p className="hint">Vetted holds no personal data for this customer: it was not created here.</p>
      ) : (
        <>
          {personal && (
            <dl className="facts">
              <dt>SSN</dt>
              <dd>{revealed?.ssnLastFour ? maskedSsn(revealed.ssnLastFour) : personal.ssnMasked}</dd>
              <dt>Date of birth</dt>
              <dd>{revealed?.dateOfBirth ?? HIDDEN}</dd>
              <dt>Address</dt>
              <dd>{revealed?.address1 ? addressOf(revealed) : HIDDEN}</dd>
            </dl>
          )}
          {reported.length > 0 && (
            <dl className="facts" aria-label="As the service reports it">
              {reported.map(({ field, label }) => (
                <ReportedField key={field} label={label} value={revealedValue(revealed, field)} />
              ))}
            </dl>
          )}
          {revealed ? (
            <Button size="sm" icon={EyeOff} onClick={() => setRevealed(null)}>
              Hide personal data
            </Button>
          ) : (
            <Button size="sm" icon={Eye} onClick={() => setAsking(true)}>
              Reveal personal data…
            </Button>
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
