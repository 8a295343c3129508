// The application log (house rule 14): one logger per process, shared by the engine, the Electron main process and
// the CLI, writing JSON lines (pino) to size-rotated files in `<data folder>/logs/`. Every record passes the redactor
// twice: its message and fields as values (secret fields, registered secrets, secret shapes), then the written line.
// Invariant: logging never throws and never writes a registered secret; before a face says where the log is
// (configure), records wait in memory and are written when it does.
import { dirname, join } from 'node:path';
import pino, { type Logger as PinoLogger } from 'pino';
import { LOG_FILE_NAME, LOG_FOLDER_NAME } from '../../contract/application-log';
import { secretRedactor, type Redactor } from './redact';
import { RotatingFile, type LogFileInfo } from './rotating-file';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'fatal';
/** Which process wrote a record: the desktop app's main process, a CLI run, or the browser test harness. */
export type LogFace = 'app' | 'cli' | 'harness';

/** Named settings of the log files (docs/desktop.md "The log and diagnostics"). */
export const LOG_SETTINGS = Object.freeze({
  /** A file is rotated before it would pass this size. */
  maxFileBytes: 5 * 1024 * 1024,
  /** Files kept: the current one and four older ones, 25 MiB at most in all. */
  maxFiles: 5,
  /** Records kept in memory until the face says where the log is (configure); older ones are dropped. */
  maxPendingRecords: 200,
  /** A written line longer than this is shortened to its start (a stack of stacks, a huge field). */
  maxLineBytes: 64 * 1024,
});

export interface LogConfig {
  /** The folder of the log files: `logFolderFor(databasePath)`. */
  readonly folder: string;
  readonly face: LogFace;
  /** The least severe level written; default `info`. */
  readonly level?: LogLevel;
  readonly maxFileBytes?: number;
  readonly maxFiles?: number;
}

/** What every part of the program logs through. `details` may hold anything, errors included: it is redacted. */
export interface Logger {
  debug(message: string, details?: Readonly<Record<string, unknown>>): void;
  info(message: string, details?: Readonly<Record<string, unknown>>): void;
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
  fatal(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/** The log folder of the desk whose database is `databasePath`: `logs/` beside it, in the data folder. */
export function logFolderFor(databasePath: string): string {
  return join(dirname(databasePath), LOG_FOLDER_NAME);
}

/** Fields pino writes itself; a record's own field of the same name is written with a trailing `_`. */
const RESERVED_FIELDS = new Set(['level', 'time', 'msg', 'face', 'pid']);

interface PendingRecord {
  readonly level: LogLevel;
  readonly time: string;
  readonly message: string;
  readonly fields: Record<string, unknown>;
}

export class ApplicationLog implements Logger {
  readonly #redactor: Redactor;
  #file: RotatingFile | undefined;
  #pino: PinoLogger | undefined;
  #config: LogConfig | undefined;
  #pending: PendingRecord[] = [];
  /** The time of the record being written (a pending record keeps the time it was logged). */
  #recordTime: string | undefined;
  #failures = 0;

  constructor(redactor: Redactor = secretRedactor) {
    this.#redactor = redactor;
  }

  /** Where the log is written from now on; records logged before are written first. Idempotent for the same config. */
  configure(config: LogConfig): void {
    const current = this.#config;
    if (
      current?.folder === config.folder &&
      current.face === config.face &&
      current.level === config.level &&
      current.maxFileBytes === config.maxFileBytes &&
      current.maxFiles === config.maxFiles
    ) {
      return;
    }
    this.close();
    this.#config = config;
    const file = new RotatingFile({
      folder: config.folder,
      fileName: LOG_FILE_NAME,
      maxFileBytes: config.maxFileBytes ?? LOG_SETTINGS.maxFileBytes,
      maxFiles: config.maxFiles ?? LOG_SETTINGS.maxFiles,
    });
    this.#file = file;
    const destination = { write: (line: string) => this.#writeLine(file, line) };
    this.#pino = pino(
      {
        level: config.level ?? 'info',
        base: { face: config.face, pid: process.pid },
        timestamp: () => `,"time":"${this.#recordTime ?? new Date().toISOString()}"`,
        formatters: { level: (label) => ({ level: label }) },
        messageKey: 'msg',
      },
      destination,
    );
    const pending = this.#pending;
    this.#pending = [];
    for (const record of pending) this.#emit(record);
  }

  /** Which face configured the log, or undefined before configure. */
  get face(): LogFace | undefined {
    return this.#config?.face;
  }

  /** The folder written to, or undefined before configure. */
  get folder(): string | undefined {
    return this.#config?.folder;
  }

  /** Lines that could not be written since configure (a full disk, a folder that went away). */
  get writeFailures(): number {
    return this.#failures;
  }

  /** The log files that exist, current first. */
  files(): LogFileInfo[] {
    return this.#file?.files() ?? [];
  }

  /** The last `maxBytes` of the log, oldest line first (as written: already redacted). */
  tail(maxBytes: number): string {
    return this.#file?.tail(maxBytes) ?? '';
  }

  /** Closes the current file; records wait in memory again until the next configure. */
  close(): void {
    this.#file?.close();
    this.#file = undefined;
    this.#pino = undefined;
    this.#config = undefined;
  }

  debug(message: string, details?: Readonly<Record<string, unknown>>): void {
    this.#log('debug', message, details);
  }
  info(message: string, details?: Readonly<Record<string, unknown>>): void {
    this.#log('info', message, details);
  }
  warn(message: string, details?: Readonly<Record<string, unknown>>): void {
    this.#log('warn', message, details);
  }
  error(message: string, details?: Readonly<Record<string, unknown>>): void {
    this.#log('error', message, details);
  }
  fatal(message: string, details?: Readonly<Record<string, unknown>>): void {
    this.#log('fatal', message, details);
  }

  #log(level: LogLevel, message: string, details: Readonly<Record<string, unknown>> | undefined): void {
    try {
      const record: PendingRecord = { level, time: new Date().toISOString(), message: this.#redactor.redactText(String(message)), fields: this.#fields(details) };
      if (this.#pino === undefined) {
        this.#pending.push(record);
        if (this.#pending.length > LOG_SETTINGS.maxPendingRecords) this.#pending.shift();
        return;
      }
      this.#emit(record);
    } catch {
      this.#failures += 1;
    }
  }

  #fields(details: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
    if (details === undefined) return {};
    const redacted = this.#redactor.redactValue(details);
    if (redacted === null || typeof redacted !== 'object' || Array.isArray(redacted)) return { details: redacted };
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(redacted)) fields[RESERVED_FIELDS.has(key) ? `${key}_` : key] = value;
    return fields;
  }

  #emit(record: PendingRecord): void {
    const logger = this.#pino;
    if (logger === undefined) return;
    this.#recordTime = record.time;
    try {
      logger[record.level](record.fields, record.message);
    } catch {
      this.#failures += 1;
    } finally {
      this.#recordTime = undefined;
    }
  }

  #writeLine(file: RotatingFile, line: string): void {
    try {
      let safe = this.#redactor.scrubLine(line);
      if (Buffer.byteLength(safe, 'utf8') > LOG_SETTINGS.maxLineBytes) {
        const start = safe.slice(0, 4_096);
        safe = `${JSON.stringify({ level: 'warn', time: new Date().toISOString(), msg: 'a record was too long for the log and is shortened', start })}\n`;
      }
      file.write(safe);
    } catch {
      this.#failures += 1;
    }
  }
}

/** The process's log: configured by the face (main at start, the CLI per command, the harness), used by everyone. */
export const appLog = new ApplicationLog();
