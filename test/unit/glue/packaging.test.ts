import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../main/electron/security.ts';

const builderConfig = readFileSync(new URL('../../../electron-builder.yml', import.meta.url), 'utf8');
const indexHtml = readFileSync(new URL('../../../renderer/index.html', import.meta.url), 'utf8');

/** The fuses flipped at package time: each one closes a way to run code the app did not ship. */
const FUSES: Record<string, boolean> = {
  runAsNode: false,
  enableCookieEncryption: true,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  grantFileProtocolExtraPrivileges: false,
};

describe('packaging', () => {
  it('sets every fuse in electron-builder.yml', () => {
    const section = builderConfig.split('electronFuses:')[1]?.split(/\n\S/)[0] ?? '';
    for (const [fuse, value] of Object.entries(FUSES)) {
      expect(section, fuse).toMatch(new RegExp(`^\\s+${fuse}: ${value}$`, 'm'));
    }
  });

  it('names the app and builds for linux, mac and windows', () => {
    expect(builderConfig).toMatch(/^appId: \S+/m);
    expect(builderConfig).toMatch(/^productName: Vetted$/m);
    for (const platform of ['linux', 'mac', 'win'])
      expect(builderConfig).toMatch(new RegExp(`^${platform}:`, 'm'));
  });

  it('keeps the page CSP as strict as the header', () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(indexHtml)?.[1] ?? '';
    expect(meta).toContain("default-src 'self'");
    expect(meta).toContain("script-src 'self'");
    for (const csp of [meta, CONTENT_SECURITY_POLICY]) {
      expect(csp).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/);
    }
  });
});
