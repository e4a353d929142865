import type { Protocol } from 'electron';
import { readRendererFile } from '#main/ground/host/renderer-files.ts';
import { RENDERER_HEADERS } from '#main/ground/host/security-headers.ts';

/** The renderer's origin under Electron: a privileged custom scheme, never file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'vetted';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Must run before the app is ready: makes app:// a standard, secure origin with fetch. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Serves the built renderer from app://vetted/, with the same headers as browser mode. */
export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST || request.method !== 'GET') return new Response(null, { status: 404 });
    const file = await readRendererFile(rendererDir, url.pathname);
    if (!file) return new Response(null, { status: 404 });
    return new Response(new Uint8Array(file.body), {
      status: 200,
      headers: { ...RENDERER_HEADERS, 'Content-Type': file.contentType },
    });
  });
}
