import { checkDocumentFile, SNIFF_BYTES, type UploadProblem } from '#contract/document-rules.ts';

/**
 * What the renderer learns of a dropped file before any upload: its own problems (type by its
 * first bytes, size), read without loading the whole file.
 */
export async function inspectFile(file: Blob): Promise<UploadProblem | null> {
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  return checkDocumentFile({ size: file.size, head });
}

/** The file's bytes as base64, as the contract carries them (the browser's own encoder, not a JS loop). */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const dataUrl = String(reader.result);
      resolve(dataUrl.slice(dataUrl.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}
