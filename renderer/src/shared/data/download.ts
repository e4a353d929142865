const REVOKE_AFTER_MS = 60_000;

/**
 * Hands a file made in main to the reviewer as a download. A Blob URL keeps the file in this page (the
 * CSP allows `blob:`); in browser mode it is the browser's download, under Electron its save dialog.
 */
export function downloadFile({
  fileName,
  mimeType,
  content,
}: {
  fileName: string;
  mimeType: string;
  content: string;
}): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // The browser reads the Blob after the click returns; revoking at once can cut the download short.
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
