// Runs `treasury-desk` for tests, the two ways a user meets it: in process (runCli with a captured io, prompts
// answered from a list) and as a real process (the CLI's entry bundled once per test run, bundle.ts), both captured
// whole.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { CliIo, PromptOptions } from '../../electron/cli/io';
import { runCli } from '../../electron/cli/program';
import { bundleNodeScript } from './bundle';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Captured {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** The environment the CLI sees (e.g. TREASURY_DESK_PASSPHRASE); empty unless given. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** What stdin holds (for the wire commands). */
  readonly stdin?: string;
  /** Pretend stdin is a terminal and answer prompts from this list, in order. */
  readonly answers?: readonly string[];
  /** Resolves when a long-running command should stop. */
  readonly untilStopped?: () => Promise<string>;
  /** Pretend stderr is a terminal. */
  readonly stderrIsTTY?: boolean;
  /** Called with each stdout chunk as it is written. */
  readonly onStdout?: (text: string) => void;
}

/** Runs the CLI in process with a captured io; `prompts` lists the questions asked, hidden ones marked. */
export async function runInProcess(args: readonly string[], options: RunOptions = {}): Promise<Captured & { readonly prompts: readonly string[] }> {
  let stdout = '';
  let stderr = '';
  const prompts: string[] = [];
  const answers = [...(options.answers ?? [])];
  const io: CliIo = {
    stdin: () => Promise.resolve(options.stdin ?? ''),
    stdout: (text) => {
      stdout += text;
      options.onStdout?.(text);
    },
    stderr: (text) => {
      stderr += text;
    },
    env: options.env ?? {},
    stdinIsTTY: options.answers !== undefined,
    stderrIsTTY: options.stderrIsTTY === true,
    prompt: (question: string, prompt: PromptOptions) => {
      prompts.push(`${question}${prompt.hidden ? ' [hidden]' : ''}`);
      const answer = answers.shift();
      return answer === undefined ? Promise.reject(new Error(`unexpected prompt ${question}`)) : Promise.resolve(answer);
    },
    ...(options.untilStopped ? { untilStopped: options.untilStopped } : {}),
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr, prompts };
}

/** Only the exit code and the two streams (for whole-object comparisons). */
export async function runInProcessPlain(args: readonly string[], options: RunOptions = {}): Promise<Captured> {
  const { code, stdout, stderr } = await runInProcess(args, options);
  return { code, stdout, stderr };
}

/** The environment for a real CLI process: this process's (incl. DBUS_SESSION_BUS_ADDRESS) plus `extra`. */
export function processEnv(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['NODE_OPTIONS'];
  for (const name of ['TREASURY_DESK_PASSPHRASE', 'TREASURY_DESK_NEW_PASSPHRASE', 'TREASURY_DESK_NEW_PASSPHRASE_2', 'TREASURY_DESK_INVITATION_CODE', 'TREASURY_DESK_SECRET']) {
    delete env[name];
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/**
 * Starts `treasury-desk ARGS...` as a real process, writes `stdin` and closes it; the caller reads and ends it. The CLI's
 * entry (or, for `testSeals`, cli-with-test-seals.ts) is bundled into one file once per test run (bundle.ts): a process
 * started from it runs in about half the CPU time of `node --import tsx` on the sources (0.5 s against 1.1 s for
 * `--help`), which transpiles the engine again in every process; the code is the same.
 */
export async function startCliProcess(args: readonly string[], env: NodeJS.ProcessEnv, stdin = '', options: { readonly testSeals?: boolean } = {}): Promise<ChildProcessWithoutNullStreams> {
  // testSeals: the process opens keys sealed by this test process (test/support/fast-seals.ts); otherwise it seals and
  // accepts only the app's cost, as the real CLI does.
  const bundle = await bundleNodeScript(options.testSeals === true ? 'test/support/cli-with-test-seals.ts' : 'electron/cli/index.ts', ROOT);
  const child = spawn(process.execPath, [bundle.file, ...args], { cwd: ROOT, env: { ...env, NODE_COMPILE_CACHE: bundle.compileCacheDir }, stdio: 'pipe' });
  child.stdin.end(stdin);
  return child;
}

/** Runs `treasury-desk ARGS...` as a real process to its end. */
export async function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = processEnv(), stdin = ''): Promise<Captured> {
  const child = await startCliProcess(args, env, stdin);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
