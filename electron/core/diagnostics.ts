// The diagnostics file a person sends to support (docs/desktop.md "The log and diagnostics"): one JSON document with the versions
// (app, Electron, Chrome, Node, OS), the desk's state (schema version, how many profiles, locked, clock drift), the
// connection and sync status, the end of the application log and the crash reports kept here (core/crash-reports.ts:
// the reports whole, the minidumps by name and size only). Invariant: everything passes the redactor again, the
// text is then scanned for every secret the process has registered, and a file that would carry one is never written.
import { arch, platform, release, type as osType } from 'node:os';
import type { ConnectionState, SyncStatus } from '../contract';
import { LOG_FOLDER_NAME } from '../contract';
import { DeskError } from './kernel/errors';
import { crashReports, type CrashFacts } from './crash-reports';
import { appLog, secretRedactor, type LogFileInfo, type Redactor } from './log';

/** What identifies the file's format (a reader checks `kind` and `formatVersion`). */
export const DIAGNOSTICS_KIND = 'treasury-desk-diagnostics';
/** 2: the crash reports (`crashReports`) were added. */
export const DIAGNOSTICS_FORMAT_VERSION = 2;
/** How much of the end of the log goes in (across rotated files): enough for the last few hours of a busy desk. */
export const DIAGNOSTICS_LOG_TAIL_BYTES = 1024 * 1024;

/** The desk's state as diagnostics show it: counts and flags, never names, IDs or amounts. */
export interface DeskFacts {
  readonly schemaVersion: number;
  readonly profiles: number;
  readonly activeProfileIsDemo: boolean | null;
  readonly locked: boolean;
  readonly clockDriftSeconds: number | null;
}

/** What the log contributes: its files, the end of it (JSON lines as written) and how many lines could not be written. */
export interface LogFacts {
  readonly files: readonly LogFileInfo[];
  readonly tail: string;
  readonly writeFailures: number;
}

export interface DiagnosticsFacts {
  readonly appVersion: string;
  /** Which face wrote it: `app`, `cli` or `harness`. */
  readonly face: string;
  /** The desk, or why it could not be opened. */
  readonly desk: DeskFacts | { readonly unavailable: string };
  readonly connection: ConnectionState | null;
  /** sync/status, or why it could not be read. */
  readonly sync: SyncStatus | { readonly unavailable: string };
  readonly log: LogFacts;
  /** The crash reports and minidumps kept in the data folder: `crashReports.facts()`. */
  readonly crashes: CrashFacts;
  readonly now: Date;
}

/** The process's application log as diagnostics include it. */
export function applicationLogFacts(): LogFacts {
  return { files: appLog.files(), tail: appLog.tail(DIAGNOSTICS_LOG_TAIL_BYTES), writeFailures: appLog.writeFailures };
}

/** Runtime versions: Electron and Chrome only inside the desktop app (null in the CLI). */
function runtimeVersions(): Record<string, string | null> {
  return {
    node: process.versions.node,
    electron: process.versions['electron'] ?? null,
    chrome: process.versions['chrome'] ?? null,
    v8: process.versions.v8,
    platform: platform(),
    arch: arch(),
    osType: osType(),
    osRelease: release(),
  };
}

/** Each log line as a record (redacted again: a secret registered after the line was written is caught now). */
function tailRecords(tail: string, redactor: Redactor): unknown[] {
  const records: unknown[] = [];
  for (const line of tail.split('\n')) {
    if (line.trim() === '') continue;
    try {
      records.push(redactor.redactValue(JSON.parse(line) as unknown));
    } catch {
      records.push({ unreadableLine: redactor.redactText(line) });
    }
  }
  return records;
}

/** The diagnostics document as text (pretty JSON); throws DeskError when a registered secret would still be in it. */
export function diagnosticsText(facts: DiagnosticsFacts, redactor: Redactor): string {
  const document = {
    kind: DIAGNOSTICS_KIND,
    formatVersion: DIAGNOSTICS_FORMAT_VERSION,
    createdAt: facts.now.toISOString(),
    app: { version: facts.appVersion, face: facts.face },
    runtime: runtimeVersions(),
    desk: redactor.redactValue(facts.desk),
    connection: redactor.redactValue(facts.connection),
    sync: redactor.redactValue(facts.sync),
    log: {
      folder: `${LOG_FOLDER_NAME} (in the data folder)`,
      files: facts.log.files.map((file) => ({ name: file.name, bytes: file.bytes, modifiedAt: new Date(file.modifiedAt).toISOString() })),
      writeFailures: facts.log.writeFailures,
      tail: tailRecords(facts.log.tail, redactor),
    },
    crashReports: {
      folder: 'crash-reports (in the data folder)',
      reports: facts.crashes.reports.map((report) => redactor.redactValue(report)),
      // Listed, never included: a minidump of the main process is its memory (docs/desktop.md "Crash reports").
      minidumps: facts.crashes.minidumps,
      failures: facts.crashes.failures,
    },
  };
  // Every part that came from outside this function was redacted above (whole records; never cut short by depth).
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const found = redactor.findSecret(text);
  if (found !== null) {
    throw new DeskError('internal', `the diagnostics would contain a secret (${found}) and were not written; send the log files from the logs folder of the data folder instead, after checking them`);
  }
  return text;
}

/**
 * Diagnostics when the desk itself cannot be opened (a damaged database, no keychain): versions and the log, with
 * why the desk is missing; the moment diagnostics matter most.
 */
export function diagnosticsWithoutDesk(reason: string, appVersion: string, now: Date = new Date()): string {
  return diagnosticsText(
    { appVersion, face: appLog.face ?? 'unknown', desk: { unavailable: reason }, connection: null, sync: { unavailable: 'the desk is not open' }, log: applicationLogFacts(), crashes: crashReports.facts(), now },
    secretRedactor,
  );
}

export {
  CRASH_REPORT_SETTINGS,
  crashReportFolderFor,
  crashReports,
  CrashReports,
  type CrashFacts,
  type CrashInput,
  type CrashReport,
  type CrashSource,
  type MinidumpInfo,
} from './crash-reports';
