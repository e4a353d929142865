import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { channelNames } from '#contract/channels.ts';
import { expect, type PageGlobals, test, type VettedApp } from './fixtures.ts';

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

test('the other screens are chunks of their own, fetched after the first paint, and open from them', async ({
  page,
  vetted,
}) => {
  const page0 = await page.request.get(`${vetted.origin}/`);
  expect(await page0.text()).not.toContain('SettingsScreen');
  // Nobody asks for Settings here: the page fetches it by itself once the queue is on screen.
  const settingsCode = page.waitForRequest(/\/assets\/SettingsScreen-[\w-]+\.js$/);
  await page.goto(vetted.launchUrl);
  await expect(page.getByRole('heading', { name: 'Vetted' })).toBeVisible();
  await settingsCode;
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Settings' })).toBeVisible();
});

/** The launch token, as the page keeps it (the only place it lives after the launch URL). */
const tokenOf = (vetted: VettedApp) => new URL(vetted.launchUrl).hash.replace('#token=', '');

test('a request without the token is refused, in the contract shape, and nothing is ever a cookie', async ({
  playwright,
  page,
  vetted,
}) => {
  const anonymous = await playwright.request.newContext();
  const invoke = await anonymous.post(`${vetted.origin}/api/invoke/app.ping`, {
    data: { input: { nonce: 'x' } },
  });
  expect(invoke.status()).toBe(401);
  expect(await invoke.json()).toMatchObject({ ok: false, error: { code: 'Unauthorized' } });
  const wrong = await anonymous.post(`${vetted.origin}/api/invoke/app.ping`, {
    data: { input: { nonce: 'x' } },
    headers: { Authorization: 'Bearer wrong' },
  });
  expect(wrong.status()).toBe(401);
  expect((await anonymous.get(`${vetted.origin}/api/events?token=wrong`)).status()).toBe(401);
  await anonymous.dispose();

  const launch = await page.goto(vetted.launchUrl);
  expect(launch?.headers()['set-cookie']).toBeUndefined();
  await expect(page.getByRole('contentinfo').getByRole('status')).toHaveText('Online');
  expect(await page.context().cookies()).toEqual([]);
});

test('another server on 127.0.0.1 receives nothing usable, and its page cannot use Vetted', async ({
  page,
  vetted,
}) => {
  // A local page of another program, on another port: cookies are not scoped by port, so it would
  // receive a session cookie; it records every header it is sent.
  const seen: string[] = [];
  const other = createServer((req, res) => {
    seen.push(JSON.stringify(req.headers));
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>other</title>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  try {
    await page.goto(vetted.launchUrl);
    await expect(page.getByRole('contentinfo').getByRole('status')).toHaveText('Online');
    await page.goto(`${otherOrigin}/`);
    await page.goto(`http://localhost:${new URL(otherOrigin).port}/`);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const headers of seen) expect(headers).not.toContain(tokenOf(vetted));

    // Its page tries the API with whatever the browser would add by itself.
    const status = await page.evaluate(async (target) => {
      const answer = await fetch(`${target}/api/invoke/customers.reveal`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ input: {} }),
        credentials: 'include',
      }).catch(() => null);
      return answer?.status ?? 'blocked';
    }, vetted.origin);
    expect(status === 'blocked' || status === 401 || status === 403).toBe(true);
  } finally {
    await new Promise((resolve) => other.close(resolve));
  }
});

test('a request from a foreign Origin is refused even with the token', async ({ playwright, vetted }) => {
  const client = await playwright.request.newContext({
    extraHTTPHeaders: { Authorization: `Bearer ${tokenOf(vetted)}` },
  });
  const foreign = await client.post(`${vetted.origin}/api/invoke/app.ping`, {
    data: { input: { nonce: 'x' } },
    headers: { Origin: 'https://evil.example' },
  });
  expect(foreign.status()).toBe(403);
  const own = await client.post(`${vetted.origin}/api/invoke/app.ping`, {
    data: { input: { nonce: 'x' } },
    headers: { Origin: vetted.origin },
  });
  expect(own.status()).toBe(200);
  expect(own.headers()).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });

  for (const channel of ['%E0%A4%A', '%', '%zz']) {
    const broken = await client.post(`${vetted.origin}/api/invoke/${channel}`, { data: { input: {} } });
    expect(broken.status(), channel).toBe(400);
    expect(await broken.json()).toMatchObject({ ok: false, error: { code: 'BadRequest' } });
  }
  await client.dispose();
});

test('a request for a rebound Host is refused', async ({ playwright, vetted }) => {
  const client = await playwright.request.newContext();
  const rebound = await client.get(`${vetted.origin}/`, { headers: { Host: 'attacker.example' } });
  expect(rebound.status()).toBe(421);
  await client.dispose();
});

test('the renderer is served with a strict CSP', async ({ page, vetted }) => {
  const response = await page.goto(vetted.launchUrl);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  expect(csp).not.toContain('unsafe-inline');
});
