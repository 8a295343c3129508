// The desktop methods: what the renderer needs of the desktop itself (clipboard, file dialogs, explorer links,
// this workstation's preferences), answered by the shell — Electron's main process in the app, a recording test double
// in the browser harness — never by the engine. ARCHITECTURE house rule 13: the renderer never names a file path; a
// method here asks the person with the system's dialog and hands the chosen path to the engine itself.
import { z } from 'zod';
import { EXPLORER_TARGETS } from '../chains';
import type * as Dto from './dto';
import { RENDERER_ERROR_KINDS, RENDERER_ERROR_LIMITS } from './limits';
import { actingOperator, auditFilter, chain, depositsFilter, method, none, payoutBatchId, profileName, safeText, statementPeriod, withdrawalsFilter } from './methods';
import type { PayoutBatchView } from './payouts';
import { accountingFormat, type AccountingExport } from './accounting';

/** What a file dialog led to: the person cancelled, or the file (by its name only) and what was done with it. */
export type FileOutcome<T> =
  | { readonly cancelled: true }
  | {
      readonly cancelled: false;
      /** The chosen file's name without its folder (the window never learns where files live). */
      readonly fileName: string;
      readonly value: T;
    };

/** The window's language: the system's, or one the desk speaks (renderer/src/i18n). */
export const LANGUAGE_CHOICES = ['system', 'en', 'de'] as const;
export type LanguageChoice = (typeof LANGUAGE_CHOICES)[number];

/** This workstation's desktop preferences, as the window sees them. */
export interface DesktopPreferencesView {
  /** Closing the window keeps Treasury Desk running in the tray (notifications keep coming). */
  readonly keepRunningInTray: boolean;
  /** The language the window speaks on this workstation. */
  readonly language: LanguageChoice;
}

/** A verified update waiting for the operator's restart (the notes are plain text from the signed release; shown escaped). */
export interface UpdateReadyView {
  readonly version: string;
  readonly notes: string;
}

export const DESKTOP_CONTRACT = {
  /** Puts text on the system clipboard (an address, a public key to register, a fingerprint). */
  'desktop/copyText': method(z.strictObject({ text: safeText('the text to copy').pipe(z.string().min(1).max(20_000)) }))<{ readonly copied: number }>(),
  /** Opens an address or transaction in the chain's block explorer, in the system browser. */
  'desktop/openExplorer': method(
    z.strictObject({ chain, target: z.enum(EXPLORER_TARGETS), value: z.string().min(1).max(200) }),
  )<{ readonly explorer: string; readonly url: string }>(),
  /** Saves the deposits a filter selects as CSV, to a file chosen in a save dialog. */
  'desktop/exportDepositsCsv': method(depositsFilter)<FileOutcome<{ readonly rows: number }>>(),
  /** Saves the withdrawal requests (all, or those in one state) as CSV, to a file chosen in a save dialog. */
  'desktop/exportWithdrawalsCsv': method(withdrawalsFilter)<FileOutcome<{ readonly rows: number }>>(),
  /** Saves the period's offline auditor pack (docs/auditor-pack.md) as JSON, to a file chosen in a save dialog. */
  'desktop/exportAuditPack': method(statementPeriod)<FileOutcome<{ readonly rows: number; readonly fingerprint: string }>>(),
  /** Saves a period statement as CSV, to a file chosen in a save dialog. */
  'desktop/exportStatementCsv': method(statementPeriod)<FileOutcome<{ readonly currencies: number }>>(),
  /**
   * The period's journals for Xero or QuickBooks Online: the account mapping from a file chosen in an open dialog, the
   * journals to a file chosen in a save dialog (its suggested name carries the audit head's fingerprint).
   */
  'desktop/exportAccounting': method(statementPeriod.extend({ format: accountingFormat }))<FileOutcome<Omit<AccountingExport, 'path'>>>(),
  /** Prints a period statement to PDF (ending with the audit head's fingerprint), to a file chosen in a save dialog. */
  'desktop/exportStatementPdf': method(statementPeriod)<FileOutcome<{ readonly bytes: number }>>(),
  /** Saves the audit rows the filter selects (all without one), as JSON lines or CSV chosen in the save dialog. */
  'desktop/exportAudit': method(auditFilter)<FileOutcome<{ readonly rows: number }>>(),
  /** Saves a checkpoint of the audit head (signed by the desk key), to a file chosen in a save dialog. */
  'desktop/saveCheckpoint': method(none)<FileOutcome<Omit<Dto.CheckpointView, 'path'>>>(),
  /** Verifies the audit log against a checkpoint file chosen in an open dialog. */
  'desktop/verifyAuditAgainst': method(none)<FileOutcome<Dto.AuditVerification>>(),
  /** Adds a profile from a credentials.json chosen in an open dialog. */
  'desktop/importProfile': method(z.strictObject({ name: profileName }))<FileOutcome<Dto.ProfileSummary>>(),
  /** Saves the diagnostics file for support (versions, state, the end of the log; never a secret), chosen in a save dialog. */
  'desktop/exportDiagnostics': method(none)<FileOutcome<{ readonly bytes: number }>>(),
  /** Saves every label of the profile as JSON lines (docs/labels.md), to a file chosen in a save dialog. */
  'desktop/exportLabels': method(none)<FileOutcome<{ readonly rows: number }>>(),
  /** Imports labels from a JSON-lines file chosen in an open dialog: all lines or none. */
  'desktop/importLabels': method(z.strictObject({ as: actingOperator }))<FileOutcome<{ readonly rows: number }>>(),
  /** Imports a batch payout CSV chosen in an open dialog, as the operator named (the initiator). */
  'desktop/importPayouts': method(z.strictObject({ as: actingOperator }))<FileOutcome<PayoutBatchView>>(),
  /** Imports a payee CSV chosen in an open dialog as one signed batch waiting for approval, as the operator named. */
  'desktop/importPayees': method(z.strictObject({ as: actingOperator }))<FileOutcome<Dto.PayeesView>>(),
  /** Saves a batch's results as CSV, to a file chosen in a save dialog. */
  'desktop/exportPayoutsCsv': method(z.strictObject({ id: payoutBatchId }))<FileOutcome<{ readonly rows: number }>>(),
  /**
   * The window reports an error nobody expected (a screen that failed to draw, an uncaught error or rejection): main
   * records it in the application log, redacted, at most a few a minute. Answers whether this one was recorded.
   */
  'desktop/reportError': method(
    z.strictObject({
      kind: z.enum(RENDERER_ERROR_KINDS),
      message: z.string().max(RENDERER_ERROR_LIMITS.messageChars),
      stack: z.string().max(RENDERER_ERROR_LIMITS.stackChars).optional(),
      componentStack: z.string().max(RENDERER_ERROR_LIMITS.stackChars).optional(),
    }),
  )<{ readonly recorded: boolean }>(),
  /** The verified update waiting for a restart, or null (also pushed as a desktop/updateReady event). */
  'desktop/updateReady': method(none)<{ readonly ready: UpdateReadyView | null }>(),
  /**
   * The operator chose to restart into the ready update now: refused (conflict, saying why) while a withdrawal is being
   * sent from this workstation or when no verified update is ready; otherwise the app restarts.
   */
  'desktop/restartToUpdate': method(none)<{ readonly restarting: true; readonly version: string }>(),
  'desktop/preferences': method(none)<DesktopPreferencesView>(),
  'desktop/setPreferences': method(z.strictObject({ keepRunningInTray: z.boolean().optional(), language: z.enum(LANGUAGE_CHOICES).optional() }))<DesktopPreferencesView>(),
} as const;

export type DesktopMethodName = keyof typeof DESKTOP_CONTRACT;
export const DESKTOP_METHOD_NAMES = Object.keys(DESKTOP_CONTRACT) as DesktopMethodName[];
