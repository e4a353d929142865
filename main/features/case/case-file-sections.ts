// The case file's sections, in the order an examiner reads a case: who produced it, the customer, what
// happened (statuses, events, notes, documents, claims, four eyes), then the audit entries and how to check them.
import { statusName } from '#contract/statuses.ts';
import {
  facts,
  heading,
  keepRoom,
  MARGIN,
  type Pdf,
  paragraph,
  row,
  rows,
  title,
  verifyHeadCommand,
  when,
} from '../pdf/draw.ts';
import type { CaseFileData, CaseFileDocument } from './case-file-data.ts';

const THUMBNAIL = { width: 150, height: 100 };

function drawProduction(doc: Pdf, { produced, customer }: CaseFileData): void {
  title(doc, `Case file: ${customer.name}`);
  facts(doc, [
    { label: 'Customer ID', value: customer.id },
    { label: 'Produced', value: when(produced.at) },
    { label: 'Produced by', value: produced.by },
    {
      label: 'Desk',
      value: `${produced.desk} (${produced.mode === 'team' ? 'a team’s desk' : 'working alone'}), Vetted ${produced.version}`,
    },
  ]);
}

function drawCustomer(doc: Pdf, { customer, personal }: CaseFileData): void {
  heading(doc, 'Customer');
  facts(doc, [
    { label: 'Name', value: customer.name },
    { label: 'E-mail', value: customer.email },
    { label: 'Type', value: customer.type },
    { label: 'Status', value: `${statusName(customer.status)} since ${when(customer.since)}` },
    { label: 'Created', value: when(customer.created) },
    { label: 'Last seen on the service', value: when(customer.lastRefreshed) },
    ...(customer.gone ? [{ label: 'Gone', value: 'The service no longer has this customer.' }] : []),
    ...(customer.note ? [{ label: 'Latest note', value: customer.note }] : []),
  ]);
  heading(doc, 'Personal data');
  if (personal.fields.length === 0) {
    paragraph(doc, 'Vetted holds no personal data for this customer: it was not created here.', {
      quiet: true,
    });
    return;
  }
  paragraph(
    doc,
    personal.revealReason === null
      ? 'Masked, as the case view shows it. The SSN is never held in full: only its last four digits.'
      : `Shown in full, revealed for this file (recorded in the audit log). Reason: ${personal.revealReason}`,
    { quiet: true },
  );
  facts(doc, personal.fields);
}

/** What stands for the image when there is none to draw. */
function imageAbsence(image: CaseFileDocument['image']): string | null {
  if (image === 'purged') return 'Stored image: removed from this desk (purged).';
  if (image === 'none') return 'Stored image: none at this desk.';
  if (image.contentType !== 'image/png' && image.contentType !== 'image/jpeg') {
    return `Stored image: ${image.contentType}, not drawn here.`;
  }
  return null;
}

function drawImage(doc: Pdf, image: CaseFileDocument['image']): void {
  const absence = imageAbsence(image);
  if (absence !== null || typeof image !== 'object') {
    paragraph(doc, absence ?? '', { quiet: true });
    return;
  }
  keepRoom(doc, THUMBNAIL.height + 8);
  const top = doc.y;
  try {
    doc.image(image.bytes, MARGIN, top, { fit: [THUMBNAIL.width, THUMBNAIL.height] });
    doc.y = top + THUMBNAIL.height + 6;
  } catch {
    paragraph(doc, 'Stored image: it could not be drawn.', { quiet: true });
  }
}

function drawDocuments(doc: Pdf, { documents }: CaseFileData): void {
  heading(doc, 'Documents');
  if (documents.problem) paragraph(doc, documents.problem, { quiet: true });
  if (documents.items.length === 0) paragraph(doc, 'None.', { quiet: true });
  for (const item of documents.items) {
    // A document's line and its image stay together.
    if (typeof item.image === 'object') keepRoom(doc, 50 + THUMBNAIL.height);
    row(doc, {
      at: item.uploadedAt ?? '',
      who: item.id,
      what: `${item.type}: ${item.review ?? 'review not known here'}`,
      detail: item.reasons.length > 0 ? `Reasons: ${item.reasons.join('; ')}` : null,
    });
    drawImage(doc, item.image);
  }
}

function drawTeamwork(doc: Pdf, { claims, fourEyes }: CaseFileData): void {
  heading(doc, 'Claims');
  if (!claims.shared) {
    paragraph(doc, 'None: this desk works alone, and its reviewer holds every case.', { quiet: true });
  } else {
    paragraph(
      doc,
      `Held now by: ${claims.holder ? `${claims.holder.login} since ${when(claims.holder.since)}` : 'nobody'}`,
    );
    rows(doc, claims.rows, 'No claim was ever taken on this case.');
  }
  heading(doc, 'Four eyes');
  if (!fourEyes.shared) {
    paragraph(doc, 'None: a desk working alone asks no second reviewer’s approval.', { quiet: true });
  } else {
    rows(doc, fourEyes.rows, 'No approval was asked for on this case.');
  }
}

function drawAudit(doc: Pdf, { audit }: CaseFileData): void {
  heading(doc, 'Audit entries');
  if (audit.entries.length === 0) paragraph(doc, 'None.', { quiet: true });
  for (const entry of audit.entries) {
    row(doc, {
      at: entry.at,
      who: `entry ${entry.seq} · ${entry.actor || 'Not recorded'}`,
      what: `${entry.what} (${entry.outcome})${entry.detail ? ` · ${entry.detail}` : ''}`,
      detail: `chain hash ${entry.chainHash}`,
    });
  }
}

function drawVerification(doc: Pdf, { audit, produced }: CaseFileData): void {
  const head = `${audit.head.seq}:${audit.head.chainHash}`;
  const file = audit.attachment.fileName;
  heading(doc, 'Verifying the audit entries');
  paragraph(
    doc,
    `The entries above are every entry the audit chain holds for this customer, up to the chain’s head when this file was made: ${head}. They are attached to this file as ${file}, the Audit screen’s JSON Lines export of this customer’s entries. Save the attachment (a PDF reader’s attachments pane, or: pdfdetach -saveall <this file>), then, in a checkout of Vetted, run:`,
  );
  paragraph(doc, `npm run team -- verify-audit --file ${file}`, { size: 9 });
  paragraph(
    doc,
    produced.mode === 'team'
      ? 'It checks each entry against its hash and its links; with --key-file <the team key file>, its seal too. The team’s administrator shows that no entry up to this head was removed since:'
      : 'It checks each entry against its hash and its links. A desk working alone seals its entries with a key of its own vault: their seals are checked on this desk only.',
  );
  if (produced.mode === 'team') verifyHeadCommand(doc, head);
  paragraph(
    doc,
    'A file of one customer’s entries shows each is as written; that none was left out is shown by the whole chain (docs/team-admin.md, “The audit chain”).',
    { quiet: true },
  );
}

export function drawSections(doc: Pdf, data: CaseFileData): void {
  drawProduction(doc, data);
  drawCustomer(doc, data);
  heading(doc, 'Status history');
  rows(doc, data.statuses, 'None recorded.');
  heading(doc, 'Webhook events');
  rows(doc, data.events, 'None received for this customer.');
  heading(doc, 'Notes');
  rows(doc, data.notes, 'None.');
  drawDocuments(doc, data);
  drawTeamwork(doc, data);
  drawAudit(doc, data);
  drawVerification(doc, data);
}
