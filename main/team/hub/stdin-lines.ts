// Reading the hub's secrets from standard input: piped (a script, a password manager) or typed at a
// terminal, where each is asked for by name and a secret is not echoed back.
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';

export interface Question {
  /** What to ask at a terminal, e.g. "Join code". */
  label: string;
  /** Not echoed while typed. */
  hidden: boolean;
}

/**
 * One line per question (missing lines undefined). Stops reading once it has them, so a terminal need not
 * send end-of-file. Prompts go to `ask` (standard error), and only when standard input is a terminal.
 */
export async function readAnswers(
  stdin: Readable & { isTTY?: boolean },
  questions: Question[],
  ask: (text: string) => void,
): Promise<Array<string | undefined>> {
  const terminal = stdin.isTTY === true;
  let muted = false;
  // A terminal echoes through readline's output: muting that output hides what is typed.
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) ask(String(chunk));
      done();
    },
  });
  const reader = readline.createInterface({
    input: stdin,
    output,
    terminal,
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  const answers: Array<string | undefined> = [];
  const lines = reader[Symbol.asyncIterator]();
  try {
    for (const question of questions) {
      if (terminal) {
        // Muted before asking: what is typed after the prompt must never be echoed.
        muted = question.hidden;
        ask(`${question.label}: `);
      }
      const next = await lines.next();
      muted = false;
      if (terminal && question.hidden) ask('\n');
      if (next.done) break;
      answers.push(next.value);
    }
  } finally {
    reader.close();
  }
  return questions.map((_, index) => answers[index]);
}
