// A whole desk in a child process (test/support/desk/desk-child-process.ts), driven over its stdin: the test calls its
// channels, reads the events it pushed, and can stop it (SIGSTOP, a laptop put to sleep) and continue it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ChannelInput, ChannelName, ChannelOutput, EventName } from '#contract/channels.ts';
import { type AppError, VettedError } from '#contract/errors.ts';
import { type ChildRun, runChild } from '../child.ts';
import { until } from '../poll.ts';

const SCRIPT = path.join(import.meta.dirname, 'desk-child-process.ts');

export interface DeskChild {
  run: ChildRun;
  events: { event: EventName; payload: unknown }[];
  /** A call answered by the desk; while it is stopped, the call waits in its stdin until it continues. */
  call<C extends ChannelName>(
    channel: C,
    ...input: ChannelInput<C> extends undefined ? [] : [ChannelInput<C>]
  ): Promise<ChannelOutput<C>>;
  /** SIGSTOP, resolved once the kernel shows the process stopped. */
  stop(): Promise<void>;
  /** SIGCONT. */
  resume(): void;
  /** Closes its stdin and waits for it to close the desk and exit. */
  close(): Promise<void>;
}

type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: AppError };

/** The process's state letter in /proc (T: stopped). */
const stateOf = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];

export async function startDeskChild(dataDir: string, skewMs = 0): Promise<DeskChild> {
  const events: DeskChild['events'] = [];
  const waiting = new Map<number, (answer: Answer) => void>();
  let ready = false;
  const run = runChild(SCRIPT, [], { VETTED_TEST_DESK: JSON.stringify({ dataDir, skewMs }) }, (line) => {
    const said = JSON.parse(line) as Partial<Answer> & { ready?: true; event?: EventName; payload?: unknown };
    if (said.ready) ready = true;
    else if (said.event) events.push({ event: said.event, payload: said.payload });
    else if (said.id !== undefined) waiting.get(said.id)?.(said as Answer);
  });
  await until(
    () => ready || run.lines.some((l) => l.startsWith('stderr:')),
    'the desk child to open',
    60_000,
  );
  if (!ready) throw new Error(`The desk child did not open: ${run.lines.join('\n')}`);
  let serial = 0;
  const pid = run.child.pid!;
  return {
    run,
    events,
    call(channel, ...input) {
      const id = ++serial;
      const answered = new Promise<Answer>((resolve) => waiting.set(id, resolve));
      run.child.stdin!.write(`${JSON.stringify({ id, channel, input: input[0] })}\n`);
      return answered.then((answer) => {
        waiting.delete(id);
        if (!answer.ok) throw new VettedError(answer.error);
        return answer.value as ChannelOutput<typeof channel>;
      });
    },
    async stop() {
      run.child.kill('SIGSTOP');
      await until(() => stateOf(pid) === 'T', 'the desk child stopped');
    },
    resume() {
      run.child.kill('SIGCONT');
    },
    async close() {
      run.child.kill('SIGCONT');
      run.child.stdin!.end();
      await run.exited;
    },
  };
}
