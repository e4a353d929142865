import { describe, expect, it } from 'vitest';
import { reportedFieldLabel } from '#contract/customers.ts';
import { SECTION_TITLES, SECTIONS, sectionOf } from '#contract/queue.ts';
import {
  ACTION_REASONS,
  availableActions,
  linksOfferActions,
  statusGuidance,
  statusName,
} from '#contract/statuses.ts';
import { statusNotice } from '#main/features/webhooks/notify.ts';
import { ODD_STATUSES } from '../support/odd-statuses.ts';

// The interface document (sandbox default profile): the same links whatever the status, plus the action's own.
const DEFAULT_LINKS = ['self', 'receive', 'funding-sources', 'transfers', 'send'];
// Today's real service, by status (real-service.md).
const REAL_LINKS: Record<string, string[]> = {
  verified: ['self', 'send', 'receive', 'funding-sources', 'transfers'],
  retry: ['self', 'retry-verification', 'receive', 'funding-sources'],
  document: ['self', 'verify-with-document', 'document-form', 'receive'],
  kba: ['self', 'verify-with-kba', 'receive'],
  suspended: ['self', 'funding-sources'],
  deactivated: ['self'],
  unverified: ['self', 'send', 'receive', 'funding-sources'],
};

describe('statuses in plain words', () => {
  it('names every status the interface and the real service know, and an unknown one as it came', () => {
    expect(statusName('kba')).toBe('Knowledge-based questions');
    expect(statusName('unverified')).toBe('Unverified');
    expect(statusName('deactivated')).toBe('Deactivated');
    expect(statusName('retry')).toBe('Needs retry');
    expect(statusName('frozen')).toBe('frozen');
  });

  it('says what the reviewer can do: kba is the customer’s to answer, deactivated is read-only', () => {
    expect(statusGuidance('kba')).toMatch(
      /customer must answer knowledge-based questions.*nothing for you to submit/i,
    );
    expect(statusGuidance('deactivated')).toMatch(/read-only/i);
    expect(statusGuidance('unverified')).toMatch(/nothing for you to submit/i);
    expect(statusGuidance('document', 1)).toMatch(/waiting for the service’s review/);
    expect(statusGuidance('frozen')).toContain('“frozen”');
  });

  it('gives the new statuses sections of their own, titled in words, and keeps unknown ones in "other"', () => {
    for (const status of ['kba', 'unverified', 'deactivated'] as const) {
      expect(sectionOf(status)).toBe(status);
      expect(SECTIONS).toContain(status);
    }
    expect(SECTION_TITLES.kba).toBe('Knowledge-based questions');
    expect(sectionOf('frozen')).toBe('other');
  });

  it('labels the fields the service reports, and shows an unknown one by its name', () => {
    expect(reportedFieldLabel('postalCode')).toBe('Postal code');
    expect(reportedFieldLabel('favouriteBird')).toBe('favouriteBird');
    expect(reportedFieldLabel('constructor')).toBe('constructor');
  });
});

describe('actions follow the service’s links', () => {
  it('under the interface document, the status decides', () => {
    expect(linksOfferActions(DEFAULT_LINKS)).toBe(false);
    expect(availableActions('retry', DEFAULT_LINKS).retry).toEqual({ allowed: true, reason: null });
    expect(availableActions('document', DEFAULT_LINKS).upload).toEqual({ allowed: true, reason: null });
    expect(availableActions('verified', DEFAULT_LINKS).retry).toEqual({
      allowed: false,
      reason: ACTION_REASONS.retryByStatus,
    });
  });

  it('under the real service, each status offers what its links offer', () => {
    const table = Object.fromEntries(
      Object.entries(REAL_LINKS).map(([status, links]) => {
        const { retry, upload } = availableActions(status, links);
        return [status, { retry: retry.allowed, upload: upload.allowed }];
      }),
    );
    expect(table).toEqual({
      verified: { retry: false, upload: false },
      retry: { retry: true, upload: false },
      document: { retry: false, upload: true },
      kba: { retry: false, upload: false },
      suspended: { retry: false, upload: false },
      deactivated: { retry: false, upload: false },
      unverified: { retry: false, upload: false },
    });
    expect(availableActions('kba', REAL_LINKS.kba ?? []).retry.reason).toMatch(/knowledge-based questions/);
    expect(availableActions('deactivated', ['self']).upload.reason).toMatch(/read-only/);
  });

  it('says so when the status would allow an action the service does not offer', () => {
    // In `retry`, but the service gave no retry-verification link (and, as it does then, no `send`).
    expect(availableActions('retry', ['self', 'receive'])).toMatchObject({
      retry: { allowed: false, reason: ACTION_REASONS.retryNotOffered },
    });
    expect(availableActions('document', ['self', 'document-form']).upload.allowed).toBe(true);
    expect(availableActions('document', ['self', 'verify-with-kba']).upload).toEqual({
      allowed: false,
      reason: ACTION_REASONS.uploadNotOffered,
    });
  });

  it('falls back to the status when it has no links (a journal row from before they were kept)', () => {
    expect(availableActions('retry', null).retry.allowed).toBe(true);
    expect(availableActions('retry', []).retry.allowed).toBe(true);
    expect(availableActions('document', []).upload.allowed).toBe(true);
  });
});

describe('odd statuses', () => {
  it('never crash: each gets a section, a name, guidance, no action, and a notice in words', () => {
    for (const status of ODD_STATUSES) {
      const section = sectionOf(status, 3);
      expect(SECTIONS, JSON.stringify(status.slice(0, 20))).toContain(section);
      expect(section).not.toBe('drafts');
      expect(typeof statusName(status)).toBe('string');
      expect(typeof statusGuidance(status)).toBe('string');
      for (const links of [null, [], DEFAULT_LINKS, ['self', status]]) {
        const actions = availableActions(status, links);
        expect(actions.retry.allowed || actions.upload.allowed).toBe(false);
        expect(typeof actions.retry.reason).toBe('string');
      }
      const notice = statusNotice({ id: 'c-1', name: 'Jane Doe', status });
      expect(typeof notice.title).toBe('string');
    }
    expect(sectionOf('__proto__')).toBe('other');
    expect(statusName('constructor')).toBe('constructor');
  });
});
