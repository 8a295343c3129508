// Crash reports kept on this workstation (issue 24 part 5; docs/desktop.md "Crash reports"): one small JSON file per
// failure nobody expected (an uncaught exception in main, a window's error, a window that stopped) and the folder of
// the minidumps Electron's crashReporter writes with uploads off. Invariant: the folder is bounded (MAX reports, each
// at most maxReportBytes; the newest maxMinidumps dumps), a report passes the redactor and is never written while a
// registered secret is still in it, and nothing here ever throws at the caller (a failure is counted, not raised).
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { writeFileAtomically } from './files/atomic-write';
import { readRegularTextFile } from './files/bounded-read';
import { secretRedactor, type Redactor } from './log';

/** The folder's name in the data folder. */
export const CRASH_REPORTS_FOLDER_NAME = 'crash-reports';
/** Where Electron's crashReporter keeps its minidumps (Crashpad's database), inside the crash-reports folder. */
export const MINIDUMPS_FOLDER_NAME = 'minidumps';

/** Named bounds of the folder (docs/desktop.md "Crash reports"). */
export const CRASH_REPORT_SETTINGS = Object.freeze({
  /** Reports kept; the oldest go first. */
  maxReports: 20,
  /** A report's file is at most this big: its longest texts are cut to fit. */
  maxReportBytes: 32 * 1024,
  /** Minidumps kept (each is a few hundred KiB to a few MiB); the oldest go first. */
  maxMinidumps: 5,
  /** How deep the minidump folder is walked (Crashpad keeps `completed/`, `pending/`, `new/`). */
  minidumpFolderDepth: 3,
});

/** Which process failed: the main process, or a window (its page's own report, or the page process stopping). */
export type CrashSource = 'main' | 'window';

/** What a face hands in; `error` may be anything thrown (it is redacted like a log record). */
export interface CrashInput {
  readonly source: CrashSource;
  /** What kind of failure: `uncaughtException`, `unhandledRejection`, `render`, `error`, `pageStopped`… */
  readonly kind: string;
  readonly message: string;
  readonly error?: unknown;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** A report as it is kept and as diagnostics include it. */
export interface CrashReport {
  readonly file: string;
  readonly at: string;
  readonly source: CrashSource;
  readonly kind: string;
  readonly message: string;
  readonly appVersion: string | null;
  readonly error?: unknown;
  readonly details?: unknown;
}

/** A minidump as diagnostics list it: never its bytes (see crashFacts). */
export interface MinidumpInfo {
  readonly name: string;
  readonly bytes: number;
  readonly modifiedAt: string;
}

export interface CrashFacts {
  readonly reports: readonly CrashReport[];
  readonly minidumps: readonly MinidumpInfo[];
  /** Reports that could not be written or read since start (a full disk, a report that would have held a secret). */
  readonly failures: number;
}

/** The crash-reports folder of the desk whose database is `databasePath`: beside it, in the data folder. */
export function crashReportFolderFor(databasePath: string): string {
  return join(dirname(databasePath), CRASH_REPORTS_FOLDER_NAME);
}

const REPORT_FILE = /^crash-\d{8}T\d{9}Z-(main|window)-[0-9a-f]{8}\.json$/;
/** Texts in a report are cut to this many characters, then halved until the file fits. */
const FIRST_TEXT_LIMIT = 8 * 1024;

function compactTimestamp(at: Date): string {
  return at.toISOString().replace(/[-:.]/g, '');
}

/** Cuts every string in `value` to `limit` characters (the report's shape is kept). */
function cutTexts(value: unknown, limit: number): unknown {
  if (typeof value === 'string') return value.length > limit ? `${value.slice(0, limit)}… (cut)` : value;
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => cutTexts(item, limit));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutTexts(item, limit)]));
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export class CrashReports {
  readonly #redactor: Redactor;
  readonly #now: () => Date;
  #folder: string | undefined;
  #appVersion: string | null = null;
  #failures = 0;

  constructor(redactor: Redactor = secretRedactor, now: () => Date = () => new Date()) {
    this.#redactor = redactor;
    this.#now = now;
  }

  /** Where reports are kept from now on (the folder is made 0700 when first written), and the app's version they carry. */
  configure(folder: string, appVersion: string | null): void {
    this.#folder = folder;
    this.#appVersion = appVersion;
  }

  get folder(): string | undefined {
    return this.#folder;
  }

  /** The folder Electron's crashReporter is pointed at (app.setPath('crashDumps', …)), created 0700. */
  minidumpFolder(): string | undefined {
    const folder = this.#folder;
    if (folder === undefined) return undefined;
    const dumps = join(folder, MINIDUMPS_FOLDER_NAME);
    try {
      this.#ensureFolder(folder);
      this.#ensureFolder(dumps);
    } catch {
      this.#failures += 1;
    }
    return dumps;
  }

  /** Keeps one report of `input`; answers the file's name, or null when none was written (counted as a failure). */
  record(input: CrashInput): string | null {
    const folder = this.#folder;
    if (folder === undefined) return null;
    try {
      const at = this.#now();
      const file = `crash-${compactTimestamp(at)}-${input.source}-${randomBytes(4).toString('hex')}.json`;
      const redacted = {
        at: at.toISOString(),
        source: input.source,
        kind: this.#redactor.redactText(input.kind).slice(0, 100),
        message: this.#redactor.redactText(input.message),
        appVersion: this.#appVersion,
        ...(input.error === undefined ? {} : { error: this.#redactor.redactValue(input.error) }),
        ...(input.details === undefined ? {} : { details: this.#redactor.redactValue(input.details) }),
      };
      let text = '';
      for (let limit = FIRST_TEXT_LIMIT; ; limit = Math.floor(limit / 2)) {
        text = `${JSON.stringify(cutTexts(redacted, limit), null, 2)}\n`;
        if (Buffer.byteLength(text, 'utf8') <= CRASH_REPORT_SETTINGS.maxReportBytes || limit < 64) break;
      }
      if (Buffer.byteLength(text, 'utf8') > CRASH_REPORT_SETTINGS.maxReportBytes || this.#redactor.findSecret(text) !== null) {
        this.#failures += 1;
        return null;
      }
      this.#ensureFolder(folder);
      writeFileAtomically(join(folder, file), text);
      this.#pruneReports(folder);
      return file;
    } catch {
      this.#failures += 1;
      return null;
    }
  }

  /** Deletes all but the newest maxMinidumps minidumps (at start: Crashpad itself never prunes when uploads are off). */
  pruneMinidumps(): void {
    const dumps = this.#minidumps();
    for (const dump of dumps.slice(CRASH_REPORT_SETTINGS.maxMinidumps)) {
      try {
        rmSync(dump.path, { force: true });
      } catch {
        this.#failures += 1;
      }
    }
  }

  /**
   * The reports (newest first) and the minidumps kept, as diagnostics include them. A minidump is listed by name,
   * size and time, never its bytes: a dump of the main process is its memory, which may hold an unsealed key.
   */
  facts(): CrashFacts {
    const folder = this.#folder;
    if (folder === undefined) return { reports: [], minidumps: [], failures: this.#failures };
    const reports: CrashReport[] = [];
    for (const file of this.#reportFiles(folder)) {
      try {
        const parsed = JSON.parse(readRegularTextFile(join(folder, file), CRASH_REPORT_SETTINGS.maxReportBytes)) as unknown;
        if (!isRecord(parsed)) continue;
        const source = parsed['source'] === 'main' ? 'main' : 'window';
        reports.push({
          file,
          at: String(parsed['at'] ?? ''),
          source,
          kind: String(parsed['kind'] ?? ''),
          message: String(parsed['message'] ?? ''),
          appVersion: typeof parsed['appVersion'] === 'string' ? parsed['appVersion'] : null,
          ...(parsed['error'] === undefined ? {} : { error: parsed['error'] }),
          ...(parsed['details'] === undefined ? {} : { details: parsed['details'] }),
        });
      } catch {
        this.#failures += 1;
      }
    }
    const minidumps = this.#minidumps().map((dump) => ({ name: dump.name, bytes: dump.bytes, modifiedAt: new Date(dump.modifiedAt).toISOString() }));
    return { reports, minidumps, failures: this.#failures };
  }

  #ensureFolder(folder: string): void {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
  }

  /** The report files, newest first (their names sort by time). */
  #reportFiles(folder: string): string[] {
    try {
      return readdirSync(folder)
        .filter((name) => REPORT_FILE.test(name))
        .sort()
        .reverse();
    } catch {
      return [];
    }
  }

  #pruneReports(folder: string): void {
    for (const file of this.#reportFiles(folder).slice(CRASH_REPORT_SETTINGS.maxReports)) rmSync(join(folder, file), { force: true });
  }

  /** The `.dmp` files under the minidump folder, newest first. */
  #minidumps(): { path: string; name: string; bytes: number; modifiedAt: number }[] {
    const folder = this.#folder;
    if (folder === undefined) return [];
    const found: { path: string; name: string; bytes: number; modifiedAt: number }[] = [];
    const walk = (dir: string, relative: string, depth: number): void => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.isDirectory() && depth < CRASH_REPORT_SETTINGS.minidumpFolderDepth) walk(path, name, depth + 1);
        else if (entry.isFile() && entry.name.endsWith('.dmp')) {
          try {
            const info = statSync(path);
            found.push({ path, name, bytes: info.size, modifiedAt: info.mtimeMs });
          } catch {
            // gone since the listing
          }
        }
      }
    };
    walk(join(folder, MINIDUMPS_FOLDER_NAME), '', 1);
    return found.sort((a, b) => b.modifiedAt - a.modifiedAt || b.name.localeCompare(a.name));
  }
}

/** The process's crash reports (configured by the face that starts: main's startDesktopLog, the CLI). */
export const crashReports = new CrashReports();
