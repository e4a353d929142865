import { describe, expect, it } from 'vitest';
import { planSearch } from '#main/data/journal/search.ts';

describe('planning a queue search', () => {
  it('is no search for blank text', async () => {
    expect(planSearch('')).toBeUndefined();
    expect(planSearch('  \t ')).toBeUndefined();
  });

  it('sends words of 3+ characters to the trigram index, quoted literally, all required', async () => {
    expect(planSearch(' Ada  "Love" ')).toEqual({
      fragments: '"Ada" AND """Love"""',
      customerPatterns: [],
      draftPatterns: ['%Ada%', '%"Love"%'],
    });
  });

  it('checks short words beside long ones as escaped LIKE fragments', async () => {
    expect(planSearch('lovelace a_')).toEqual({
      fragments: '"lovelace"',
      customerPatterns: ['%a\\_%'],
      draftPatterns: ['%lovelace%', '%a\\_%'],
    });
  });

  it('matches the start of a name or e-mail when every word is short', async () => {
    expect(planSearch('jo d')).toEqual({
      prefix: { from: 'jo d', to: 'jo d\u{10FFFF}' },
      customerPatterns: [],
      draftPatterns: ['jo d%'],
    });
    expect(planSearch('%')?.draftPatterns).toEqual(['\\%%']);
  });
});
