// The desktop methods (contract/desktop.ts) over a DesktopShell: Electron's clipboard, dialogs and shell in the app,
// a recording double in the browser harness (test/harness/desktop-double.ts), so the same code runs under e2e.
// Invariant: the window never names a path and never learns one — a path comes only from a dialog the person
// answered, goes straight to the engine, and what goes back names the file, not its folder.
import { basename, extname } from 'node:path';
import { explorerLink } from '../chains';
import { fail, ok, unexpectedErrorMessage, type DesktopHandlers, type Result, type TreasuryHandlers } from '../contract';
import type { FileOutcome, UpdateReadyView } from '../contract/desktop';
import { ACCOUNT_MAPPING_MAX_CHARS } from '../contract';
import { readTextFile } from '../core/files/named-files';
import { DeskError } from '../core/kernel/errors';
import { crashReports, type CrashReports } from '../core/crash-reports';
import { appLog, type Logger } from '../core/log';
import type { DesktopPreferencesStore } from './desktop-preferences';
import { RendererErrorLog } from './renderer-errors';

/** Which file a dialog is for (the double records it; tests assert on it). */
export type FilePurpose =
  | 'depositsCsv'
  | 'withdrawalsCsv'
  | 'statementCsv'
  | 'statementPdf'
  | 'auditExport'
  | 'auditCheckpoint'
  | 'auditPack'
  | 'auditCheckpointToVerify'
  | 'credentials'
  | 'diagnostics'
  | 'labelsExport'
  | 'labelsImport'
  | 'payoutsCsv'
  | 'payeesCsv'
  | 'payoutResultsCsv'
  | 'accountingMapping'
  | 'accountingExport';

export interface FileFilter {
  readonly name: string;
  readonly extensions: readonly string[];
}

export interface SaveDialogRequest {
  readonly purpose: FilePurpose;
  readonly title: string;
  /** A suggested file name (no folder): the dialog starts in the user's usual folder. */
  readonly defaultName: string;
  readonly filters: readonly FileFilter[];
}

export interface OpenDialogRequest {
  readonly purpose: FilePurpose;
  readonly title: string;
  readonly filters: readonly FileFilter[];
}

/** A notice to show with the system's notifications (main's notifier decides which and to whom). */
export interface DesktopNotice {
  /** The engine's notification id (the double records it; tests click it). */
  readonly id: string;
  readonly title: string;
  readonly body: string;
  /** The person clicked the notice. */
  readonly onClick: () => void;
}

/** The desktop primitives the handlers and the notifier need; each may throw (the handlers answer with a Result). */
export interface DesktopShell {
  writeClipboardText(text: string): void;
  /** The chosen path, or null when the person cancelled. */
  showSaveDialog(request: SaveDialogRequest): Promise<string | null>;
  /** The chosen file, or null when the person cancelled. */
  showOpenDialog(request: OpenDialogRequest): Promise<string | null>;
  /** Opens an https URL in the system browser. */
  openExternal(url: string): Promise<void>;
  /** Shows a system notification. */
  showNotification(notice: DesktopNotice): void;
  /** Shows the main window (creating it again when it was closed to the tray), restored and focused. */
  showMainWindow(): void;
  /** Prints a self-contained HTML page to PDF (Chromium's printer: a hidden window in the app, the harness's browser in e2e). */
  printHtmlToPdf(html: string): Promise<Uint8Array>;
}

/** The update channel as the window's methods see it (main/updates/desktop-updates.ts in the app; none in the harness unless a test gives one). */
export interface DesktopUpdates {
  /** The verified update waiting for a restart, or null. */
  ready(): UpdateReadyView | null;
  /** Restarts into the ready update, or says why not (a send in flight, nothing ready). */
  restart(): Result<{ readonly restarting: true; readonly version: string }>;
}

export interface DesktopHandlerOptions {
  readonly shell: DesktopShell;
  /** The engine's handlers (the desktop methods call the path-taking engine methods with the chosen path). */
  readonly engine: TreasuryHandlers;
  readonly preferences: DesktopPreferencesStore;
  /** The update channel; without one, no update is ever ready. */
  readonly updates?: DesktopUpdates;
  /** Today's date for suggested file names (tests fix it). */
  readonly now?: () => Date;
  /** Where unexpected failures and the window's error reports are recorded; default the application log. */
  readonly log?: Logger;
  /** Where a window's error report also leaves a crash report; default the data folder's (core/crash-reports.ts). */
  readonly reports?: Pick<CrashReports, 'record'>;
}

const CSV: FileFilter = { name: 'CSV', extensions: ['csv'] };
const JSON_LINES: FileFilter = { name: 'JSON lines', extensions: ['jsonl'] };
const JSON_FILE: FileFilter = { name: 'JSON', extensions: ['json'] };
const PDF: FileFilter = { name: 'PDF', extensions: ['pdf'] };

function dated(prefix: string, extension: string, now: Date): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.${extension}`;
}


/** An engine answer for a file the window only knows by name: its value, or its error with the folder taken out. */
function byFileName<T, U>(path: string, result: Result<T>, value: (answer: T) => U): Result<FileOutcome<U>> {
  const fileName = basename(path);
  if (!result.ok) {
    const message = result.error.message.split(path).join(fileName);
    return { ok: false, error: { ...result.error, message } };
  }
  return ok({ cancelled: false, fileName, value: value(result.value) });
}

const CANCELLED = ok({ cancelled: true } as const);

export function createDesktopHandlers(options: DesktopHandlerOptions): DesktopHandlers {
  const { shell, engine, preferences } = options;
  const now = options.now ?? (() => new Date());
  const log = options.log ?? appLog;
  const rendererErrors = new RendererErrorLog(log, Date.now, options.reports ?? crashReports);

  /** A desktop primitive failed (a dialog, the clipboard): recorded in the log, and answered with what to do. */
  function unexpected(method: string, error: unknown): Result<never> {
    log.error(`desktop: ${method} failed unexpectedly`, { method, error });
    const name = error instanceof Error ? error.name : 'Error';
    return fail('internal', unexpectedErrorMessage(`${method}: the desktop could not do this (${name})`));
  }

  async function saveThen<T, U>(method: string, request: SaveDialogRequest, write: (path: string) => Promise<Result<T>>, value: (answer: T) => U): Promise<Result<FileOutcome<U>>> {
    let path: string | null;
    try {
      path = await shell.showSaveDialog(request);
    } catch (error) {
      return unexpected(method, error);
    }
    if (path === null) return CANCELLED;
    return byFileName(path, await write(path), value);
  }

  async function openThen<T>(method: string, request: OpenDialogRequest, read: (path: string) => Promise<Result<T>>): Promise<Result<FileOutcome<T>>> {
    let path: string | null;
    try {
      path = await shell.showOpenDialog(request);
    } catch (error) {
      return unexpected(method, error);
    }
    if (path === null) return CANCELLED;
    return byFileName(path, await read(path), (answer) => answer);
  }

  return {
    async 'desktop/copyText'({ text }) {
      try {
        shell.writeClipboardText(text);
      } catch (error) {
        return unexpected('desktop/copyText', error);
      }
      return ok({ copied: text.length });
    },

    async 'desktop/openExplorer'({ chain, target, value }) {
      const link = explorerLink(chain, target, value);
      if (!link.ok) return fail('invalidInput', `desktop/openExplorer: ${link.reason}`, { fields: { value: link.reason } });
      try {
        await shell.openExternal(link.url);
      } catch (error) {
        return unexpected('desktop/openExplorer', error);
      }
      return ok({ explorer: link.explorer, url: link.url });
    },

    'desktop/exportDepositsCsv'(filter) {
      return saveThen(
        'desktop/exportDepositsCsv',
        { purpose: 'depositsCsv', title: 'Export deposits as CSV', defaultName: dated('deposits', 'csv', now()), filters: [CSV] },
        (path) => engine['deposits/exportCsv']({ ...filter, path }),
        (answer) => ({ rows: answer.rows }),
      );
    },

    'desktop/exportWithdrawalsCsv'(filter) {
      return saveThen(
        'desktop/exportWithdrawalsCsv',
        { purpose: 'withdrawalsCsv', title: 'Export withdrawals as CSV', defaultName: dated('withdrawals', 'csv', now()), filters: [CSV] },
        (path) => engine['withdrawals/exportCsv']({ ...filter, path }),
        (answer) => ({ rows: answer.rows }),
      );
    },

    'desktop/exportStatementCsv'(period) {
      return saveThen(
        'desktop/exportStatementCsv',
        { purpose: 'statementCsv', title: 'Export the statement as CSV', defaultName: dated('statement', 'csv', now()), filters: [CSV] },
        (path) => engine['statements/exportCsv']({ ...period, path }),
        (answer) => ({ currencies: answer.currencies }),
      );
    },

    'desktop/exportAuditPack'(period) {
      return saveThen(
        'desktop/exportAuditPack',
        { purpose: 'auditPack', title: 'Save the auditor pack', defaultName: dated('auditor-pack', 'json', now()), filters: [JSON_FILE] },
        (path) => engine['audit/pack']({ ...period, path }),
        (answer) => ({ rows: answer.rows, fingerprint: answer.auditHead.fingerprint }),
      );
    },

    async 'desktop/exportAccounting'(request) {
      // The mapping first (an open dialog), then where to save; the suggested name carries the audit head's fingerprint.
      const title = request.format === 'xero' ? 'Xero' : 'QuickBooks Online';
      let mappingPath: string | null;
      try {
        mappingPath = await shell.showOpenDialog({ purpose: 'accountingMapping', title: 'Choose the account mapping (CSV: kind,key,account)', filters: [CSV] });
      } catch (error) {
        return unexpected('desktop/exportAccounting', error);
      }
      if (mappingPath === null) return CANCELLED;
      let mapping: string;
      try {
        mapping = readTextFile(mappingPath, 'account mapping', ACCOUNT_MAPPING_MAX_CHARS);
      } catch (error) {
        if (error instanceof DeskError) return fail(error.code, error.message.split(mappingPath).join(basename(mappingPath)));
        return unexpected('desktop/exportAccounting', error);
      }
      const head = await engine['audit/head']({});
      const mark = head.ok && head.value.head !== null ? `-${head.value.head.fingerprint.replace(/[^A-Za-z0-9]+/g, '')}` : '';
      return saveThen(
        'desktop/exportAccounting',
        { purpose: 'accountingExport', title: `Export the period's journals for ${title}`, defaultName: dated(`${request.format}-journals`, 'csv', now()).replace(/\.csv$/, `${mark}.csv`), filters: [CSV] },
        (path) => engine['accounting/export']({ ...request, mapping, path }),
        ({ path: _path, ...rest }) => rest,
      );
    },

    async 'desktop/exportStatementPdf'(period) {
      // The statement is made and printed first: a period the engine refuses asks no question.
      const printable = await engine['statements/html'](period);
      if (!printable.ok) return printable;
      let pdf: string;
      try {
        pdf = Buffer.from(await shell.printHtmlToPdf(printable.value.html)).toString('base64');
      } catch (error) {
        return unexpected('desktop/exportStatementPdf', error);
      }
      return saveThen(
        'desktop/exportStatementPdf',
        { purpose: 'statementPdf', title: 'Save the statement as PDF', defaultName: dated('statement', 'pdf', now()), filters: [PDF] },
        (path) => engine['statements/savePdf']({ ...period, path, pdf }),
        (answer) => ({ bytes: answer.bytes }),
      );
    },

    'desktop/exportAudit'(filter) {
      // The person picks the format with the file type in the dialog: a .csv name writes the sentences as CSV.
      return saveThen(
        'desktop/exportAudit',
        { purpose: 'auditExport', title: 'Export the audit log', defaultName: dated('audit', 'jsonl', now()), filters: [JSON_LINES, CSV] },
        (path) => engine['audit/export']({ ...filter, path, format: extname(path).toLowerCase() === '.csv' ? 'csv' : 'jsonl' }),
        (answer) => ({ rows: answer.rows }),
      );
    },

    'desktop/saveCheckpoint'() {
      return saveThen(
        'desktop/saveCheckpoint',
        { purpose: 'auditCheckpoint', title: 'Save an audit checkpoint', defaultName: dated('audit-checkpoint', 'json', now()), filters: [JSON_FILE] },
        (path) => engine['audit/checkpoint']({ path }),
        (answer) => ({ seq: answer.seq, fingerprint: answer.fingerprint }),
      );
    },

    'desktop/verifyAuditAgainst'() {
      return openThen('desktop/verifyAuditAgainst', { purpose: 'auditCheckpointToVerify', title: 'Verify the audit log against a checkpoint', filters: [JSON_FILE] }, (path) =>
        engine['audit/verify']({ against: path }),
      );
    },

    'desktop/importProfile'({ name }) {
      return openThen('desktop/importProfile', { purpose: 'credentials', title: 'Import credentials.json', filters: [JSON_FILE] }, (path) =>
        engine['profiles/importFile']({ name, path }),
      );
    },

    'desktop/exportDiagnostics'() {
      return saveThen(
        'desktop/exportDiagnostics',
        { purpose: 'diagnostics', title: 'Export diagnostics', defaultName: dated('treasury-desk-diagnostics', 'json', now()), filters: [JSON_FILE] },
        (path) => engine['diagnostics/export']({ path }),
        (answer) => ({ bytes: answer.bytes }),
      );
    },

    'desktop/importPayouts'({ as }) {
      return openThen('desktop/importPayouts', { purpose: 'payoutsCsv', title: 'Import a batch payout CSV', filters: [CSV] }, (path) => engine['payouts/import']({ path, as }));
    },

    'desktop/importPayees'({ as }) {
      return openThen('desktop/importPayees', { purpose: 'payeesCsv', title: 'Import payees (CSV: name,note,chain,address)', filters: [CSV] }, (path) => engine['payees/import']({ path, as }));
    },

    'desktop/exportPayoutsCsv'({ id }) {
      return saveThen(
        'desktop/exportPayoutsCsv',
        { purpose: 'payoutResultsCsv', title: 'Export the batch results as CSV', defaultName: dated(`payout-batch-${id}`, 'csv', now()), filters: [CSV] },
        (path) => engine['payouts/exportCsv']({ id, path }),
        (answer) => ({ rows: answer.rows }),
      );
    },

    'desktop/exportLabels'() {
      return saveThen(
        'desktop/exportLabels',
        { purpose: 'labelsExport', title: 'Export labels', defaultName: dated('labels', 'jsonl', now()), filters: [JSON_LINES] },
        (path) => engine['labels/export']({ path }),
        (answer) => ({ rows: answer.rows }),
      );
    },

    'desktop/importLabels'({ as }) {
      return openThen('desktop/importLabels', { purpose: 'labelsImport', title: 'Import labels', filters: [JSON_LINES] }, async (path) => {
        const answer = await engine['labels/import']({ path, as });
        return answer.ok ? ok({ rows: answer.value.rows }) : answer;
      });
    },

    async 'desktop/reportError'(report) {
      return ok({ recorded: rendererErrors.record(report) });
    },

    async 'desktop/updateReady'() {
      return ok({ ready: options.updates?.ready() ?? null });
    },

    async 'desktop/restartToUpdate'() {
      if (options.updates === undefined) return fail('conflict', 'desktop/restartToUpdate: no verified update is ready; this build checks for none');
      try {
        return options.updates.restart();
      } catch (error) {
        return unexpected('desktop/restartToUpdate', error);
      }
    },

    async 'desktop/preferences'() {
      const { keepRunningInTray, language } = preferences.read();
      return ok({ keepRunningInTray, language });
    },

    async 'desktop/setPreferences'(patch) {
      try {
        const next = preferences.update({
          ...(patch.keepRunningInTray === undefined ? {} : { keepRunningInTray: patch.keepRunningInTray }),
          ...(patch.language === undefined ? {} : { language: patch.language }),
        });
        return ok({ keepRunningInTray: next.keepRunningInTray, language: next.language });
      } catch (error) {
        return unexpected('desktop/setPreferences', error);
      }
    },
  };
}
