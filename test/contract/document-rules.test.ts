import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkCustomerStatus,
  checkDocumentFile,
  checkPendingRoom,
  DOCUMENT_TYPE_LABELS,
  documentTypeLabel,
  failureReasonText,
  formatFileSize,
  MAX_DOCUMENT_BYTES,
  SNIFF_BYTES,
  sniffImageType,
} from '#contract/document-rules.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);
const sample = (name: string) =>
  new Uint8Array(readFileSync(path.join(import.meta.dirname, '../../assets/sandbox-ids', name)));

// The first bytes of real files, as cameras and editors write them.
const JFIF = bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00);
const EXIF = bytes(0xff, 0xd8, 0xff, 0xe1, 0x1c, 0x45, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00);
const PNG = bytes(
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0x00,
  0x00,
  0x00,
  0x0d,
  0x49,
  0x48,
  0x44,
  0x52,
);

describe('sniffImageType', () => {
  it('knows JPEG (JFIF and Exif) and PNG by their first bytes', () => {
    expect(sniffImageType(JFIF)).toBe('image/jpeg');
    expect(sniffImageType(EXIF)).toBe('image/jpeg');
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(sample('passport.png'))).toBe('image/png');
  });

  it('needs no more than SNIFF_BYTES of the file', () => {
    expect(sniffImageType(PNG.subarray(0, SNIFF_BYTES))).toBe('image/png');
    expect(sniffImageType(JFIF.subarray(0, SNIFF_BYTES))).toBe('image/jpeg');
  });

  it('refuses whatever else a file named .png or .jpg may hold', () => {
    expect(sniffImageType(text('just some notes\n'))).toBeNull(); // a .txt renamed .png
    expect(sniffImageType(text('%PDF-1.7\n'))).toBeNull();
    expect(sniffImageType(text('GIF89a\u0001\u0000'))).toBeNull();
    expect(sniffImageType(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBeNull();
    expect(sniffImageType(text('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(bytes())).toBeNull();
  });

  it('refuses a file cut short inside the signature', () => {
    expect(sniffImageType(PNG.subarray(0, 7))).toBeNull();
    expect(sniffImageType(JFIF.subarray(0, 2))).toBeNull();
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b))).toBeNull();
  });
});

describe('checkDocumentFile', () => {
  it('takes a file of exactly 10 MiB and refuses one byte more, saying how large it is', () => {
    expect(MAX_DOCUMENT_BYTES).toBe(10 * 1024 * 1024);
    expect(checkDocumentFile({ size: MAX_DOCUMENT_BYTES, head: PNG })).toBeNull();
    const over = checkDocumentFile({ size: MAX_DOCUMENT_BYTES + 1, head: PNG });
    expect(over).toMatchObject({ code: 'FileTooLarge' });
    expect(over?.message).toContain('10,485,761 bytes');
  });

  it('refuses a non-image by its content before looking at its size', () => {
    expect(checkDocumentFile({ size: 12, head: text('hello world!') })).toMatchObject({
      code: 'InvalidFileType',
      message: expect.stringMatching(/not a JPEG or PNG/),
    });
    expect(checkDocumentFile({ size: 0, head: bytes() })).toMatchObject({ code: 'InvalidFileType' });
  });
});

describe('customer checks', () => {
  it('allows up to 4 pending documents, counting those on their way', () => {
    expect(checkPendingRoom(3)).toBeNull();
    expect(checkPendingRoom(4)).toMatchObject({ code: 'MaxNumberOfResources' });
  });

  it('allows uploads only in `document`, naming the status otherwise', () => {
    expect(checkCustomerStatus('document')).toBeNull();
    expect(checkCustomerStatus('verified')).toMatchObject({
      code: 'InvalidResourceState',
      message: expect.stringContaining('“verified”'),
    });
  });
});

describe('words for codes', () => {
  it('names every failure reason of the service in plain words, case-blind; unknown ones as they are', () => {
    const reasons = [
      'ScanNotReadable',
      'ScanIdExpired',
      'ScanNameMismatch',
      'ScanDobMismatch',
      'ScanIdTypeNotSupported',
    ];
    for (const reason of reasons) expect(failureReasonText(reason)).not.toBe(reason);
    expect(failureReasonText('ScanNotReadable')).toBe('The photo could not be read');
    expect(failureReasonText('scannotreadable')).toBe('The photo could not be read');
    expect(failureReasonText('ScanSomethingNew')).toBe('ScanSomethingNew');
  });

  it('labels the document types, and passes an unknown one through', () => {
    expect(DOCUMENT_TYPE_LABELS).toEqual({
      passport: 'Passport',
      license: 'Driver’s license',
      idCard: 'State ID card',
    });
    expect(documentTypeLabel('other')).toBe('other');
  });

  it('writes sizes for people', () => {
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(512)).toBe('512 bytes');
    expect(formatFileSize(2731)).toBe('2.7 KB');
    expect(formatFileSize(MAX_DOCUMENT_BYTES)).toBe('10.0 MB');
  });
});
