// The log's files: one current file and a few older ones, each at most `maxFileBytes`, in a folder only this user can
// read (0700, files 0600). Writes are synchronous appends, so the record of a crash is on disk before the process
// ends; the app and a CLI run may share the folder (each reopens the current file when the other rotated it).
import { chmodSync, closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface RotatingFileOptions {
  /** The folder of the log files; created 0700 when missing. */
  readonly folder: string;
  /** The current file's name, e.g. `treasury-desk.log`; older ones are `treasury-desk.1.log` ... (1 the newest). */
  readonly fileName: string;
  /** A file is rotated before a write would take it past this size. */
  readonly maxFileBytes: number;
  /** Files kept in all, the current one included (at least 1). */
  readonly maxFiles: number;
}

/** One file of the set: its name (no folder), size and last change. */
export interface LogFileInfo {
  readonly name: string;
  readonly bytes: number;
  readonly modifiedAt: number;
}

export class RotatingFile {
  readonly #options: RotatingFileOptions;
  #fd: number | undefined;
  #inode: number | undefined;

  constructor(options: RotatingFileOptions) {
    if (!Number.isInteger(options.maxFiles) || options.maxFiles < 1) throw new RangeError('maxFiles must be a whole number of at least 1');
    if (!Number.isInteger(options.maxFileBytes) || options.maxFileBytes < 1024) throw new RangeError('maxFileBytes must be at least 1024');
    this.#options = options;
  }

  get folder(): string {
    return this.#options.folder;
  }

  /** The path of the n-th file: 0 the current one, 1 the newest older one. */
  pathOf(index: number): string {
    return join(this.#options.folder, this.nameOf(index));
  }

  nameOf(index: number): string {
    const { fileName } = this.#options;
    if (index === 0) return fileName;
    const dot = fileName.lastIndexOf('.');
    return dot <= 0 ? `${fileName}.${index}` : `${fileName.slice(0, dot)}.${index}${fileName.slice(dot)}`;
  }

  /** Appends one line (with its line break); rotates first when the current file would grow past its limit. */
  write(line: string): void {
    const bytes = Buffer.from(line, 'utf8');
    let fd = this.#open();
    const size = fstatSync(fd).size;
    if (size > 0 && size + bytes.length > this.#options.maxFileBytes) {
      this.#rotate();
      fd = this.#open();
    }
    writeSync(fd, bytes);
  }

  /** The files that exist, current first, then older ones newest first. */
  files(): LogFileInfo[] {
    const found: LogFileInfo[] = [];
    for (let index = 0; index < this.#options.maxFiles; index += 1) {
      try {
        const stats = statSync(this.pathOf(index));
        found.push({ name: this.nameOf(index), bytes: stats.size, modifiedAt: stats.mtimeMs });
      } catch {
        // not there (yet)
      }
    }
    return found;
  }

  /** The last `maxBytes` of the log across its files, oldest first, starting at a whole line. */
  tail(maxBytes: number): string {
    const chunks: string[] = [];
    let remaining = maxBytes;
    for (const file of this.files()) {
      if (remaining <= 0) break;
      const take = Math.min(file.bytes, remaining);
      chunks.unshift(readLastBytes(join(this.#options.folder, file.name), take));
      remaining -= take;
    }
    const text = chunks.join('');
    if (remaining > 0) return text;
    const firstBreak = text.indexOf('\n');
    return firstBreak === -1 ? '' : text.slice(firstBreak + 1);
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#inode = undefined;
  }

  /** The current file, (re)opened when it is not open yet or another process rotated it away. */
  #open(): number {
    const path = this.pathOf(0);
    if (this.#fd !== undefined) {
      const current = existsSync(path) ? statSync(path).ino : undefined;
      if (current === this.#inode) return this.#fd;
      this.close();
    }
    ensurePrivateFolder(this.#options.folder);
    const fd = openSync(path, 'a', 0o600);
    const stats = fstatSync(fd);
    // A file left readable by others (an older version, a copy) is made private again.
    if ((stats.mode & 0o077) !== 0 && process.platform !== 'win32') chmodSync(path, 0o600);
    this.#fd = fd;
    this.#inode = stats.ino;
    return fd;
  }

  #rotate(): void {
    this.close();
    const last = this.#options.maxFiles - 1;
    rmSync(this.pathOf(last), { force: true });
    for (let index = last - 1; index >= 0; index -= 1) {
      const from = this.pathOf(index);
      if (existsSync(from)) renameSync(from, this.pathOf(index + 1));
    }
    // Stray files beyond the limit (a larger maxFiles before) go too.
    const prefix = this.#options.fileName.slice(0, Math.max(this.#options.fileName.lastIndexOf('.'), 0));
    for (const name of readdirSync(this.#options.folder)) {
      const match = /^(.*)\.(\d+)\.log$/.exec(name);
      if (match?.[1] === prefix && Number(match[2]) > last) rmSync(join(this.#options.folder, name), { force: true });
    }
  }
}

/** Creates `folder` (0700) or makes an existing one private again. */
export function ensurePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  try {
    if ((statSync(folder).mode & 0o077) !== 0) chmodSync(folder, 0o700);
  } catch {
    // not ours to change: the files inside are still 0600
  }
}

function readLastBytes(path: string, count: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = fstatSync(fd).size;
    const length = Math.min(count, size);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
