// Reads a file the desk was pointed at, safely: the one way the engine and the CLI read files. Invariant: the path is
// opened once (non-blocking, so a FIFO cannot hang the open), everything is checked on that descriptor (a regular
// file, its size within the caller's bound) and at most the bound is ever read, even when the file grows meanwhile;
// a FIFO, a device such as /dev/zero, a folder or an oversized file is refused before a byte of it is read.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file was not read: `reason` is a phrase for people ("is not a regular file"), `code` what kind. */
export class FileReadError extends Error {
  override readonly name = 'FileReadError';
  constructor(
    readonly code: 'missing' | 'denied' | 'notRegular' | 'tooLarge' | 'notUtf8' | 'unreadable',
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} ${reason}`);
  }
}

/** O_NONBLOCK where the platform has it: opening a FIFO for reading then returns at once instead of waiting for a writer. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

const READ_CHUNK_BYTES = 64 * 1024;

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

function openFailure(path: string, error: unknown): FileReadError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new FileReadError('missing', path, 'does not exist');
  if (code === 'EACCES' || code === 'EPERM') return new FileReadError('denied', path, 'cannot be read: permission denied');
  if (code === 'EISDIR') return new FileReadError('notRegular', path, 'is a folder, not a file');
  return new FileReadError('unreadable', path, `cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`);
}

/** What was read: the bytes, and the file's mode (its permission bits, as the open descriptor saw them). */
export interface RegularFile {
  readonly bytes: Buffer;
  readonly mode: number;
}

/** The bytes of the regular file at `path`, at most `maxBytes` of them; anything else is a FileReadError. */
export function readRegularFile(path: string, maxBytes: number): RegularFile {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    throw openFailure(path, error);
  }
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw new FileReadError('notRegular', path, 'is a folder, not a file');
    if (!info.isFile()) throw new FileReadError('notRegular', path, 'is not a regular file (a pipe, a device or a socket): save the content to a file and name that');
    if (info.size > maxBytes) throw new FileReadError('tooLarge', path, `is ${sizeText(info.size)}; at most ${sizeText(maxBytes)} are read`);
    // Read to the end, never more than one byte past the bound: a file that grew past it since fstat is refused.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) throw new FileReadError('tooLarge', path, `grew past ${sizeText(maxBytes)} while it was read`);
    }
    return { bytes: Buffer.concat(chunks, total), mode: info.mode };
  } catch (error) {
    if (error instanceof FileReadError) throw error;
    throw openFailure(path, error);
  } finally {
    closeSync(fd);
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The regular file at `path` as UTF-8 text (a byte order mark at its start is dropped), at most `maxBytes` of it. */
export function readRegularTextFile(path: string, maxBytes: number): string {
  const { bytes } = readRegularFile(path, maxBytes);
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new FileReadError('notUtf8', path, 'is not UTF-8 text');
  }
}
