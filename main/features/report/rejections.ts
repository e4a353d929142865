// The period's rejected documents by reason. The team store knows that the service rejected a document (its
// webhook event), not why: the reason is the document's, asked of the service as the event's detail asks it,
// a few at a time. A document the service cannot answer for is counted, under a reason that says so.
import { type RejectionReasons, rejectionReasonText } from '#contract/document-rules.ts';

/** Most documents asked about for one report: past them, the count stands and the reason says why it is missing. */
export const MOST_LOOKED_UP = 200;
const AT_ONCE = 4;

export const REASON_UNKNOWN = 'Reason not known: the service did not say, or could not be asked';
export const REASON_NOT_ASKED = `Reason not asked: over ${MOST_LOOKED_UP} rejections in the period`;

/** How many of `documents` were rejected for each reason, the commonest first. */
export async function rejectionsByReason(
  documents: readonly string[],
  ask: (documentId: string) => Promise<RejectionReasons>,
): Promise<Array<{ reason: string; count: number }>> {
  const reasons: string[] = [];
  const asked = documents.slice(0, MOST_LOOKED_UP);
  for (let start = 0; start < asked.length; start += AT_ONCE) {
    const batch = asked.slice(start, start + AT_ONCE);
    reasons.push(
      ...(await Promise.all(
        batch.map(async (id) => {
          const found = await ask(id).catch(() => null);
          return (found && rejectionReasonText(found)) ?? REASON_UNKNOWN;
        }),
      )),
    );
  }
  for (let rest = asked.length; rest < documents.length; rest++) reasons.push(REASON_NOT_ASKED);
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
}
