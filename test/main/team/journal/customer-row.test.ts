import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JournalError } from '#main/data/journal/errors.ts';
import { customerPlace, personalCipher } from '#main/data/journal/personal.ts';
import { openPersonal, openReported } from '#main/team/journal/customer-row.ts';

// What a damaged (or foreign) sealed column opens to is personal data: the error names where, never what.
describe('a sealed JSON column of the team store that is not what Vetted wrote', () => {
  const cipher = personalCipher(randomBytes(32));
  const secret = 'Ada Lovelace 123-45-6789';

  it('is refused, naming table and column, when it is not JSON at all (JSON.parse quotes its input)', () => {
    const token = cipher.seal(customerPlace('c-1', 'personal'), `{"address": ${secret}`);
    const opening = () => openPersonal(cipher, 'c-1', token);
    expect(opening).toThrow(JournalError);
    expect(opening).toThrow(/personal of customers c-1/);
    expect(opening).not.toThrow(/Ada|6789/);
  });

  it('is refused without quoting a value when its JSON has the wrong form', () => {
    const token = cipher.seal(customerPlace('c-2', 'reported'), JSON.stringify([secret]));
    const opening = () => openReported(cipher, 'c-2', token);
    expect(opening).toThrow(JournalError);
    expect(opening).toThrow(/reported of customers c-2/);
    expect(opening).not.toThrow(/Ada/);
  });

  it('opens what Vetted sealed', () => {
    const token = cipher.seal(customerPlace('c-3', 'reported'), JSON.stringify({ risk: 'low' }));
    expect(openReported(cipher, 'c-3', token)).toEqual({ risk: 'low' });
  });
});
