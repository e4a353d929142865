import { describe, expect, it } from 'vitest';
import { fieldsOf, idempotencyKeyOf, sameSsn, ssnOf } from '#main/features/approvals/what-is-sent.ts';

describe('what an approval sends', () => {
  it('derives one stable UUID-shaped Idempotency-Key per approval', () => {
    const id = 'a7f3c0de-0000-4000-8000-000000000001';
    expect(idempotencyKeyOf(id)).toBe(idempotencyKeyOf(id));
    expect(idempotencyKeyOf(id)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(idempotencyKeyOf(id)).not.toBe(idempotencyKeyOf('a7f3c0de-0000-4000-8000-000000000002'));
  });

  it('shows a retry field by field, the SSN always masked', () => {
    const payload = JSON.stringify({ firstName: 'Ada', lastName: 'Byron', tin: '123-45-6789', address2: '' });
    expect(fieldsOf('retry', payload)).toEqual([
      { label: 'First name', value: 'Ada' },
      { label: 'Last name', value: 'Byron' },
      { label: 'SSN', value: '•••-••-6789' },
    ]);
    expect(JSON.stringify(fieldsOf('retry', payload))).not.toContain('123-45');
    expect(fieldsOf('retry', null)).toEqual([]);
  });

  it('compares an SSN typed from a document with the one a retry sends, however punctuated', () => {
    const payload = JSON.stringify({ firstName: 'Ada', lastName: 'Byron', tin: '123-45-6789' });
    expect(ssnOf('retry', payload)).toBe('123-45-6789');
    expect(ssnOf('retry', null)).toBeNull();
    expect(ssnOf('exportNames', JSON.stringify({ section: 'all' }))).toBeNull();
    expect(sameSsn('123-45-6789', '123456789')).toBe(true);
    expect(sameSsn('123-45-6789', '123-45-6780')).toBe(false);
  });

  it('shows an export’s section, search and reason', () => {
    const payload = JSON.stringify({ section: 'all', search: '', revealReason: 'monthly list' });
    expect(fieldsOf('exportNames', payload)).toEqual([
      { label: 'Section', value: 'all' },
      { label: 'Search', value: '(none)' },
      { label: 'Reason', value: 'monthly list' },
    ]);
  });
});
