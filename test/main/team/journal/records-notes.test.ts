import { describe, expect, it } from 'vitest';
import { personalCipher } from '#main/data/journal/personal.ts';
import { teamNotesRepository } from '#main/team/journal/notes.ts';
import { MINUTE, manualClock } from '#test/main/data/journal/helpers.ts';
import { contextOn, loginRole, teamStore } from './records-context.ts';

const SECRET_WORDS = 'passport photo shows a scar above the left eyebrow';

describe('notes on the team store', () => {
  it('keeps a customer’s notes with who and when, newest first, read by another desk with the team key', async () => {
    const time = manualClock();
    const { url, ctx, teamKey } = await teamStore(time.clock);
    const grace = await loginRole(url, ['INSERT, SELECT ON vetted.notes']);
    const asAdmin = teamNotesRepository({ ...ctx, cipher: personalCipher(teamKey) });
    const asGrace = teamNotesRepository(contextOn(grace.url, time.clock, teamKey).ctx);
    const first = await asAdmin.add({ customerId: 'c-1', text: 'Called the customer.' });
    time.advance(MINUTE);
    await asAdmin.add({ customerId: 'c-1', text: 'Asked for a better photo.\nWill check tomorrow.' });
    // The author is the login, not what the caller claims.
    const other = await asGrace.add({ customerId: 'c-2', text: 'Other case', author: 'ada' });
    expect(other.author).toBe(grace.name);

    expect(await asGrace.list('c-1')).toMatchObject([
      {
        text: 'Asked for a better photo.\nWill check tomorrow.',
        author: first.author,
        at: '2026-03-01T09:01:00.000Z',
      },
      { text: 'Called the customer.', author: first.author, at: '2026-03-01T09:00:00.000Z', seq: first.seq },
    ]);
    expect(await asGrace.list('c-1', { limit: 1 })).toHaveLength(1);
    expect(await asGrace.count('c-1')).toBe(2);
    expect(await asGrace.count('c-9')).toBe(0);
    const latest = await asGrace.latest(['c-1', 'c-2', 'c-3']);
    expect(Object.keys(latest).sort()).toEqual(['c-1', 'c-2']);
    expect(latest['c-1']?.text).toMatch(/^Asked/);
    expect(latest['c-2']).toEqual(other);
    expect(await asGrace.latest([])).toEqual({});
  });

  it('numbers each note from the change sequence, so desks copy it', async () => {
    const { ctx, pool } = await teamStore();
    const notes = teamNotesRepository(ctx);
    await pool.query(`SELECT nextval('vetted.change_seq')`);
    const note = await notes.add({ customerId: 'c-1', text: 'numbered' });
    expect(note.seq).toBe(2);
    expect(ctx.db.lastChange()).toBe(2);
  });

  it('stores the text sealed for its row: never in the table in plaintext, and useless in another row', async () => {
    const { ctx, pool, url } = await teamStore();
    const notes = teamNotesRepository(ctx);
    const note = await notes.add({ customerId: 'c-1', text: SECRET_WORDS });
    await notes.add({ customerId: 'c-1', text: 'second' });
    const { rows } = await pool.query<{ seq: string; body: string }>(
      'SELECT seq, body FROM vetted.notes ORDER BY seq',
    );
    expect(JSON.stringify(rows)).not.toContain('scar above');
    expect(ctx.cipher.open({ table: 'notes', id: String(note.seq), column: 'body' }, rows[0]!.body)).toBe(
      SECRET_WORDS,
    );
    // A body moved to another row does not open there: the AAD names the row.
    await pool.query('UPDATE vetted.notes SET body = $1 WHERE seq = $2', [rows[0]!.body, rows[1]!.seq]);
    await expect(notes.list('c-1')).rejects.toThrow(/Cannot decrypt body of notes/);
    // Nor with another team key.
    const stranger = teamNotesRepository(contextOn(url).ctx);
    await expect(stranger.latest(['c-1'])).rejects.toThrow(/another data key/);
  });

  it('refuses a note over 4,000 characters, counting characters rather than UTF-16 units', async () => {
    const notes = teamNotesRepository((await teamStore()).ctx);
    await expect(notes.add({ customerId: 'c-1', text: '😀'.repeat(4000) })).resolves.toMatchObject({
      customerId: 'c-1',
    });
    await expect(notes.add({ customerId: 'c-1', text: 'x'.repeat(4001) })).rejects.toThrow(/at most 4000/);
  });

  it('has no search of its own: the team journal searches notes in the desk’s replica', async () => {
    const notes = teamNotesRepository((await teamStore()).ctx);
    expect(Object.keys(notes).sort()).toEqual(['add', 'count', 'latest', 'list']);
  });
});
