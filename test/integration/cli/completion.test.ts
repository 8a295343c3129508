// `treasury-desk completion bash|zsh|fish` in the real shells: each script is sourced and asked to complete partial
// command lines (bash through the function `complete -p` registered, zsh through compsys in an interactive shell on a
// pseudo-terminal, fish through `complete -C`), and real subcommands, options and choices come back; the top level
// lists exactly the program's commands, so the script cannot drift from the tree. A shell missing here is skipped
// with that reason, never in CI, whose .ci/run installs zsh and fish.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../../electron/cli/program';
import { runInProcessPlain } from '../../support/cli';

const WITHDRAW = ['preflight', 'request', 'approve', 'reject', 'cancel', 'submit', 'status', 'show', 'list', 'export'];

/** The program's own top-level commands, as its help lists them (the `help` command included). */
function topLevelCommands(): string[] {
  const program = buildProgram({ stdin: () => Promise.resolve(''), stdout: () => undefined, stderr: () => undefined }, () => undefined);
  return program
    .createHelp()
    .visibleCommands(program)
    .map((command) => command.name())
    .sort();
}

function installed(shell: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
}

/** Skipped where the shell is missing, with the reason; in CI a missing shell fails instead. */
function shellAvailable(shell: string): boolean {
  if (installed(shell)) return true;
  if (process.env['CI'] === 'true') throw new Error(`${shell} is missing in CI: .ci/run installs it (SYSTEM_PACKAGES)`);
  return false;
}

let dir: string;

async function script(shell: string): Promise<string> {
  const run = await runInProcessPlain(['completion', shell]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  const path = join(dir, `treasury-desk.${shell}`);
  writeFileSync(path, run.stdout);
  return path;
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000, env: { PATH: process.env['PATH'], HOME: dir, ...env } });
  expect(result.stderr, result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-completion-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the completion command', () => {
  it('prints a script per shell naming every command of the tree, and refuses another shell', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const text = (await runInProcessPlain(['completion', shell])).stdout;
      expect(text).toMatch(/^(?:#compdef treasury-desk\n)?# Shell completion for treasury-desk \d+\.\d+\.\d+, generated from its command tree/);
      for (const command of [...topLevelCommands(), ...WITHDRAW, 'connection', '--no-check']) expect(text).toContain(command);
    }
    expect((await runInProcessPlain(['completion', 'tcsh'])).code).toBe(2);
  });
});

describe('bash', () => {
  let path: string;
  beforeAll(async () => {
    path = await script('bash');
  });

  /** The words bash would offer for `line` (the cursor at its end), through the function the script registered. */
  function complete(line: string): string[] {
    const words = line.split(' ');
    const driver = [
      'source "$1"; shift',
      'COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}',
      'spec=$(complete -p treasury-desk) || exit 3',
      'fn=${spec##*-F }; fn=${fn%% *}',
      '"$fn" treasury-desk "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
      'printf "%s\\n" "${COMPREPLY[@]}"',
    ].join('\n');
    return run('bash', ['--norc', '--noprofile', '-c', driver, 'bash', path, ...words])
      .split('\n')
      .filter((word) => word !== '')
      .sort();
  }

  it('completes commands, subcommands, options and choices from the tree', () => {
    expect(complete('treasury-desk ')).toEqual(topLevelCommands());
    expect(complete('treasury-desk wi')).toEqual(['wire', 'withdraw']);
    expect(complete('treasury-desk conn')).toEqual(['connection']);
    expect(complete('treasury-desk withdraw ')).toEqual([...WITHDRAW].sort());
    expect(complete('treasury-desk --db /tmp/desk.sqlite withdraw ap')).toEqual(['approve']);
    expect(complete('treasury-desk withdraw list --st')).toEqual(['--state', '--stuck']);
    expect(complete('treasury-desk connection --no')).toEqual(['--no-check']);
    expect(complete('treasury-desk completion ')).toEqual(['bash', 'fish', 'zsh']);
  });

  it("offers file names for an option's value, not commands", () => {
    mkdirSync(join(dir, 'desks'), { recursive: true });
    writeFileSync(join(dir, 'desks', 'main.sqlite'), '');
    expect(complete(`treasury-desk --db ${join(dir, 'desks')}/ma`)).toEqual([join(dir, 'desks', 'main.sqlite')]);
  });
});

describe.skipIf(!shellAvailable('zsh'))('zsh (skipped only where zsh is not installed: CI installs it)', () => {
  let path: string;
  beforeAll(async () => {
    path = await script('zsh');
  });

  /**
   * What zsh's completion system offers for `line`: an interactive zsh on a pseudo-terminal (zsh/zpty) sources the
   * script after compinit, gets `line` and a TAB; a compadd wrapper writes the matches compadd would add (-O) to a file,
   * and a compsys post-function marks the completion finished, which the driver waits for.
   */
  function complete(line: string, install: 'source' | 'fpath' = 'source'): string[] {
    const out = join(dir, `zsh-${Math.random().toString(36).slice(2)}`);
    const setup = join(dir, 'zsh-setup.zsh');
    const functions = join(dir, 'zfunc');
    if (install === 'fpath') {
      mkdirSync(functions, { recursive: true });
      writeFileSync(join(functions, '_treasury-desk'), readFileSync(path));
    }
    writeFileSync(
      setup,
      [
        ...(install === 'fpath' ? [`fpath=(${functions} $fpath)`] : []),
        'autoload -U compinit && compinit -u -D',
        ...(install === 'source' ? [`source ${path}`] : []),
        `compadd() { local -a matched; builtin compadd -O matched "$@"; (( \${#matched} )) && print -rl -- $matched >> ${out}.matches; builtin compadd "$@"; }`,
        `_td_finished() { print done > ${out}.done; }`,
        'comppostfuncs=(_td_finished)',
        `print ready > ${out}.ready`,
      ].join('\n'),
    );
    const driver = [
      'zmodload zsh/zpty',
      'zpty td "zsh -f -i"',
      `zpty -w td "source ${setup}"`,
      `for i in {1..300}; do [[ -e ${out}.ready ]] && break; sleep 0.1; done`,
      `zpty -w -n td "$1"$'\\t'`,
      `for i in {1..300}; do [[ -e ${out}.done ]] && break; sleep 0.1; done`,
      'zpty -d td',
      `[[ -e ${out}.done ]] || exit 3`,
      `[[ -e ${out}.matches ]] && cat ${out}.matches`,
      'exit 0',
    ].join('\n');
    return [...new Set(run('zsh', ['-f', '-c', driver, 'zsh', line]).split('\n'))].filter((word) => word !== '').sort();
  }

  it('completes commands, subcommands, options and choices from the tree', () => {
    expect(complete('treasury-desk wi')).toEqual(['wire', 'withdraw']);
    expect(complete('treasury-desk --db /tmp/desk.sqlite withdraw ap')).toEqual(['approve']);
    expect(complete('treasury-desk withdraw list --st')).toEqual(['--state', '--stuck']);
    expect(complete('treasury-desk completion ')).toEqual(['bash', 'fish', 'zsh']);
  });

  it('works installed as _treasury-desk in a folder of $fpath, as the README says', () => {
    expect(complete('treasury-desk withdraw li', 'fpath')).toEqual(['list']);
    expect(complete('treasury-desk conn', 'fpath')).toEqual(['connection']);
  });
});

describe.skipIf(!shellAvailable('fish'))('fish (skipped only where fish is not installed: CI installs it)', () => {
  let path: string;
  beforeAll(async () => {
    path = await script('fish');
  });

  /** What fish offers for `line` (`complete -C`), the words without their descriptions. */
  function complete(line: string): string[] {
    const env = { XDG_CONFIG_HOME: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), XDG_CACHE_HOME: join(dir, 'cache') };
    return run('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', path, line], env)
      .split('\n')
      .filter((entry) => entry !== '')
      .map((entry) => entry.split('\t')[0] ?? '')
      .sort();
  }

  it('completes commands with their descriptions, subcommands, options and choices from the tree', () => {
    expect(complete('treasury-desk ')).toEqual(topLevelCommands());
    expect(complete('treasury-desk wi')).toEqual(['wire', 'withdraw']);
    expect(complete('treasury-desk --db /tmp/desk.sqlite withdraw ap')).toEqual(['approve']);
    expect(complete('treasury-desk withdraw list --st')).toEqual(['--state', '--stuck']);
    expect(complete('treasury-desk completion ')).toEqual(['bash', 'fish', 'zsh']);
  });
});
