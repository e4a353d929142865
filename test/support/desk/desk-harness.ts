import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { ChannelInput, ChannelName, ChannelOutput, EventName } from '#contract/channels.ts';
import { VettedError } from '#contract/errors.ts';
import { createDesk, type Desk, type DeskOptions } from '#main/compose/desk.ts';
import { openLogFile } from '#main/ground/log/log-file.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { startSandbox } from '#sandbox/index.ts';

/**
 * A whole desk on the built-in sandbox, as browser mode builds it, with every log line, output
 * and pushed event kept so tests can look for leaks. Calls go through the contract's dispatch.
 */
export interface DeskHarness {
  desk: Desk;
  dataDir: string;
  logLines: string[];
  outputs: unknown[];
  events: { event: EventName; payload: unknown }[];
  call<C extends ChannelName>(
    channel: C,
    ...input: ChannelInput<C> extends undefined ? [] : [ChannelInput<C>]
  ): Promise<ChannelOutput<C>>;
  close(): Promise<void>;
}

export async function startDesk(
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-desk-')),
  /** The built-in service: the sandbox, or a stand-in in front of it. */
  sandbox: DeskOptions['startSandbox'] = (options) => startSandbox({ ...options, reviewDelayMs: 60_000 }),
  /** `clock`: this desk's clock, for a desk whose clock is off; `lock`: the idle lock's clock and timer. */
  more: Pick<DeskOptions, 'rateLimitBackOff' | 'clock' | 'lock'> = {},
): Promise<DeskHarness> {
  const logLines: string[] = [];
  const outputs: unknown[] = [];
  const events: DeskHarness['events'] = [];
  // As browser mode does: every line also goes to the log file, so tests looking for leaks read it too.
  const logFile = openLogFile(dataDir);
  const log = createLogger((line) => {
    logLines.push(line);
    logFile.write(line);
  });
  const desk = await createDesk({
    host: 'browser',
    version: '0.0.0-test',
    dataDir,
    log,
    vault: openFileKeyVault({ dir: dataDir }),
    startSandbox: sandbox,
    strictContract: true,
    ...more,
  });
  desk.events.subscribe((event, payload) => events.push({ event, payload }));
  const dispatch = desk.dispatcher(() => true);
  return {
    desk,
    dataDir,
    logLines,
    outputs,
    events,
    async call(channel, ...input) {
      const result = await dispatch(channel, 'test', input[0]);
      outputs.push(result);
      if (!result.ok) throw new VettedError(result.error);
      return result.value as ChannelOutput<typeof channel>;
    },
    async close() {
      await desk.close();
      logFile.close();
    },
  };
}

/** Every byte of every file under `dir`: for tests that look for what must not be there. */
export function everyFile(dir: string): Buffer[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? everyFile(file) : [readFileSync(file)];
  });
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export const PERSON = {
  lastName: 'Okafor',
  type: 'personal',
  address1: '221 Baker Street',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62704',
  dateOfBirth: '1984-02-29',
  tin: '6789',
};

/** Creates a customer directly on the sandbox; firstName decides its status there. */
export async function createOnService(
  harness: DeskHarness,
  firstName: string,
  email: string,
): Promise<string> {
  const created = await harness.desk
    .connection()
    .client()
    .customers.create({ ...PERSON, firstName, email });
  return created.id;
}

/** One desk for a whole describe block: started before its tests, closed and its data removed after. */
export function deskForSuite(): () => DeskHarness {
  let harness: DeskHarness | undefined;
  beforeAll(async () => {
    harness = await startDesk();
  });
  afterAll(async () => {
    await harness?.close();
    if (harness) removeDir(harness.dataDir);
  });
  return () => {
    if (!harness) throw new Error('The desk starts before the suite’s tests.');
    return harness;
  };
}
