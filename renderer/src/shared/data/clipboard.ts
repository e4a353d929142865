/**
 * Copies text for the reviewer. The Clipboard API first (secure contexts: app:// and 127.0.0.1 are);
 * where it is refused (no permission, the page not focused), the older copy command on a hidden field.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Fall through to the copy command.
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  const returnFocus = document.activeElement;
  document.body.append(field);
  field.select();
  const copied = document.execCommand('copy');
  field.remove();
  if (returnFocus instanceof HTMLElement) returnFocus.focus();
  if (!copied) throw new Error('The clipboard is not available here.');
}
