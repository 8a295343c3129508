// The CLI's window on the world: stdin/stdout/stderr, environment, terminal prompts and stop signals, injectable so
// tests can run commands in process. Input helpers fail with UsageError (exit 2) and clear text. Hidden prompts never
// echo what is typed.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { writeFailureReason, writeFileAtomically } from '../core/files/atomic-write';
import { FileReadError, readRegularTextFile } from '../core/files/bounded-read';
import { NegativeAnswer, UsageError } from './errors';

export interface PromptOptions {
  /** Do not echo what is typed (passphrases, secrets). */
  readonly hidden: boolean;
}

export interface CliIo {
  readonly stdin: () => Promise<string>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The environment the command sees; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Whether stdin is a terminal (prompts are possible); default false. */
  readonly stdinIsTTY?: boolean;
  /** Whether stderr is a terminal (progress lines are shown); default false. */
  readonly stderrIsTTY?: boolean;
  /** Asks a question on the terminal and resolves to the line typed (without the line feed). */
  readonly prompt?: (question: string, options: PromptOptions) => Promise<string>;
  /** Resolves with the signal name when the process is asked to stop (long-running commands wait for it). */
  readonly untilStopped?: () => Promise<string>;
}

export async function readAllStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** Resolves on the first SIGINT or SIGTERM. */
export function untilSignalled(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/**
 * Asks on the terminal with node:readline; the prompt goes to stderr (stdout stays for answers). With `hidden`, the
 * typed characters are not echoed: readline writes through an output stream that is muted after the question.
 * Ctrl+C or Ctrl+D cancels (exit 1).
 */
export function terminalPrompt(question: string, options: PromptOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    let muted = false;
    const output = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        if (!muted) process.stderr.write(chunk);
        callback();
      },
    });
    const rl = createInterface({ input: process.stdin, output, terminal: true });
    let answered = false;
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      if (options.hidden) process.stderr.write('\n');
      if (!answered) reject(new NegativeAnswer('cancelled at the prompt; nothing was done.', { whatToDo: 'Run the command again and answer the prompt.' }));
    });
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
    muted = options.hidden;
  });
}

/** True once stdout's reader went away (EPIPE): later output is dropped quietly and the command ends normally. */
let stdoutClosed = false;

/** Makes a closed stdout (e.g. `treasury-desk deposits list | head -1`) end output quietly instead of crashing. */
export function quietOnClosedStdout(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
      stdoutClosed = true;
      return;
    }
    throw error;
  });
}

export const processIo: CliIo = {
  stdin: () => readAllStdin(),
  stdout: (text) => {
    if (stdoutClosed) return;
    try {
      process.stdout.write(text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
      stdoutClosed = true;
    }
  },
  stderr: (text) => process.stderr.write(text),
  get env() {
    return process.env;
  },
  get stdinIsTTY() {
    return process.stdin.isTTY === true;
  },
  get stderrIsTTY() {
    return process.stderr.isTTY === true;
  },
  prompt: terminalPrompt,
  untilStopped: untilSignalled,
};

/** Keys, secrets and other small texts named on the command line are far below this. */
export const ARGUMENT_FILE_MAX_BYTES = 1024 * 1024;

/**
 * Reads a text file named on the command line (core/files/bounded-read.ts: a regular file, at most `maxBytes`); a
 * missing, unreadable, special or oversized file is bad input.
 */
export function readTextFileArgument(path: string, what: string, maxBytes: number = ARGUMENT_FILE_MAX_BYTES): string {
  try {
    return readRegularTextFile(path, maxBytes);
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    const reason = error.code === 'missing' ? 'no such file' : error.code === 'denied' ? 'permission denied' : error.reason;
    throw new UsageError(`${what} file ${path}: ${reason}.`);
  }
}

/** Writes a file named on the command line whole or not at all (mode 0600 when new); an unwritable path is bad input. */
export function writeFileArgument(path: string, data: string | Uint8Array, what: string): void {
  try {
    writeFileAtomically(path, data);
  } catch (error) {
    throw new UsageError(`${what} file ${path}: ${writeFailureReason(error)}.`);
  }
}
