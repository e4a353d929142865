import { describe, expect, it } from 'vitest';
import { stateText } from '#renderer/shell/connection-text.ts';

describe('the status bar’s connection text', () => {
  const status = {
    mode: 'custom',
    baseUrl: 'https://api.example.com',
    lastSuccessAt: null,
    detail: null,
  } as const;

  it('says when a rate limit’s next try is, in local time', () => {
    const retryAt = new Date(2026, 10, 23, 12, 5).toISOString();
    expect(stateText({ ...status, state: 'rate-limited', retryAt })).toBe(
      'Rate limited by the service — next try at 12:05',
    );
  });

  it('names a failed sign-in and the other states', () => {
    expect(stateText({ ...status, state: 'auth-failed' })).toBe('Sign-in failed');
    expect(stateText({ ...status, state: 'not-configured' })).toBe('Not set up');
    expect(stateText(null)).toBe('Connecting…');
  });
});
