import { describe, expect, it } from 'vitest';
import { DeskError } from '#contract/errors.ts';
import { NetworkError, ServiceError } from '#main/data/service/index.ts';
import { toCustomerDocument } from '#main/features/customers/documents.ts';
import { uploadFailure } from '#main/features/customers/upload-failure.ts';

const refusal = (status: number, code: string, path?: string) =>
  new ServiceError({
    status,
    code,
    message: `The service said ${code}.`,
    ...(path ? { fields: [{ path, code: 'Invalid', message: 'Invalid.' }] } : {}),
  });

describe('uploadFailure: every refusal of service-facts.md §5 in words', () => {
  it.each([
    [413, 'FileTooLarge', /larger than 10 MB/],
    [400, 'InvalidFileType', /not a JPEG or PNG/],
    [400, 'MaxNumberOfResources', /4 documents waiting for review/],
    [403, 'InvalidResourceState', /no longer asked for a document/],
    [415, 'UnsupportedRequestContentType', /bug in Vetted.*kept here/],
  ])('%i %s', (status, code, words) => {
    const failure = uploadFailure(refusal(status, code), false);
    expect(failure).toBeInstanceOf(DeskError);
    expect(failure).toMatchObject({ code, message: expect.stringMatching(words) });
  });

  it('compares codes case-blind, as the real service mixes cases', () => {
    expect(uploadFailure(refusal(413, 'fileTooLarge'), false)?.code).toBe('FileTooLarge');
  });

  it('tells a refused document type from another validation error (a reused key, say)', () => {
    expect(uploadFailure(refusal(400, 'ValidationError', '/documentType'), false)).toMatchObject({
      code: 'ValidationError',
      message: expect.stringMatching(/document type/),
    });
    expect(uploadFailure(refusal(400, 'ValidationError', '/'), false)).toMatchObject({
      code: 'UploadRefused',
      message: expect.stringContaining('The service said ValidationError.'),
    });
  });

  it('calls a lost connection or a server error an unknown outcome, to retry with the same key', () => {
    expect(uploadFailure(new NetworkError('reset'), false)?.code).toBe('UploadOutcomeUnknown');
    expect(uploadFailure(refusal(503, 'ServerError'), false)?.code).toBe('UploadOutcomeUnknown');
  });

  it('calls anything that ended after a cancel a cancel', () => {
    expect(uploadFailure(new NetworkError('aborted'), true)?.code).toBe('UploadCancelled');
    expect(uploadFailure(new DOMException('aborted', 'AbortError'), true)?.code).toBe('UploadCancelled');
  });

  it('leaves other failures to the desk (an expired login, a bug)', () => {
    expect(uploadFailure(refusal(401, 'InvalidCredentials'), false)).toBeUndefined();
    expect(uploadFailure(new TypeError('oops'), false)).toBeUndefined();
  });
});

describe('toCustomerDocument', () => {
  const base = {
    _links: { self: { href: 'https://service.test/documents/d1' } },
    id: 'd1',
    type: 'passport',
    created: '2026-11-22T10:00:00.000Z',
  };

  it('gives each failure reason its words and keeps the code and the service’s description', () => {
    const document = toCustomerDocument({
      ...base,
      status: 'reviewed',
      documentVerificationStatus: 'rejected',
      failureReason: 'ScanDobMismatch',
      allFailureReasons: [
        { reason: 'ScanDobMismatch', description: 'DOB mismatch.' },
        { reason: 'ScanBrandNew', description: 'Something new.' },
      ],
    });
    expect(document).toEqual({
      id: 'd1',
      url: 'https://service.test/documents/d1',
      type: 'passport',
      uploadedAt: base.created,
      review: 'rejected',
      reasons: [
        {
          code: 'ScanDobMismatch',
          text: 'The date of birth on the ID does not match the customer',
          description: 'DOB mismatch.',
        },
        { code: 'ScanBrandNew', text: 'ScanBrandNew', description: 'Something new.' },
      ],
    });
  });

  it('reads a document without a verification status by its review status', () => {
    expect(toCustomerDocument({ ...base, status: 'pending' })).toMatchObject({
      review: 'pending',
      reasons: [],
    });
    expect(
      toCustomerDocument({ ...base, status: 'reviewed', failureReason: 'ScanIdExpired' }).reasons,
    ).toEqual([{ code: 'ScanIdExpired', text: 'The ID has expired', description: null }]);
  });
});
