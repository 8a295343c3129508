// The completion generator's guard: a command or option name that is not a plain name is refused (it would become
// shell code), and descriptions and choices full of quotes and substitutions are quoted, so sourcing the bash script
// runs none of them; the tree lists every command with its value-taking options, the ancestors' included.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completionScript, completionTree } from '../../../electron/cli/completion';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-completion-unit-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hostileProgram(marker: string): Command {
  const program = new Command('tool').option('--db <path>', `it's $(touch ${marker}) \`touch ${marker}\``);
  program
    .command('run')
    .description(`runs "it": $(touch ${marker}); done`)
    .addOption(new Option('--mode <mode>', 'the mode').choices([`a'b`, `$(touch ${marker})`]));
  return program;
}

describe('completion scripts', () => {
  it('refuses a command or option whose name is not a plain name', () => {
    expect(() => completionScript(new Command('tool').addCommand(new Command('x;rm')), 'bash', '1.0.0')).toThrow('completion: the command "x;rm" is not a plain name');
    expect(() => completionScript(new Command('tool').option('--a$b', 'x'), 'fish', '1.0.0')).toThrow(/is not a plain name/);
  });

  it('quotes descriptions and choices: sourcing the bash script and completing runs none of them', () => {
    const marker = join(dir, 'ran');
    const path = join(dir, 'tool.bash');
    writeFileSync(path, completionScript(hostileProgram(marker), 'bash', '1.0.0'));
    const driver = 'source "$1"; COMP_WORDS=(tool run --mode ""); COMP_CWORD=3; _tool; printf "%s\\n" "${COMPREPLY[@]}"';
    const result = spawnSync('bash', ['--norc', '--noprofile', '-c', driver, 'bash', path], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual([`$(touch ${marker})`, `a'b`]);
    expect(existsSync(marker)).toBe(false);
  });

  it('lists each command with the value options it and its ancestors take', () => {
    const tree = completionTree(hostileProgram(join(dir, 'unused')));
    expect(tree.map((node) => node.path)).toEqual(['', 'run']);
    expect(tree[1]?.valueFlags).toEqual(['--db', '--mode']);
    expect(tree[0]?.subcommands.map((sub) => sub.name)).toEqual(['run', 'help']);
  });
});
