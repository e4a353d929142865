import { readFileSync } from 'node:fs';
import { FuseV1Options } from '@electron/fuses';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '#main/ground/host/security-headers.ts';

/** electron-builder.yml as electron-builder reads it, not as text. */
const builderConfig = load(readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8')) as {
  appId?: string;
  productName?: string;
  asar?: boolean;
  electronFuses?: Record<string, unknown>;
  linux?: unknown;
  publish?: unknown;
  mac?: unknown;
  win?: unknown;
  protocols?: unknown;
};
const indexHtml = readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8');

/**
 * The Electron security checklist's rule for fuses: every fuse that opens a way to run code the app
 * did not ship is off, every fuse that adds a protection is on. A fuse that is neither (the V8
 * snapshot) must still be decided, so that a fuse new in an Electron upgrade is never left at its
 * default unnoticed: the fuse wire below comes from the installed @electron/fuses.
 */
const CHECKLIST: Partial<Record<keyof typeof FuseV1Options, boolean>> = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  GrantFileProtocolExtraPrivileges: false,
  EnableCookieEncryption: true,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
};

const fuseNames = Object.keys(FuseV1Options).filter((key) =>
  Number.isNaN(Number(key)),
) as (keyof typeof FuseV1Options)[];
/** electron-builder's spelling of a fuse: `RunAsNode` → `runAsNode`. */
const builderKey = (fuse: string) => fuse[0]!.toLowerCase() + fuse.slice(1);

describe('packaging', () => {
  const fuses = builderConfig.electronFuses ?? {};

  it('decides every fuse of the installed Electron, and no fuse it does not know', () => {
    expect(fuseNames.length).toBeGreaterThanOrEqual(8);
    for (const fuse of fuseNames)
      expect(typeof fuses[builderKey(fuse)], `${builderKey(fuse)} is set`).toBe('boolean');
    expect(Object.keys(fuses).sort()).toEqual(fuseNames.map(builderKey).sort());
  });

  it('sets each fuse as the security checklist says', () => {
    for (const [fuse, secure] of Object.entries(CHECKLIST))
      expect(fuses[builderKey(fuse)], fuse).toBe(secure);
  });

  it('packs the app in an asar, which the integrity and asar-only fuses rely on', () => {
    expect(builderConfig.asar).toBe(true);
  });

  it('names the app and builds for linux, mac and windows', () => {
    expect(builderConfig.appId).toMatch(/^[a-z]+(\.[a-z]+)+$/);
    expect(builderConfig.productName).toBe('Vetted');
    for (const platform of ['linux', 'mac', 'win'] as const)
      expect(builderConfig[platform], platform).toBeDefined();
  });

  it('has the package metadata the deb, rpm and AppImage targets need, and a desktop entry', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author).toMatchObject({ name: expect.any(String), email: expect.stringContaining('@') });
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//);
    expect(pkg.license).toEqual(expect.any(String));
    expect(pkg.desktopName).toMatch(/\.desktop$/);
    const linux = builderConfig.linux as { target: string[]; desktop?: { entry?: Record<string, string> } };
    expect(linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb', 'rpm']));
    expect(linux.desktop?.entry).toMatchObject({
      Name: 'Vetted',
      Categories: expect.stringContaining('Office'),
    });
  });

  it('publishes a generic https update feed', () => {
    expect(builderConfig.publish).toMatchObject({
      provider: 'generic',
      url: expect.stringMatching(/^https:\/\//),
    });
  });

  it('keeps the page CSP as strict as the header', () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(indexHtml)?.[1] ?? '';
    expect(meta).toContain("default-src 'self'");
    expect(meta).toContain("script-src 'self'");
    for (const csp of [meta, CONTENT_SECURITY_POLICY]) {
      expect(csp).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/);
    }
  });

  it('registers the case links’ scheme (vetted://) with every installer', () => {
    expect(builderConfig.protocols).toEqual([{ name: 'Vetted case link', schemes: ['vetted'] }]);
  });
});
