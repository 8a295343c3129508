// Writes a file whole or not at all, safely in a folder others can write to: the one way the engine and the CLI
// write files. Invariant: the temporary file has an unpredictable name, is created exclusively (O_EXCL, never an
// existing file or a symlink planted in advance), is fsynced, and is renamed over the target (which replaces a symlink
// at the target instead of following it); on any failure it is removed and the target is untouched.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Receives the content in chunks (text as UTF-8, or bytes). */
export type AppendChunk = (chunk: string | Uint8Array) => void;

/** O_NOFOLLOW where the platform has it (not on Windows, where O_EXCL already refuses an existing name). */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const EXCLUSIVE_CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** `.<name>.<16 random hex>.partial` beside the target: hidden, unguessable, recognisably ours. */
export function temporaryNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.partial`);
}

/**
 * Writes `path` atomically with mode 0600 (when new). `content` is the whole content or a function that appends it in
 * chunks. The folder must exist (a path typed into the CLI with a typo is an error, not a new folder). Throws the file system's error (with its `code`); the caller says
 * what the file was.
 */
export function writeFileAtomically(path: string, content: string | Uint8Array | ((append: AppendChunk) => void)): void {
  const temp = temporaryNameFor(path);
  const fd = openSync(temp, EXCLUSIVE_CREATE, 0o600);
  let open = true;
  try {
    const append: AppendChunk = (chunk) => {
      // Loop: writeSync may write fewer bytes than asked.
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      let offset = 0;
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    };
    if (typeof content === 'function') content(append);
    else append(content);
    fsyncSync(fd);
    closeSync(fd);
    open = false;
    renameSync(temp, path);
  } catch (error) {
    if (open) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
    rmSync(temp, { force: true });
    throw error;
  }
}

/** A short reason for a failed write, from the error's code (for messages that name the file themselves). */
export function writeFailureReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'the folder does not exist';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a folder';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the disk is read-only';
    default:
      return `cannot be written (${code ?? (error instanceof Error ? error.message : 'error')})`;
  }
}
