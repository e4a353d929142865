// What a case file holds, gathered (case-file-gather.ts) before it is drawn (case-file-pdf.ts): plain data, so
// the drawing is tested on a fixed case and the gathering on a real desk.
import type { PageSize } from '#contract/case-file.ts';
import type { DatedRow } from '../pdf/draw.ts';

/** One line of a table: a moment, who or what, and the words. */
export type CaseFileRow = DatedRow;

export interface CaseFileDocument {
  id: string;
  type: string;
  uploadedAt: string | null;
  /** `pending`, `accepted`, `rejected`…; null when only this desk's records know the document. */
  review: string | null;
  reasons: string[];
  /** The stored image to show small; 'purged' when a lead removed it, 'none' when this desk never had one. */
  image: { contentType: string; bytes: Buffer } | 'purged' | 'none';
}

export interface CaseFileAuditEntry {
  seq: number;
  at: string;
  actor: string;
  what: string;
  outcome: string;
  detail: string | null;
  chainHash: string;
}

export interface CaseFileData {
  pageSize: PageSize;
  produced: {
    at: string;
    /** The reviewer's login (a team's database login, the computer's user when solo). */
    by: string;
    /** The computer's name, and whether it works alone or in a team. */
    desk: string;
    mode: 'solo' | 'team';
    version: string;
  };
  customer: {
    id: string;
    name: string;
    email: string;
    type: string;
    status: string;
    since: string;
    created: string;
    lastRefreshed: string;
    gone: boolean;
    note: string | null;
  };
  /** Labelled values as the case view shows them: masked or "Hidden" unless revealed with a reason. */
  personal: { revealReason: string | null; fields: Array<{ label: string; value: string }> };
  statuses: CaseFileRow[];
  events: CaseFileRow[];
  notes: CaseFileRow[];
  documents: { items: CaseFileDocument[]; problem: string | null };
  claims: { shared: boolean; holder: { login: string; since: string } | null; rows: CaseFileRow[] };
  fourEyes: { shared: boolean; rows: CaseFileRow[] };
  audit: {
    entries: CaseFileAuditEntry[];
    head: { seq: number; chainHash: string };
    /** The customer's entries as the Audit screen's JSON Lines export writes them, for `verify-audit --file`. */
    attachment: { fileName: string; content: string };
  };
}
