// Small input helpers for CLI commands: stdin and file arguments, failing with UsageError (exit 2) and clear text.
import { readFileSync } from 'node:fs';
import { UsageError } from './errors';

export interface CliIo {
  readonly stdin: () => Promise<string>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export async function readAllStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

export const processIo: CliIo = {
  stdin: () => readAllStdin(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** Reads a text file named on the command line; a missing or unreadable file is bad input. */
export function readTextFileArgument(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : 'cannot be read';
    throw new UsageError(`${what} file ${path}: ${reason}.`);
  }
}
