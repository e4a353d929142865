import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOG_FILE_NAME } from '#main/ground/log/log-file.ts';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { samplePerson } from '#test/support/person.ts';
import { until } from '#test/support/poll.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..', '..');

/** `node main/hosts/browser/main.ts` as `npm start -- --browser` runs it, with what it printed so far. */
function startBrowserMode(dataDir: string, ...extra: string[]) {
  const child = spawn(
    process.execPath,
    ['main/hosts/browser/main.ts', '--port', '0', '--data-dir', dataDir, ...extra],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => {
    out.stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out.stderr += chunk;
  });
  return { child, out };
}

const logOf = (dataDir: string) => {
  try {
    return readFileSync(path.join(dataDir, LOG_FILE_NAME), 'utf8');
  } catch {
    return '';
  }
};

describe('browser mode in the terminal', () => {
  const running: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const child of running.splice(0)) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  for (const verbose of [false, true]) {
    it(`prints the address in one line; request lines go to the log file${verbose ? ', and with --verbose to the terminal too' : ''}`, async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-terminal-'));
      dirs.push(dataDir);
      const { child, out } = startBrowserMode(dataDir, ...(verbose ? ['--verbose'] : []));
      running.push(child);
      await until(() => out.stdout.includes('\n'), 'the address', 30_000);
      // The embedded sandbox's token request, logged once the desk has asked for its first token.
      await until(
        () => logOf(dataDir).includes('POST /oauth/v2/token'),
        'a request line in the log file',
        30_000,
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;

      expect(out.stdout).toMatch(
        /^Vetted is running in browser mode\. Open: http:\/\/127\.0\.0\.1:\d+\/#token=\S+\n$/,
      );
      if (verbose) expect(out.stderr).toContain('POST /oauth/v2/token');
      else expect(out.stderr).toBe('');
      // The launch token is the page's key: the log never holds it.
      const token = /#token=(\S+)/.exec(out.stdout)?.[1] ?? '';
      expect(token.length).toBeGreaterThan(10);
      expect(logOf(dataDir)).not.toContain(token);
    });
  }

  it('keeps no personal data nor secret in the log file, while it logs each request', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-terminal-'));
    dirs.push(dataDir);
    const running = await runBrowserMode({ port: 0, dataDir });
    try {
      const client = running.desk.connection().client();
      const person = samplePerson('Ysolde', 'Quartermaine', 'ysolde.quartermaine@example.com');
      await client.customers.create(person);
      await client.customers.list({ email: person.email });
      // Logged once the answer is sent: the search's line comes, the creation's before it.
      await until(() => / GET \/customers 200 /.test(logOf(dataDir)), 'the search in the log');
      // The desk's own requests are logged too (this one without the launch token: refused).
      const refused = await fetch(`${new URL(running.launchUrl).origin}/api/invoke/app.ping?x=1`, {
        method: 'POST',
      });
      expect(refused.status).toBe(401);
      await until(
        () => logOf(dataDir).includes('"path":"/api/invoke/app.ping","status":401'),
        'the desk’s request line',
      );
      const sandbox = running.desk.connection().sandbox!;
      const token = await client.token.get();
      const text = logOf(dataDir);
      expect(text).toContain('POST /customers');
      for (const secret of [
        person.firstName,
        person.lastName,
        person.email,
        person.address1,
        sandbox.clientSecret,
        token,
      ]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await running.close();
    }
  });
});
