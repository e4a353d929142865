const REVOKE_AFTER_MS = 60_000;

/**
 * Hands a file made in main to the reviewer as a download. A Blob URL keeps the file in this page (the
 * CSP allows `blob:`); in browser mode it is the browser's download, under Electron its save dialog.
 */
export function downloadFile({
  fileName,
  mimeType,
  content,
  encoding,
}: {
  fileName: string;
  mimeType: string;
  content: string;
  /** A binary file (the case file's PDF) comes as base64 text. */
  encoding?: 'base64';
}): void {
  const body = encoding === 'base64' ? Uint8Array.from(atob(content), (char) => char.charCodeAt(0)) : content;
  const url = URL.createObjectURL(new Blob([body], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The browser reads the Blob after the click returns; revoking at once can cut the download short.
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
