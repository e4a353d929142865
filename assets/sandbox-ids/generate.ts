/**
 * Draws the sandbox's sample ID photos and writes them beside this file:
 *   node assets/sandbox-ids/generate.ts
 * Node only (PNG written with zlib), and deterministic: the same images every run, so that
 * test/assets/sandbox-ids.test.ts can tell when the committed ones drift from this script.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';

type Rgb = readonly [number, number, number];

const WIDTH = 340;
const HEIGHT = 216; // an ID-1 card's proportions (85.6 × 54 mm)

/** An RGB raster with the few shapes a specimen card needs. */
class Raster {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;

  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
    this.data = new Uint8Array(width * height * 3);
  }

  set(x: number, y: number, [r, g, b]: Rgb): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 3;
    this.data[i] = r;
    this.data[i + 1] = g;
    this.data[i + 2] = b;
  }

  rect(x: number, y: number, w: number, h: number, colour: Rgb): void {
    for (let row = y; row < y + h; row++) for (let col = x; col < x + w; col++) this.set(col, row, colour);
  }

  ellipse(cx: number, cy: number, rx: number, ry: number, colour: Rgb): void {
    for (let y = Math.floor(cy - ry); y <= cy + ry; y++) {
      for (let x = Math.floor(cx - rx); x <= cx + rx; x++) {
        if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1) this.set(x, y, colour);
      }
    }
  }

  /** Capitals, digits and `<` in a 5×7 font, each dot `scale` pixels wide. */
  text(x: number, y: number, words: string, colour: Rgb, scale = 1): void {
    let left = x;
    for (const char of words) {
      const rows = GLYPHS[char];
      if (rows) {
        rows.forEach((bits, row) => {
          for (let col = 0; col < 5; col++) {
            if (bits & (0b10000 >> col)) this.rect(left + col * scale, y + row * scale, scale, scale, colour);
          }
        });
      }
      left += 6 * scale;
    }
  }

  /** A box blur, `passes` times over: how a shaky hand photographs a card. */
  blur(radius: number, passes: number): void {
    for (let pass = 0; pass < passes; pass++) {
      this.#blurLine(this.width, this.height, (a, b) => (b * this.width + a) * 3, radius);
      this.#blurLine(this.height, this.width, (a, b) => (a * this.width + b) * 3, radius);
    }
  }

  #blurLine(length: number, lines: number, at: (along: number, line: number) => number, radius: number) {
    const copy = new Uint8Array(length * 3);
    for (let line = 0; line < lines; line++) {
      for (let i = 0; i < length; i++) copy.set(this.data.subarray(at(i, line), at(i, line) + 3), i * 3);
      for (let i = 0; i < length; i++) {
        const from = Math.max(0, i - radius);
        const to = Math.min(length - 1, i + radius);
        for (let channel = 0; channel < 3; channel++) {
          let sum = 0;
          for (let j = from; j <= to; j++) sum += copy[j * 3 + channel]!;
          this.data[at(i, line) + channel] = Math.round(sum / (to - from + 1));
        }
      }
    }
  }
}

// 5×7 glyphs, one number per row, high bit on the left.
const GLYPHS: Record<string, readonly number[]> = {
  ' ': [0, 0, 0, 0, 0, 0, 0],
  '<': [2, 4, 8, 16, 8, 4, 2],
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  A: [14, 17, 17, 31, 17, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [28, 18, 17, 17, 17, 18, 28],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  I: [14, 4, 4, 4, 4, 4, 14],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 10, 4, 4, 4, 4],
};

const INK: Rgb = [30, 41, 59];
const PAPER: Rgb = [236, 240, 232];
const BAND: Rgb = [30, 64, 120];

/** A passport-like specimen card: band, photo, fields, and the two machine-readable lines. */
function specimenCard(options: { label: string; skin: Rgb; stamp?: string }): Raster {
  const card = new Raster(WIDTH, HEIGHT);
  card.rect(0, 0, WIDTH, HEIGHT, PAPER);
  // Fine guilloche-like lines, as on real documents, kept sparse so the PNG stays small.
  for (let y = 44; y < 160; y += 6) card.rect(120, y, 210, 1, [222, 228, 216]);
  card.rect(0, 0, WIDTH, 34, BAND);
  card.text(12, 10, 'PASSPORT', [255, 255, 255], 2);
  card.text(236, 13, 'SANDBOX', [250, 204, 21]);
  // Photo: a head and shoulders on a pale ground.
  card.rect(14, 46, 92, 116, [203, 213, 225]);
  card.ellipse(60, 162, 40, 32, [71, 85, 105]);
  card.ellipse(60, 92, 22, 28, options.skin);
  // Fields: a label in capitals and a bar for its value.
  const fields = ['SURNAME', 'NAME', 'DOB', 'EXPIRES'];
  fields.forEach((field, i) => {
    card.text(124, 48 + i * 26, field, [100, 116, 139]);
    card.rect(124, 58 + i * 26, 120 - i * 14, 6, INK);
  });
  card.text(124, 152, options.label, [185, 28, 28]);
  // Machine-readable zone.
  card.rect(0, 172, WIDTH, 44, [248, 250, 252]);
  card.text(10, 180, 'P<UTOSPECIMEN<<SAMPLE<<<<<<<<<<<<<<<<<<<<<<<<<', INK);
  card.text(10, 196, '0000000000UTO9001010F3001012<<<<<<<<<<<<<<<00', INK);
  if (options.stamp) card.text(150, 110, options.stamp, [185, 28, 28], 3);
  return card;
}

// ---- PNG ----------------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.byteLength, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
}

/** 8-bit RGB, every row filtered with `Up` (small for flat, vertical-banded drawings like these). */
export function encodePng(raster: Raster): Buffer {
  const stride = raster.width * 3;
  const rows = Buffer.alloc((stride + 1) * raster.height);
  for (let y = 0; y < raster.height; y++) {
    const out = y * (stride + 1);
    rows[out] = 2; // Up
    for (let x = 0; x < stride; x++) {
      const above = y > 0 ? raster.data[(y - 1) * stride + x]! : 0;
      rows[out + 1 + x] = (raster.data[y * stride + x]! - above) & 0xff;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(raster.width, 0);
  header.writeUInt32BE(raster.height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

// ---- The samples --------------------------------------------------------------------------------

/** The sandbox reviews by file name: `fail` is rejected, `fraud` suspends the customer, else accepted. */
export function sampleImages(): { fileName: string; bytes: Buffer }[] {
  const blurry = specimenCard({ label: 'SPECIMEN', skin: [214, 170, 140] });
  blurry.blur(3, 3);
  return [
    {
      fileName: 'passport.png',
      bytes: encodePng(specimenCard({ label: 'SPECIMEN', skin: [214, 170, 140] })),
    },
    { fileName: 'passport-blurry-fail.png', bytes: encodePng(blurry) },
    {
      fileName: 'passport-fraud.png',
      bytes: encodePng(specimenCard({ label: 'ALTERED', skin: [150, 110, 90], stamp: 'VOID' })),
    },
  ];
}

if (import.meta.main) {
  for (const { fileName, bytes } of sampleImages()) {
    writeFileSync(path.join(import.meta.dirname, fileName), bytes);
    console.info(`${fileName}: ${bytes.byteLength} bytes`);
  }
}
