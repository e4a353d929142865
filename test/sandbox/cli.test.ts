import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { call, HAL, requestFormToken } from './helpers.ts';

/** The standalone: `node sandbox/cli.ts --port 0 --data …` as `npm run sandbox` starts it. */
const CLI = path.join(import.meta.dirname, '../../sandbox/cli.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'vetted-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  line: { baseUrl: string; clientId: string; clientSecret: string };
  stderr: () => string;
  exited: Promise<number | null>;
}

async function startCli(args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    exited.then((code) => reject(new Error(`exited ${code} before printing: ${stderr}`)), reject);
  });
  return { child, line: JSON.parse(line), stderr: () => stderr, exited };
}

async function token(line: Started['line']): Promise<string> {
  const res = await call(`${line.baseUrl}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&client_id=${line.clientId}&client_secret=${line.clientSecret}`,
  });
  return res.json.access_token;
}

describe('npm run sandbox', () => {
  it('prints one JSON line {baseUrl, clientId, clientSecret}, logs requests on stderr, stops on SIGINT', async () => {
    const started = await startCli(['--port', '0', '--data', ':memory:']);
    expect(Object.keys(started.line).sort()).toEqual(['baseUrl', 'clientId', 'clientSecret']);
    expect(started.line.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const bearer = await token(started.line);
    const created = await call(`${started.line.baseUrl}/customers`, {
      method: 'POST',
      headers: { accept: HAL, authorization: `Bearer ${bearer}`, 'content-type': HAL },
      body: JSON.stringify({
        firstName: 'Cli',
        lastName: 'User',
        email: 'cli@example.com',
        type: 'personal',
        address1: '1 Main St',
        city: 'Albany',
        state: 'NY',
        postalCode: '12207',
        dateOfBirth: '1980-05-05',
        tin: '9876',
      }),
    });
    expect(created.status).toBe(201);
    started.child.kill('SIGINT');
    expect(await started.exited).toBe(0);
    const log = started.stderr();
    expect(log).toMatch(/POST \/oauth\/v2\/token 200/);
    expect(log).toMatch(/POST \/customers 201/);
    expect(log).not.toContain(started.line.clientSecret);
    expect(log).not.toContain(bearer);
    expect(log).not.toContain('9876');
    expect(log).not.toContain('cli@example.com');
  });

  it('--token-ttl sets expires_in; credentials are stable for a data file; SIGTERM stops it too', async () => {
    const file = path.join(dir, 'stable.db');
    const first = await startCli([
      '--port',
      '0',
      '--data',
      file,
      '--token-ttl',
      '42',
      '--review-delay-ms',
      '1000',
    ]);
    const res = await call(`${first.line.baseUrl}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: first.line.clientId,
        client_secret: first.line.clientSecret,
        grant_type: 'client_credentials',
      }),
    });
    expect(res.json.expires_in).toBe(42);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await startCli(['--port', '0', '--data', file]);
    expect(second.line.clientId).toBe(first.line.clientId);
    expect(second.line.clientSecret).toBe(first.line.clientSecret);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });

  it('--profile real: tokens at /token (form + Basic), /oauth/v2/token is 404; the profile is named on stderr', async () => {
    const started = await startCli(['--port', '0', '--profile', 'real']);
    const { baseUrl, clientId, clientSecret } = started.line;
    const issued = await requestFormToken(baseUrl, clientId, clientSecret);
    expect(issued.status).toBe(200);
    expect(issued.json.token_type).toBe('Bearer');
    const old = await requestFormToken(baseUrl, clientId, clientSecret, '/oauth/v2/token');
    expect(old.status).toBe(404);
    const root = await call(`${baseUrl}/`, {
      headers: { accept: HAL, authorization: `Bearer ${issued.json.access_token}` },
    });
    expect(root.status).toBe(200);
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(started.stderr()).toContain(`sandbox: real profile, tokens at ${baseUrl}/token`);
  });

  it.each([
    [['--port', 'many'], '--port must be a number'],
    [['--profile', 'fake'], '--profile must be interface or real, got "fake"'],
  ])('a bad option (%s): a message and exit code 1', async (args, message) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(message);
  });
});
