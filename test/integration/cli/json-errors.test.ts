// Errors under --json: every failure is exactly one JSON object on stderr, {"error": {code, message, whatToDo}},
// nothing on stdout, and the exit code text mode gives: commander's usage errors, the CLI's own usage errors, a
// DeskError from the engine (real sandbox and keychain), an unexpected internal error (recorded in the log), and a
// real process. Text mode is unchanged; control and bidi characters are escaped by JSON itself.
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonError } from '../../../electron/cli/errors';
import type { CliIo } from '../../../electron/cli/io';
import { runCli } from '../../../electron/cli/program';
import { UNEXPECTED_ERROR_ADVICE } from '../../../electron/contract';
import { runInProcessPlain, spawnCli, type Captured } from '../../support/cli';
import { expectFailure, expectOk, openCliDesk, type CliDesk } from './support';

/** Exit `code`, nothing on stdout, and stderr exactly one line holding one JSON object with just `error`. */
function jsonFailure(run: Captured, code: number): JsonError['error'] {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^\{[^\n]*\}\n$/);
  const parsed = JSON.parse(run.stderr) as JsonError;
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(parsed.error.whatToDo.length).toBeGreaterThan(10);
  return parsed.error;
}

describe('usage errors under --json (no desk opened)', () => {
  it("commander's own (unknown option, missing argument, missing option, bad value) are invalidInput, exit 2, naming the command's help", async () => {
    const cases: readonly (readonly [readonly string[], string, string])[] = [
      [['withdraw', 'list', '--jsn', '--json'], "unknown option '--jsn' (Did you mean --json?)", 'treasury-desk withdraw list --help'],
      [['--json', 'withdraw', 'status'], "missing required argument 'id'", 'treasury-desk withdraw status --help'],
      [['audit', 'checkpoint', '--json'], "required option '--out <file>' not specified", 'treasury-desk audit checkpoint --help'],
      [['deposits', 'list', '--limit', 'many', '--json'], "option '--limit <n>' argument 'many' is invalid. a whole number from 1 to 1000 is expected.", 'treasury-desk deposits list --help'],
      [['completion', 'tcsh', '--json'], "command-argument value 'tcsh' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.", 'treasury-desk completion --help'],
    ];
    for (const [args, message, help] of cases) {
      const error = jsonFailure(await runInProcessPlain(args), 2);
      expect(error).toEqual({ code: 'invalidInput', message, whatToDo: `Correct what the message names and run the command again (see "${help}"); nothing was changed.` });
    }
  });

  it("the CLI's own usage errors (a bare group, an unknown command, a bad duration) likewise", async () => {
    expect(jsonFailure(await runInProcessPlain(['--json', 'withdraw']), 2)).toMatchObject({
      code: 'invalidInput',
      message: 'withdraw needs a subcommand: preflight, request, approve, reject, cancel, submit, status, show, list or export (see "treasury-desk withdraw --help").',
    });
    expect(jsonFailure(await runInProcessPlain(['--json', 'frobnicate']), 2)).toMatchObject({ code: 'invalidInput', message: expect.stringMatching(/^unknown command 'frobnicate': use profile, /) });
    expect(jsonFailure(await runInProcessPlain(['settings', 'stuck-thresholds', '--pending-transfer', '2 hours', '--as', 'alice', '--json']), 2)).toEqual({
      code: 'invalidInput',
      message: '--pending-transfer must be a duration such as 30m, 2h, 1h30m or 1d; got "2 hours".',
      whatToDo: 'Correct what the message names and run the command again (see "treasury-desk settings stuck-thresholds --help"); nothing was changed.',
    });
  });

  it('text mode is unchanged: one treasury-desk line, the same exit code', async () => {
    expect(expectFailure(await runInProcessPlain(['withdraw', 'list', '--jsn']), 2)).toBe("treasury-desk: unknown option '--jsn' (Did you mean --json?)");
    // `--json` after `--` is an argument, not the option: the error stays text.
    expect(expectFailure(await runInProcessPlain(['address', 'validate', '--chain', 'doge', '--', '--json']), 2)).toMatch(/^treasury-desk: /);
  });

  it('a real process: the JSON object on stderr, nothing on stdout, exit 2', async () => {
    const error = jsonFailure(await spawnCli(['withdraw', 'approve', '7', '--json']), 2);
    expect(error).toMatchObject({ code: 'invalidInput', message: "required option '--as <operator>' not specified" });
  });
});

describe('an unexpected internal error under --json', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'td-json-errors-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** `wire encrypt` whose stdin fails to read: a failure no code path expects. */
  async function brokenStdin(json: boolean): Promise<Captured> {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(dir, 'public.pem');
    writeFileSync(keyFile, publicKey.export({ type: 'spki', format: 'pem' }));
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdin: () => Promise.reject(new Error('read EIO on stdin')),
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      env: {},
    };
    const code = await runCli([...(json ? ['--json'] : []), '--db', join(dir, 'desk.sqlite'), 'wire', 'encrypt', '--public-key', keyFile], io);
    return { code, stdout, stderr };
  }

  it('is internal, exit 1, the advice once under whatToDo, and recorded in the log', async () => {
    const error = jsonFailure(await brokenStdin(true), 1);
    expect(error).toEqual({ code: 'internal', message: 'unexpected failure: read EIO on stdin', whatToDo: `T${UNEXPECTED_ERROR_ADVICE.slice(1)}` });
    const log = join(dir, 'logs', 'treasury-desk.log');
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, 'utf8')).toContain('cli: wire encrypt failed unexpectedly');
  });

  it('in text mode is the one line it was', async () => {
    expect(expectFailure(await brokenStdin(false), 1)).toBe(`treasury-desk: unexpected failure: read EIO on stdin; ${UNEXPECTED_ERROR_ADVICE}`);
  });
});

describe('DeskErrors from the engine under --json (real sandbox and keychain)', () => {
  let desk: CliDesk;
  beforeAll(async () => {
    desk = await openCliDesk();
    expectOk(await desk.cli(['profile', 'import', desk.sandbox.credentialsPath, '--name', 'main']));
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
  });

  it('notFound: exit 1, the message without the code in front, what to do; the text line unchanged', async () => {
    const error = jsonFailure(await desk.cli(['withdraw', 'status', '999999', '--json']), 1);
    expect(error).toEqual({
      code: 'notFound',
      message: 'no withdrawal request 999999 in profile main',
      whatToDo: 'Check the name or id the message gives (the list commands show what exists), then run the command again.',
    });
    expect(expectFailure(await desk.cli(['withdraw', 'status', '999999']), 1)).toBe('treasury-desk: notFound: no withdrawal request 999999 in profile main');
  });

  it('noProfile from the engine, as a real process', async () => {
    const error = jsonFailure(await desk.spawn(['--profile', 'nosuch', 'balances', '--json']), 1);
    expect(error.code).toBe('noProfile');
    expect(error.whatToDo).toMatch(/profile import FILE/);
  });

  it('control and bidi characters in a message are JSON escapes that parse back; text shows them marked', async () => {
    const id = 'x\u202e\u001b[31m';
    const run = await desk.cli(['withdraw', 'status', id, '--json']);
    expect(run.stderr).toContain('\\u202e');
    expect(run.stderr).toContain('\\u001b');
    expect(run.stderr.includes('\u202e') || run.stderr.includes('\u001b')).toBe(false);
    const error = jsonFailure(run, 2);
    expect(error.code).toBe('invalidInput');
    expect(error.message).toContain(id);
    const text = expectFailure(await desk.cli(['withdraw', 'status', id]), 2);
    expect(text).toContain('x⟨U+202E⟩⟨U+001B⟩[31m');
  });
});
