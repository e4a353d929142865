// The commands the README and docs/ tell a reader to type (#36) exist: every `npm run NAME` is a script of
// package.json, every `npm run team -- COMMAND` and `npm run hub -- COMMAND` a command with --help words, with
// only options that command's --help names, every bench `npm run bench -- NAME` runs a file of bench/, and
// every `npx node FILE` names a file.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEAM_HELP } from '#admin/cli-help.ts';
import { HUB_HELP } from '#main/team/hub/cli-help.ts';
import { proseLines } from '../support/markdown-links.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const PAGES = [
  'README.md',
  'bench/README.md',
  ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => `docs/${f}`),
].filter((file) => file.endsWith('.md'));

/** What a page gives to type: each line of its code blocks (a `\` continuation joined), each inline code span. */
function commandsOf(text: string): string[] {
  const prose = proseLines(text);
  const code = text
    .split('\n')
    .filter((line, index) => prose[index] !== line || /^\s*(```|~~~)/.test(line))
    .join('\n')
    .replace(/\\\n\s*/g, ' ')
    .split('\n');
  const inline = prose.join('\n').match(/`[^`\n]+`/g) ?? [];
  return [...code, ...inline.map((span) => span.slice(1, -1))].map((line) => line.replace(/\s#\s.*$/, ''));
}

const COMMANDS = PAGES.flatMap((page) => commandsOf(read(page)).map((command) => ({ page, command })));

/** `npm run team -- init --database "$DB" --key-file F` → the CLI, its command and the options given to it. */
function cliCalls() {
  return COMMANDS.flatMap(({ page, command }) => {
    const call = /npm run (team|hub) -- ([a-z][a-z-]*)(.*)$/.exec(command);
    if (call === null) return [];
    const [, cli = '', name = '', rest = ''] = call;
    const options = (rest.split(/\s(?:&&|\||;)\s/)[0]?.match(/(?<=\s|^)--[a-z][a-z-]*/g) ?? []).filter(
      (option) => option !== '--help',
    );
    return [{ page, cli, name, options }];
  });
}

/** Each CLI's commands, with the words of the command's --help (the top level's under ''). */
const HELP: Record<string, Readonly<Record<string, string>>> = { team: TEAM_HELP, hub: HUB_HELP };

describe('the commands in the README and docs/', () => {
  it('run scripts that package.json has', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts);
    const named = COMMANDS.flatMap(({ page, command }) =>
      [...command.matchAll(/npm run ([a-z][a-z:-]*)/g)].map((match) => ({ page, script: match[1] })),
    );
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter(({ script }) => !scripts.includes(script ?? ''))).toEqual([]);
  });

  it('name files that exist (npx node FILE, npm run bench -- NAME)', () => {
    const files = COMMANDS.flatMap(({ page, command }) => [
      ...[...command.matchAll(/npx node ([\w./-]+\.ts)/g)].map((match) => ({ page, file: match[1] ?? '' })),
      ...[
        ...(/npm run bench -- ([\w\s-]+)/.exec(command)?.[1]?.matchAll(/(?<=^|\s)([a-z][\w-]*)/g) ?? []),
      ].map((match) => ({ page, file: `bench/${match[1]}.ts` })),
    ]);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter(({ file }) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it('give `npm run team` and `npm run hub` only the commands and options their --help lists', () => {
    const calls = cliCalls();
    expect(calls.length).toBeGreaterThan(30);
    const wrong = calls.flatMap(({ page, cli, name, options }) => {
      const own = HELP[cli]?.[name];
      if (own === undefined) return [`${page}: npm run ${cli} -- ${name}: no such command`];
      // `add-hub … [add-reviewer's options]`: a command whose help takes another's options.
      const borrowed = /\[([a-z-]+)'s options\]/.exec(own)?.[1];
      const words = `${own}${borrowed === undefined ? '' : (HELP[cli]?.[borrowed] ?? '')}`;
      return options
        .filter((option) => !new RegExp(`${option}\\b`).test(words))
        .map((option) => `${page}: npm run ${cli} -- ${name} ${option}: not an option of ${name}`);
    });
    expect(wrong).toEqual([]);
  });
});
