import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PUSHED_EVENT_CHANNEL } from '#contract/channels.ts';
import { caseLink, caseOfLink } from '#contract/claims.ts';
import { caseInArgv } from '#main/hosts/electron/case-links.ts';
import { type FakeElectron, sharedFakeElectron } from './fake-electron.ts';

vi.mock('electron', async () => (await import('./fake-electron.ts')).sharedFakeElectron());

// Vetted started by a click on a case link: the link is on its command line (Windows, Linux).
const STARTED_ON = randomUUID();
let electron: FakeElectron;

beforeAll(async () => {
  process.argv.push(caseLink(STARTED_ON));
  electron = sharedFakeElectron();
  await import('#main/hosts/electron/index.ts');
  await vi.waitFor(() => expect(electron.windows[0]?.loadedUrl).toBeTruthy(), {
    timeout: 15_000,
    interval: 20,
  });
});

const caseOpened = () =>
  electron.windows[0]!.webContents.sent.filter(
    ([channel, event]) => channel === PUSHED_EVENT_CHANNEL && event === 'case.open',
  );

describe('case links under a mocked Electron', () => {
  it('asks to handle vetted:// links', () => {
    expect(electron.app.setAsDefaultProtocolClient.calls).toEqual([['vetted']]);
  });

  it('opens the window on the case a link started Vetted with', () => {
    expect(electron.windows[0]?.loadedUrl).toBe(`app://vetted/#/case/${STARTED_ON}`);
  });

  it('shows the case a link names when a second start brings it (Windows, Linux)', () => {
    const id = randomUUID();
    const before = caseOpened().length;
    electron.app.emit('second-instance', {}, ['/opt/Vetted/vetted', '--flag', caseLink(id)], '/');
    expect(caseOpened().slice(before)).toEqual([[PUSHED_EVENT_CHANNEL, 'case.open', { customerId: id }]]);
  });

  it('shows the case macOS hands over by open-url, and keeps the link from the default handling', () => {
    const id = randomUUID();
    const before = caseOpened().length;
    let prevented = false;
    electron.app.emit('open-url', { preventDefault: () => (prevented = true) }, `vetted://case/${id}/`);
    expect(prevented).toBe(true);
    expect(caseOpened().slice(before)).toEqual([[PUSHED_EVENT_CHANNEL, 'case.open', { customerId: id }]]);
  });

  it('ignores a second start without a link, and a link to anything but a case', () => {
    const before = caseOpened().length;
    electron.app.emit('second-instance', {}, ['/opt/Vetted/vetted'], '/');
    electron.app.emit('second-instance', {}, ['/opt/Vetted/vetted', 'vetted://case/a%00b'], '/');
    electron.app.emit('open-url', { preventDefault: () => undefined }, 'vetted://settings/reset');
    electron.app.emit(
      'open-url',
      { preventDefault: () => undefined },
      `https://evil.example/case/${randomUUID()}`,
    );
    expect(caseOpened().length).toBe(before);
  });
});

describe('a case link', () => {
  it('names one case by its id, and nothing else', () => {
    const id = randomUUID();
    expect(caseLink(id)).toBe(`vetted://case/${id}`);
    expect(caseOfLink(` VETTED://case/${id} `)).toBe(id);
    expect(caseOfLink(`vetted://case/${id}?x=1`)).toBeNull();
    expect(caseOfLink(`vetted://case/${id}/more`)).toBeNull();
    expect(caseOfLink('vetted://case/')).toBeNull();
    expect(caseOfLink(`vetted:/case/${id}`)).toBeNull();
    expect(caseInArgv(['vetted', '--x', caseLink(id)])).toBe(id);
    expect(caseInArgv(['vetted'])).toBeNull();
  });

  it('carries any id the service may give, and refuses what no customer could have', () => {
    for (const id of ['C1 / ?#%', 'ÄÖ-😀', 'https://x.example/customers/1', ' lead space', '%41']) {
      expect(caseOfLink(caseLink(id))).toBe(id);
    }
    expect(caseOfLink('vetted://case/%E0')).toBeNull();
    expect(caseOfLink('vetted://case/a%00b')).toBeNull();
    expect(caseOfLink('vetted://case/..')).toBeNull();
  });
});
