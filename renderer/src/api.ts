import type { VettedApi } from '#contract/bridge.ts';

let installed: VettedApi | null = null;

/**
 * Main's API as the renderer's stores use it. The page installs it once at start (main.tsx, from
 * `window.vetted`); unit tests install a fake. Nothing here touches the DOM, so a store can be loaded
 * in Node.
 */
export function installApi(api: VettedApi): void {
  installed = api;
}

export const api: VettedApi = new Proxy({} as VettedApi, {
  get(_, key) {
    if (!installed) throw new Error('Main’s API is used before main.tsx installed it.');
    return Reflect.get(installed, key);
  },
});
