// The audit chain's hashes and seals (main/data/journal/audit-chain.ts) and its checker (audit-verify.ts), on
// chains built here. The expected values were computed apart from this code (Python's hashlib and hmac, HKDF
// by RFC 5869), so the form docs/team-admin.md describes is the one written.
import { describe, expect, it } from 'vitest';
import {
  type AuditContent,
  auditSealer,
  canonicalContent,
  chainHash,
  contentHash,
  GENESIS_HASH,
  linkAfter,
} from '#main/data/journal/audit-chain.ts';
import { AuditChainError, type ChainCheckOptions, chainChecker } from '#main/data/journal/audit-verify.ts';
import type { LinkedAuditEntry } from '#main/data/journal/repositories/audit.ts';
import { createFieldKey } from '#main/ground/crypto.ts';

const VECTOR: AuditContent = {
  seq: 7,
  at: '2026-03-01T09:00:00.000Z',
  actor: 'zoë',
  action: 'note.add',
  customerId: 'c-1',
  outcome: 'ok',
  detail: null,
};
const VECTOR_KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i));

describe('the audit chain’s hashes and seal', () => {
  it('hashes an entry’s content in its exact, versioned form: netstrings of UTF-8, a null as "-,"', () => {
    expect(canonicalContent(VECTOR).toString('utf8')).toBe(
      '14:vetted-audit/1,1:7,24:2026-03-01T09:00:00.000Z,4:zoë,8:note.add,3:c-1,2:ok,-,',
    );
    expect(contentHash(VECTOR)).toBe('88a3585a4bfbf1c2062eed83ff3a06d82df0874111c2345a170b6cef77b54a36');
    expect(chainHash(GENESIS_HASH, contentHash(VECTOR))).toBe(
      '02a9c27d2cd6816bd6f13b8df3df32a09112ff1f8ad8009344907ba5182db683',
    );
  });

  it('seals with HMAC-SHA256 under a key derived from the data key by HKDF, with a label of its own', () => {
    const sealer = auditSealer(VECTOR_KEY);
    const link = linkAfter(GENESIS_HASH, VECTOR, sealer);
    expect(link).toEqual({
      version: 1,
      prevHash: GENESIS_HASH,
      contentHash: '88a3585a4bfbf1c2062eed83ff3a06d82df0874111c2345a170b6cef77b54a36',
      chainHash: '02a9c27d2cd6816bd6f13b8df3df32a09112ff1f8ad8009344907ba5182db683',
      seal: '029cbd49a0f68a2eee1fa13bd2b4fdd2844975c14a8ad476ccb2ac6a48806682',
    });
    expect(sealer.keyCheck).toBe('eebccb0b6b9ac650fc4aa9b232370928be141dacfef157395842720757e08216');
    expect(sealer.holds(link.chainHash, link.seal)).toBe(true);
    const other = auditSealer(createFieldKey());
    expect(other.holds(link.chainHash, link.seal)).toBe(false);
    expect(other.keyCheck).not.toBe(sealer.keyCheck);
    expect(sealer.holds(link.chainHash, 'not a seal')).toBe(false);
  });

  it('changes the content hash with any field, a null told apart from an empty text', () => {
    const base = contentHash(VECTOR);
    const changes: Partial<AuditContent>[] = [
      { seq: 8 },
      { at: '2026-03-01T09:00:00.001Z' },
      { actor: 'zoe' },
      { action: 'note.ad' },
      { customerId: null },
      { customerId: 'c-1 ' },
      { outcome: 'OK' },
      { detail: '' },
      // A field's end cannot move into the next one: lengths are part of the form.
      { action: 'note.addc', customerId: '-1' },
    ];
    const hashes = changes.map((change) => contentHash({ ...VECTOR, ...change }));
    expect(new Set([base, ...hashes]).size).toBe(changes.length + 1);
  });

  it('refuses a data key that is not 32 bytes, and a hash that is not 64 hex digits', () => {
    expect(() => auditSealer(Buffer.alloc(16))).toThrow(TypeError);
    expect(() => chainHash('00', GENESIS_HASH)).toThrow(/64 lower-case hex/);
  });
});

const key = createFieldKey();
const sealer = auditSealer(key);

/** A sealed chain of `n` entries, seq 1…n. */
function chainOf(n: number, by = sealer): LinkedAuditEntry[] {
  const entries: LinkedAuditEntry[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const entry = { ...VECTOR, seq, detail: `entry ${seq}` };
    const link = linkAfter(prev, entry, by);
    entries.push({ ...entry, link });
    prev = link.chainHash;
  }
  return entries;
}

/** Re-links every entry from `from` on, as someone who can write the table but holds another key would. */
function relinked(entries: LinkedAuditEntry[], from: number, by = auditSealer(createFieldKey())) {
  const out = entries.slice(0, from);
  let prev = from === 0 ? GENESIS_HASH : out[from - 1]!.link.chainHash;
  for (const { link: _, ...entry } of entries.slice(from)) {
    const link = linkAfter(prev, entry, by);
    out.push({ ...entry, link });
    prev = link.chainHash;
  }
  return out;
}

const headOf = (entries: LinkedAuditEntry[]) => {
  const last = entries[entries.length - 1];
  return last ? { seq: last.seq, chainHash: last.link.chainHash } : { seq: 0, chainHash: GENESIS_HASH };
};

/** The checker's verdict: the summary, or the first problem's seq and words. */
function check(
  entries: LinkedAuditEntry[],
  head = headOf(entries),
  options: ChainCheckOptions = { sealer, whole: true },
) {
  const checker = chainChecker(options);
  try {
    for (const entry of entries) checker.add(entry);
    return checker.finish(head);
  } catch (error) {
    if (!(error instanceof AuditChainError)) throw error;
    return { seq: error.seq, problem: error.message };
  }
}

describe('checking a chain', () => {
  it('holds for a chain as written, sealed or not checked for seals, and for an empty log', () => {
    const entries = chainOf(5);
    expect(check(entries)).toEqual({ entries: 5, last: headOf(entries), sealed: true });
    expect(check(entries, headOf(entries), { whole: true })).toMatchObject({ entries: 5, sealed: false });
    expect(check([])).toEqual({ entries: 0, last: null, sealed: true });
  });

  it('names an entry whose content was changed', () => {
    const entries = chainOf(5);
    entries[2] = { ...entries[2]!, detail: 'forged' };
    expect(check(entries)).toEqual({
      seq: 3,
      problem: 'entry 3 was changed: its content is not what was hashed when it was written',
    });
  });

  it('names where an entry was removed, and the chain’s first entry missing', () => {
    const entries = chainOf(5);
    expect(check([...entries.slice(0, 2), ...entries.slice(3)])).toEqual({
      seq: 4,
      problem:
        'entry 4 does not follow entry 2 (entry 3 missing): an entry between them was removed, or the entries were reordered',
    });
    expect(check(entries.slice(1))).toMatchObject({
      seq: 2,
      problem: expect.stringMatching(/not the chain's first/),
    });
  });

  it('names entries out of order', () => {
    const entries = chainOf(5);
    const swapped = [entries[0]!, entries[2]!, entries[1]!, entries[3]!, entries[4]!];
    expect(check(swapped)).toMatchObject({
      seq: 3,
      problem: expect.stringMatching(/does not follow entry 1/),
    });
    const reordered = [entries[0]!, entries[1]!, entries[3]!, entries[2]!, entries[4]!];
    expect(check(reordered)).toMatchObject({
      seq: 4,
      problem: expect.stringMatching(/does not follow entry 2/),
    });
    expect(check(reordered, headOf(entries), { whole: false, sealer })).toEqual({
      seq: 3,
      problem: 'entry 3 comes after entry 4: the entries were reordered',
    });
  });

  it('finds a change whose whole chain after it was recomputed without the key, by its seal', () => {
    const entries = chainOf(6);
    entries[3] = { ...entries[3]!, detail: 'forged' };
    const forged = relinked(entries, 3);
    // The plain chain holds: only the seals tell.
    expect(check(forged, headOf(forged), { whole: true })).toMatchObject({ entries: 6 });
    expect(check(forged, headOf(forged))).toEqual({
      seq: 4,
      problem:
        "entry 4 does not carry the audit key's seal: it was changed or removed, and the chain recomputed by someone without the key",
    });
  });

  it('finds a removal whose chain after it was recomputed without the key, naming the missing entry', () => {
    const entries = chainOf(6);
    const forged = relinked([...entries.slice(0, 2), ...entries.slice(3)], 2);
    expect(check(forged, headOf(forged))).toMatchObject({
      seq: 4,
      problem: expect.stringMatching(
        /^entry 4 does not carry the audit key's seal: it, or entry 3 was changed/,
      ),
    });
  });

  it('names entries cut off the end when the head still names them, and a head that names another entry', () => {
    const entries = chainOf(6);
    expect(check(entries.slice(0, 4), headOf(entries))).toEqual({
      seq: 6,
      problem: 'the log ends at entry 4 but its head is entry 6: entries 5–6 were removed',
    });
    expect(check(entries, headOf(entries.slice(0, 5)))).toMatchObject({
      seq: 5,
      problem: expect.stringMatching(/head names entry 5, not its last entry \(6\)/),
    });
  });

  it('finds the end cut off and the head moved back, against a head noted before', () => {
    const entries = chainOf(6);
    const noted = headOf(entries);
    const cut = entries.slice(0, 4);
    expect(check(cut, headOf(cut))).toMatchObject({ entries: 4 });
    expect(check(cut, headOf(cut), { sealer, whole: true, holds: noted })).toEqual({
      seq: 6,
      problem: 'entry 6, noted before, is no longer in the chain: entries were removed from its end',
    });
    expect(check(entries, noted, { sealer, whole: true, holds: noted })).toMatchObject({ entries: 6 });
  });

  it('checks a filtered list entry by entry, and the links of entries listed one after the other', () => {
    const entries = chainOf(8);
    const filtered = [entries[1]!, entries[4]!, entries[5]!];
    const options = { sealer, whole: false };
    expect(check(filtered, headOf(entries), options)).toMatchObject({ entries: 3 });
    const relinkedSixth = {
      ...entries[5]!,
      link: { ...entries[5]!.link, prevHash: entries[3]!.link.chainHash },
    };
    expect(check([entries[1]!, entries[4]!, relinkedSixth], headOf(entries), options)).toMatchObject({
      seq: 6,
      problem: expect.stringMatching(/does not follow entry 5/),
    });
    const forged = { ...entries[4]!, outcome: 'failed' };
    expect(check([entries[1]!, forged], headOf(entries), options)).toMatchObject({
      seq: 5,
      problem: expect.stringMatching(/entry 5 was changed/),
    });
  });
});
