import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sniffImageType } from '#contract/document-rules.ts';
import { sampleImages } from '../../assets/sandbox-ids/generate.ts';

const dir = path.join(import.meta.dirname, '../../assets/sandbox-ids');

/** Header and pixels of a PNG: what the image is, whatever zlib version compressed it. */
function decoded(png: Buffer): { header: Buffer; pixels: Buffer } {
  const header: Buffer[] = [];
  const data: Buffer[] = [];
  for (let at = 8; at < png.byteLength; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') header.push(body);
    if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  return { header: Buffer.concat(header), pixels: inflateSync(Buffer.concat(data)) };
}

describe('sandbox sample IDs', () => {
  it('are committed as the generator draws them: small PNGs named for each review outcome', () => {
    const samples = sampleImages();
    expect(samples.map((sample) => sample.fileName)).toEqual([
      'passport.png',
      'passport-blurry-fail.png',
      'passport-fraud.png',
    ]);
    for (const { fileName, bytes } of samples) {
      const committed = readFileSync(path.join(dir, fileName));
      expect(decoded(committed), `${fileName} differs: run node assets/sandbox-ids/generate.ts`).toEqual(
        decoded(bytes),
      );
      expect(committed.byteLength).toBeLessThan(50 * 1024);
      expect(sniffImageType(committed)).toBe('image/png');
    }
  });
});
