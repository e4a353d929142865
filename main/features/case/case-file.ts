// The case file channel: one PDF of a customer's case for an examiner, gathered from the journal, drawn in main
// (so browser mode has it as Electron does), and audited. Its production is recorded before the file is made,
// in one unit with a reveal when personal data is asked for in full: a refused record means no file.
import type { CaseFile, CaseFileChannel } from '#contract/case-file.ts';
import { exportFileName } from '#contract/csv.ts';
import { refusal } from '#main/data/failures.ts';
import type { Handlers } from '#main/ground/serve.ts';
import { toCustomerDocument } from '../customers/documents.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { Claims, Roles } from '../team-interfaces/claims.ts';
import { gatherCaseFile } from './case-file-gather.ts';
import { renderCaseFile } from './case-file-pdf.ts';

export interface CaseFileOptions {
  claims: Pick<Claims, 'shared' | 'get'>;
  roles: Roles;
  /** This computer's name and Vetted's version, printed as where the file came from. */
  desk: { name: string; version: string };
  /** The production time (tests fix it). */
  clock?: () => Date;
}

export function caseFileFeature(context: DeskContext, options: CaseFileOptions): Feature<CaseFileChannel> {
  const { journal } = context;
  const clock = options.clock ?? (() => new Date());

  const handlers: Pick<Handlers, CaseFileChannel> = {
    async 'case.file'({ customerId, pageSize, revealReason }): Promise<CaseFile> {
      const customer = await journal.customers.get(customerId);
      if (!customer) throw refusal.unknownCustomer();
      const me = await options.roles.me();
      const now = clock();
      const inFull = revealReason !== undefined;
      await journal.transaction(async (tx) => {
        if (inFull) {
          await tx.audit.record({
            action: 'personal.reveal',
            customerId,
            outcome: 'ok',
            detail: `Case file with personal data in full. Reason: ${revealReason}`,
          });
        }
        await tx.audit.record({
          action: 'case.file',
          customerId,
          outcome: 'ok',
          detail: `${pageSize}, personal data ${inFull ? 'in full' : 'masked'}`,
        });
      });
      try {
        const gathered = await gatherCaseFile(
          {
            journal,
            claims: options.claims,
            documents: async (id) =>
              (await context.connection().client().documents.listForCustomer(id)).map(toCustomerDocument),
          },
          customer,
          { revealReason: revealReason ?? null, now },
        );
        const { bytes, pages } = await renderCaseFile({
          ...gathered,
          pageSize,
          produced: {
            at: now.toISOString(),
            by: me.reviewer,
            desk: options.desk.name,
            mode: me.mode,
            version: options.desk.version,
          },
        });
        return {
          fileName: exportFileName(['vetted-case', customerId], 'pdf', now),
          mimeType: 'application/pdf',
          encoding: 'base64',
          content: bytes.toString('base64'),
          count: pages,
        };
      } catch (error) {
        await journal.audit.record({ action: 'case.file', customerId, outcome: 'failed', detail: pageSize });
        throw error;
      }
    },
  };
  return { handlers };
}
