import { describe, expect, it } from 'vitest';
import { parseRegQuery, policyFilePath, readUpdatePolicy } from '#main/features/updates/policy.ts';

const files = (content: Record<string, string>) => (file: string) => content[file] ?? null;

describe('the update policy read at start', () => {
  it('is no policy when there is no file and no registry key', () => {
    const policy = readUpdatePolicy({ platform: 'linux', env: {}, readFile: () => null });
    expect(policy).toEqual({ updatesDisabled: false, feedUrl: null, channel: null, source: null });
  });

  it('reads the machine-wide policy file of each OS', () => {
    expect(policyFilePath('linux', {})).toBe('/etc/vetted/policy.json');
    expect(policyFilePath('darwin', {})).toBe('/Library/Application Support/Vetted/policy.json');
    expect(policyFilePath('win32', { ProgramData: 'D:\\Data' })).toBe('D:\\Data\\Vetted\\policy.json');
    const policy = readUpdatePolicy({
      platform: 'linux',
      env: {},
      readFile: files({
        '/etc/vetted/policy.json':
          '{"updateFeedUrl":"https://mirror.corp.example/vetted","updateChannel":"stable"}',
      }),
    });
    expect(policy).toEqual({
      updatesDisabled: false,
      feedUrl: 'https://mirror.corp.example/vetted',
      channel: 'stable',
      source: 'the policy file /etc/vetted/policy.json',
    });
  });

  it('turns updates off when a policy file exists but cannot be trusted', () => {
    for (const text of [
      '{not json',
      '{"updateFeedUrl":"http://plain.example/"}',
      '{"disableUpdates":"yes"}',
    ]) {
      const policy = readUpdatePolicy({
        platform: 'linux',
        env: {},
        readFile: files({ '/etc/vetted/policy.json': text }),
      });
      expect(policy.updatesDisabled, text).toBe(true);
      expect(policy.source).toMatch(/could not be read/);
    }
    const unreadable = readUpdatePolicy({
      platform: 'linux',
      env: {},
      readFile: () => {
        throw new Error('EACCES: permission denied');
      },
    });
    expect(unreadable).toMatchObject({ updatesDisabled: true, source: expect.stringContaining('EACCES') });
  });

  it('lets the Windows registry (Group Policy) decide over the file', () => {
    const reg = [
      '',
      'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Vetted',
      '    DisableUpdates    REG_DWORD    0x1',
      '    UpdateChannel    REG_SZ    Beta',
      '',
    ].join('\r\n');
    expect(parseRegQuery(reg)).toEqual({ DisableUpdates: '1', UpdateChannel: 'Beta' });
    const policy = readUpdatePolicy({
      platform: 'win32',
      env: { ProgramData: 'C:\\ProgramData' },
      readFile: files({ 'C:\\ProgramData\\Vetted\\policy.json': '{"disableUpdates":false}' }),
      queryRegistry: () => reg,
    });
    expect(policy).toMatchObject({
      updatesDisabled: true,
      channel: 'beta',
      source: expect.stringContaining('registry'),
    });
  });

  it('ignores the registry elsewhere than Windows, and a missing key', () => {
    const queryRegistry = () => '    DisableUpdates    REG_DWORD    0x1';
    expect(
      readUpdatePolicy({ platform: 'linux', env: {}, readFile: () => null, queryRegistry }).updatesDisabled,
    ).toBe(false);
    expect(
      readUpdatePolicy({ platform: 'win32', env: {}, readFile: () => null, queryRegistry: () => null })
        .source,
    ).toBeNull();
  });
});
