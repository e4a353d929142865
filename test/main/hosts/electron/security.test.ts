import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRendererFile } from '#main/ground/host/renderer-files.ts';
import { EXTERNAL_LINK_ALLOW_LIST, isAllowedExternalUrl } from '#main/hosts/electron/external-links.ts';
import { hardenWebContents, mainWindowOptions } from '#main/hosts/electron/window.ts';
import { FakeWebContents } from './fake-electron.ts';

describe('external links', () => {
  it.each([
    ['https://github.com/vetted/vetted', true],
    ['https://docs.github.com/x', true],
    ['http://github.com/', false],
    ['https://github.com.evil.example/', false],
    ['https://user:pw@github.com/', false],
    ['https://github.com:8443/', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedExternalUrl(url)).toBe(allowed);
  });
});

describe('links to the connected service', () => {
  const service = ['https://api.service.test'];
  it.each([
    ['https://api.service.test/customers/1/funding-sources', true],
    ['https://api.service.test/documents/9', true],
    ['http://api.service.test/documents/9', false],
    ['https://api.service.test.evil.example/', false],
    ['https://other.service.test/', false],
  ])('%s → %s', (url, allowed) => {
    expect(isAllowedExternalUrl(url, EXTERNAL_LINK_ALLOW_LIST, service)).toBe(allowed);
  });

  it('open in the system browser from a page, and nothing else does', () => {
    const contents = new FakeWebContents();
    const opened: string[] = [];
    hardenWebContents(
      contents as never,
      { openExternal: async (url: string) => void opened.push(url) },
      () => service,
    );
    expect(contents.windowOpenHandler?.({ url: 'https://api.service.test/documents/9' })).toEqual({
      action: 'deny',
    });
    expect(contents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://api.service.test/documents/9']);
  });
});

describe('renderer files', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-renderer-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
  writeFileSync(path.join(dir, 'app.js'), 'export {}');
  writeFileSync(path.join(dir, 'secret.env'), 'x');

  it('serves files of the build and index.html for app routes', async () => {
    expect((await readRendererFile(dir, '/app.js'))?.contentType).toMatch(/javascript/);
    expect((await readRendererFile(dir, '/customers/42'))?.body.toString()).toBe('<!doctype html>');
  });

  it('serves nothing outside the build, nothing of an unknown type, nothing malformed', async () => {
    expect(await readRendererFile(dir, '/../../etc/passwd.txt')).toBeNull();
    expect(await readRendererFile(dir, '/%2e%2e/%2e%2e/etc/hosts.txt')).toBeNull();
    expect(await readRendererFile(dir, '/secret.env')).toBeNull();
    expect(await readRendererFile(dir, '/%E0%A4%A.js')).toBeNull();
    expect(await readRendererFile(dir, '/a%00.js')).toBeNull();
    expect(await readRendererFile(dir, '/missing.js')).toBeNull();
  });
});

describe('the window', () => {
  it('has DevTools only when not packaged', () => {
    expect(mainWindowOptions('/p.cjs', { packaged: true }).webPreferences?.devTools).toBe(false);
    expect(mainWindowOptions('/p.cjs').webPreferences?.devTools).toBe(true);
    // The app icon where one is given (a checkout's rendered PNG); none otherwise.
    expect(mainWindowOptions('/p.cjs', { icon: '/icons/512x512.png' }).icon).toBe('/icons/512x512.png');
    expect(mainWindowOptions('/p.cjs')).not.toHaveProperty('icon');
  });
});
