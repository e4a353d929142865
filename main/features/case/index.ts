// The case panel's channels (timeline, notes, stored document images), the Audit screen and the exports.
import type { CaseChannel } from '#contract/case.ts';
import { DeskError } from '#contract/errors.ts';
import { refusal } from '#main/data/failures.ts';
import type { Handlers } from '#main/ground/serve.ts';
import { firstLine, queueRowOf } from '#main/sync/reconcile/queue-row.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { Approvals } from '../team-interfaces/approvals.ts';
import { type Roles, requireLead } from '../team-interfaces/claims.ts';
import { auditWindow, exportAudit } from './audit-log.ts';
import { exportQueue } from './queue-export.ts';
import { customerTimeline } from './timeline.ts';

const noImage = () =>
  new DeskError(
    'NoStoredImage',
    'Vetted holds no image of this document: it was not uploaded here, or it was removed.',
  );

export function caseFeature(
  { journal, events }: DeskContext,
  { roles, approvals }: { roles: Roles; approvals: Pick<Approvals, 'required'> },
): Feature<CaseChannel> {
  const knownCustomer = async (id: string) => {
    const customer = await journal.customers.get(id);
    if (!customer) throw refusal.unknownCustomer();
    return customer;
  };

  const handlers: Pick<Handlers, CaseChannel> = {
    async 'customers.timeline'({ id, limit }) {
      await knownCustomer(id);
      return customerTimeline(journal, id, limit);
    },
    async 'notes.add'({ customerId, text }) {
      await knownCustomer(customerId);
      const note = await journal.transaction(async (tx) => {
        const saved = await tx.notes.add({ customerId, text });
        // The audit names the note, never its text: the text is personal data, kept encrypted.
        await tx.audit.record({ action: 'note.add', customerId, outcome: 'ok', detail: `note ${saved.seq}` });
        return saved;
      });
      // The queue's row and the case panel follow (the row's latest note, the timeline).
      const customer = await knownCustomer(customerId);
      events.emit('customer.updated', { ...queueRowOf(customer), latestNote: firstLine(note.text) });
      return { customerId, at: note.at, author: note.author, text: note.text };
    },
    async 'documents.stored'({ customerId }) {
      await knownCustomer(customerId);
      return journal.documentImages.list(customerId);
    },
    async 'documents.image'({ documentId }) {
      const image = await journal.documentImages.get(documentId);
      if (!image) throw noImage();
      return image;
    },
    async 'documents.purgeImage'({ documentId }) {
      await requireLead(roles, 'purgeImages');
      const image = await journal.documentImages.get(documentId);
      if (!image) throw noImage();
      const purged = await journal.transaction(async (tx) => {
        const done = await tx.documentImages.purge(documentId);
        await tx.audit.record({
          action: 'document.imagePurge',
          customerId: image.customerId,
          outcome: done ? 'ok' : 'none',
          detail: `${image.documentType} ${documentId}`,
        });
        return done;
      });
      return { purged };
    },
    'audit.window': (input) => auditWindow(journal, input),
    'audit.export': (input) => exportAudit(journal, input),
    async 'queue.export'(input) {
      if (input.revealReason !== undefined) {
        await requireLead(roles, 'exportNames');
        if ((await approvals.required()).exportNames) {
          throw new DeskError(
            'ApprovalNeeded',
            'Your team asks for a second lead’s approval before an export with names: ask for it instead.',
          );
        }
      }
      return exportQueue(journal, input);
    },
  };
  return { handlers };
}
