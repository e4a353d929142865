import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Where the Electron runtime is, or why there is none. The `electron` package's main module is
 * the path of the binary it downloaded at install; where that download could not happen it throws.
 */
export function electronRuntime(): { path: string; missing: null } | { path: null; missing: string } {
  try {
    const binary: unknown = createRequire(import.meta.url)('electron');
    if (typeof binary === 'string' && existsSync(binary)) return { path: binary, missing: null };
    return { path: null, missing: `the electron package names no runtime binary (${String(binary)})` };
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { path: null, missing: `require('electron') threw: ${why}` };
  }
}
