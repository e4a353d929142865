// Where a link clicked inside the app may take the reviewer: the system browser, for a few hosts only.

/** Hosts a reviewer may be sent to from inside the app (help pages); everything else is refused. */
export const EXTERNAL_LINK_ALLOW_LIST: readonly string[] = [
  'github.com',
  'developers.cloudflare.com',
  'ngrok.com',
];

/**
 * An external link opens in the system browser only if it is https and on the allow-list, or on one
 * of `origins`: the connected service's own (its links, its documents), https only.
 */
export function isAllowedExternalUrl(
  raw: string,
  allowList: readonly string[] = EXTERNAL_LINK_ALLOW_LIST,
  origins: readonly string[] = [],
): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  if (origins.includes(url.origin)) return true;
  if (url.port) return false;
  return allowList.some((host) => url.hostname === host || url.hostname.endsWith(`.${host}`));
}
