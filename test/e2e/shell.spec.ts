import { channelNames } from '../../contract/channels.ts';
import { expect, type PageGlobals, test } from './fixtures.ts';

test('the shell loads and app.ping crosses window.vetted', async ({ page, vetted }) => {
  await page.goto(vetted.launchUrl);
  await expect(page.getByRole('heading', { name: 'Vetted' })).toBeVisible();
  await expect(page.getByRole('contentinfo').getByRole('status')).toHaveText('Online');
  await expect(page.getByRole('contentinfo')).toContainText('Sandbox');
  // The token travelled once, in the launch URL; the address bar no longer shows it.
  expect(page.url()).toBe(`${vetted.origin}/`);

  const pong = await page.evaluate(async () =>
    (globalThis as PageGlobals).vetted?.app.ping({ nonce: 'e2e' }),
  );
  expect(pong).toMatchObject({ ok: true, value: { nonce: 'e2e' } });

  const bad = await page.evaluate(async () =>
    // @ts-expect-error: a payload the contract refuses
    (globalThis as PageGlobals).vetted?.app.ping({ nonce: 42 }),
  );
  expect(bad).toMatchObject({ ok: false, error: { code: 'BadInput' } });
  const exposed = await page.evaluate(() => Object.keys((globalThis as PageGlobals).vetted ?? {}).sort());
  const namespaces = new Set(channelNames.map((channel) => channel.split('.')[0]));
  expect(exposed).toEqual([...namespaces, 'on'].sort());
});

test('a request without the token is refused', async ({ playwright, vetted }) => {
  const anonymous = await playwright.request.newContext();
  const invoke = await anonymous.post(`${vetted.origin}/api/invoke/app.ping`, {
    data: { input: { nonce: 'x' } },
  });
  expect(invoke.status()).toBe(401);
  expect((await anonymous.get(`${vetted.origin}/`)).status()).toBe(401);
  expect((await anonymous.get(`${vetted.origin}/?token=wrong`)).status()).toBe(401);
  await anonymous.dispose();
});

test('a request from a foreign Origin is refused even with the session', async ({ page, vetted }) => {
  await page.goto(vetted.launchUrl);
  const foreign = await page.request.post(`${vetted.origin}/api/invoke/app.ping`, {
    data: { input: { nonce: 'x' } },
    headers: { Origin: 'https://evil.example' },
  });
  expect(foreign.status()).toBe(403);
  const own = await page.request.post(`${vetted.origin}/api/invoke/app.ping`, {
    data: { input: { nonce: 'x' } },
    headers: { Origin: vetted.origin },
  });
  expect(own.status()).toBe(200);
});

test('a request for a rebound Host is refused', async ({ page, vetted }) => {
  await page.goto(vetted.launchUrl);
  const rebound = await page.request.get(`${vetted.origin}/`, { headers: { Host: 'attacker.example' } });
  expect(rebound.status()).toBe(421);
});

test('the renderer is served with a strict CSP', async ({ page, vetted }) => {
  const response = await page.goto(vetted.launchUrl);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).not.toContain('unsafe-inline');
});
