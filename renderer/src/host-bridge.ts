import { bridge, unwrap, type VettedApi, type VettedBridge } from '#contract/bridge.ts';
import { browserTransport } from './browser-transport.ts';

declare global {
  interface Window {
    vetted?: VettedBridge;
  }
}

/**
 * Under Electron the preload has put `window.vetted` in place. In browser mode this page builds
 * the same bridge over HTTP and installs it the same way, so everything else is host-blind.
 */
export function hostApi(): VettedApi {
  if (!window.vetted) {
    Object.defineProperty(window, 'vetted', { value: bridge(browserTransport()), writable: false });
  }
  return unwrap(window.vetted as VettedBridge);
}
