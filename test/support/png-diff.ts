// A small pixel diff for page images: decodes the 8-bit, non-interlaced grey or RGB PNGs pdftoppm writes
// (with node:zlib, no library) and counts the pixels that differ by more than a little.
import { inflateSync } from 'node:zlib';

export interface Image {
  width: number;
  height: number;
  /** Bytes per pixel: 1 (grey) or 3 (RGB). */
  channels: number;
  pixels: Buffer;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function unfilter(data: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const type = data[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const raw = data[y * (stride + 1) + 1 + x]!;
      const a = x >= bpp ? out[y * stride + x - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp]! : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][type];
      if (predictor === undefined) throw new Error(`PNG filter ${type} unknown`);
      out[y * stride + x] = (raw + predictor) & 0xff;
    }
  }
  return out;
}

export function decodePng(file: Buffer): Image {
  let offset = 8;
  let header: { width: number; height: number; channels: number } | undefined;
  const data: Buffer[] = [];
  while (offset < file.length) {
    const length = file.readUInt32BE(offset);
    const type = file.toString('latin1', offset + 4, offset + 8);
    const body = file.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      const channels = CHANNELS[body[9]!];
      if (body[8] !== 8 || channels === undefined || body[12] !== 0) throw new Error('PNG kind not handled');
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), channels };
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  if (!header) throw new Error('Not a PNG');
  const pixels = unfilter(inflateSync(Buffer.concat(data)), header.width, header.height, header.channels);
  return { ...header, pixels };
}

/** The share of samples (0–1) that differ by more than `tolerance`; 1 when the sizes differ. */
export function differingShare(a: Image, b: Image, tolerance = 48): number {
  if (a.width !== b.width || a.height !== b.height || a.channels !== b.channels) return 1;
  let differing = 0;
  for (let i = 0; i < a.pixels.length; i++) {
    if (Math.abs(a.pixels[i]! - b.pixels[i]!) > tolerance) differing++;
  }
  return differing / a.pixels.length;
}
