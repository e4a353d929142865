/**
 * The security policy both hosts apply to the renderer. One source, so the Electron protocol
 * handler and browser mode cannot drift apart.
 */

/** No inline script, no eval, no remote origin; images may be previews of dropped files (blob:). */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const RENDERER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), clipboard-read=()',
  'Cache-Control': 'no-store',
};

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
