/**
 * The rules an ID document must meet (service-facts.md §5), in one place for both sides: the
 * renderer checks a file the moment it is dropped, main checks it again before it is sent.
 * Pure: no Node, no DOM.
 */

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_PENDING_DOCUMENTS = 4;
/** Enough of a file's start to tell its image type. */
export const SNIFF_BYTES = 8;

/** The document types of a personal customer (`other` is for businesses). */
export const DOCUMENT_TYPES = ['passport', 'license', 'idCard'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const DOCUMENT_TYPE_LABELS: Record<DocumentType, string> = {
  passport: 'Passport',
  license: 'Driver’s license',
  idCard: 'State ID card',
};

/** A type the service reports, in words; one Vetted does not know, as it is. */
export function documentTypeLabel(type: string): string {
  return (DOCUMENT_TYPE_LABELS as Record<string, string>)[type] ?? type;
}

export type ImageType = 'image/jpeg' | 'image/png';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_START = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, prefix: readonly number[]) =>
  bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);

/** The image type by the file's first bytes, as the service decides it: the name says nothing. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, JPEG_START)) return 'image/jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  return null;
}

/** "512 bytes", "48.2 KB", "10.0 MB" (binary units, as the service's 10 MiB limit). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Why a document cannot be (or was not) uploaded, in words a reviewer acts on. The codes are the
 * service's where it has one, so a refusal reads the same whether Vetted or the service caught it.
 */
export const UPLOAD_PROBLEMS = {
  NoDocumentType: 'Choose what kind of document this is.',
  InvalidFileType:
    'This file is not a JPEG or PNG image, whatever its name says. Choose a photo saved as JPEG or PNG.',
  FileTooLarge: 'This file is larger than 10 MB, the most the service accepts. Choose a smaller photo.',
  MaxNumberOfResources: `This customer already has ${MAX_PENDING_DOCUMENTS} documents waiting for review. Wait for a review before uploading another.`,
  InvalidResourceState: 'This customer is no longer asked for a document, so the service will not take one.',
  ValidationError:
    'The service did not accept the document type. Choose Passport, Driver’s license or State ID card and try again.',
  UnsupportedRequestContentType:
    'The service refused the way Vetted sent this file (unsupported content type). That is a bug in Vetted, not a problem with the photo: the file is kept here so you can try again, and the log has the details.',
  UploadCancelled: 'Upload cancelled. The file is still here: upload it when you are ready.',
  UploadOutcomeUnknown:
    'The service could not be reached, or did not answer. Nothing is lost: try again. Vetted sends the same upload key again, so the document cannot be created twice.',
  UploadRefused: 'The service refused this upload.',
  UploadInProgress: 'This file is already being uploaded.',
} as const;
export type UploadProblemCode = keyof typeof UPLOAD_PROBLEMS;

export interface UploadProblem {
  code: UploadProblemCode;
  message: string;
}

const problem = (code: UploadProblemCode, message: string = UPLOAD_PROBLEMS[code]): UploadProblem => ({
  code,
  message,
});

/** A file's own problems: its type by content (from its first bytes) and its size. */
export function checkDocumentFile(file: { size: number; head: Uint8Array }): UploadProblem | null {
  if (sniffImageType(file.head) === null) return problem('InvalidFileType');
  if (file.size > MAX_DOCUMENT_BYTES) {
    return problem(
      'FileTooLarge',
      `This file is ${formatFileSize(file.size)} (${file.size.toLocaleString('en-US')} bytes): over the 10 MB (${MAX_DOCUMENT_BYTES.toLocaleString('en-US')} bytes) the service accepts. Choose a smaller photo.`,
    );
  }
  return null;
}

/** The service takes a document only from a customer in `document`. */
export function checkCustomerStatus(status: string): UploadProblem | null {
  return status === 'document'
    ? null
    : problem(
        'InvalidResourceState',
        `This customer is now “${status}” and no longer asked for a document, so the service will not take one.`,
      );
}

/** `pending`: documents waiting for review, those on the service and those on their way to it. */
export function checkPendingRoom(pending: number): UploadProblem | null {
  return pending >= MAX_PENDING_DOCUMENTS ? problem('MaxNumberOfResources') : null;
}

/** Failure reasons of a rejected document (service-facts.md §5, and the real service's others). */
const FAILURE_REASON_TEXTS: Record<string, string> = {
  scannotreadable: 'The photo could not be read',
  scanidexpired: 'The ID has expired',
  scannamemismatch: 'The name on the ID does not match the customer',
  scandobmismatch: 'The date of birth on the ID does not match the customer',
  scanidtypenotsupported: 'This type of ID is not accepted',
  scanidunrecognized: 'The ID was not recognised',
  scannotuploaded: 'No photo of the ID was received',
  scanfailedother: 'The ID was rejected for another reason',
};

/** A reason in plain words; a code Vetted does not know is shown as it is (codes compare case-blind). */
export function failureReasonText(code: string): string {
  return FAILURE_REASON_TEXTS[code.toLowerCase()] ?? code;
}

/** What the service says a rejected document failed on: its reason, else the first of its reasons. */
export interface RejectionReasons {
  failureReason?: string | undefined;
  allFailureReasons?: ReadonlyArray<{ reason: string }> | undefined;
}

/** A rejected document's reason in words; null when the service names none. */
export function rejectionReasonText(document: RejectionReasons): string | null {
  const code = document.failureReason ?? document.allFailureReasons?.[0]?.reason;
  return code ? failureReasonText(code) : null;
}
