// Reading and writing the files a person names (a CLI path, a save or open dialog's choice): a bounded read of a
// regular file and a whole-or-nothing write (bounded-read.ts, atomic-write.ts), each failure bad input that names the
// file and says why. Every feature and module that takes such a path uses these two.
import { DeskError } from '../kernel/errors';
import { writeFailureReason, writeFileAtomically as writeFileWhole, type AppendChunk } from './atomic-write';
import { FileReadError, readRegularTextFile } from './bounded-read';

/** Writes a file the caller named, whole or not at all (core/files/atomic-write.ts); a failure is bad input naming it. */
export function writeFileAtomically(path: string, write: (append: AppendChunk) => void): void {
  try {
    writeFileWhole(path, (append) => write(append));
  } catch (error) {
    throw new DeskError('invalidInput', `could not write ${path}: ${writeFailureReason(error)}`);
  }
}

/**
 * Reads a UTF-8 text file a person named (core/files/bounded-read.ts: a regular file, at most `maxBytes`); a failure is
 * bad input naming it and saying why.
 */
export function readTextFile(path: string, what: string, maxBytes: number): string {
  try {
    return readRegularTextFile(path, maxBytes);
  } catch (error) {
    const reason = error instanceof FileReadError ? error.reason : error instanceof Error ? error.message : String(error);
    throw new DeskError('invalidInput', `could not read the ${what} ${path}: it ${reason}`);
  }
}
