// The audit feature: the signed audit log, its verification against checkpoints, and its export
// (audit/list, audit/verify, audit/head, audit/checkpoint, audit/export), and the audited move of the desk key and
// anchor between the keychain and the file (audit/moveAnchor).
import type { TreasuryHandlers } from '../../contract';
import { ANCHOR_MOVED_ACTION, type AuditRecorder, auditRowsWhere, type DeskSecretsKind, listAudit, parseCheckpoint } from '../audit';
import { actingAs, signAction } from '../operators';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../kernel/errors';
import { DEFAULT_PAGE, type Handle } from '../kernel/handle';
import { readTextFile, writeFileAtomically } from '../files/named-files';
import type { SessionLock } from '../session';
import { AUDIT_CSV_HEADER, auditCsvLine, AuditDescriber, auditJsonLine, auditQueryOf, AuditRowStanding, type AuditFilter } from './audit-view';

/** Moves the desk key and anchor to `to`, calling `signMove` (the admin's signed record) before anything changes. */
export type AnchorMover = (
  to: DeskSecretsKind,
  signMove: (details: { from: DeskSecretsKind; to: DeskSecretsKind; deskKeyId: string }) => Promise<unknown>,
) => Promise<{ from: DeskSecretsKind; to: DeskSecretsKind }>;
/** A checkpoint is one small JSON document (the head's seq, hash and signature). */
const CHECKPOINT_FILE_MAX_BYTES = 64 * 1024;

export interface AuditFeatureDeps {
  readonly context: Kernel & AuditRecorder & ProfileSelection;
  readonly moveAnchor: AnchorMover;
  /** The reporting time zone a CSV export writes its instants in. */
  readonly session: SessionLock;
}

/** The filter's rows (newest first for a page, oldest first for an export): the SQL narrows, the search reads sentences. */
function searchOf(describer: AuditDescriber, filter: AuditFilter): ((row: Parameters<AuditDescriber['describe']>[0]) => boolean) | undefined {
  const search = filter.search?.trim().toLowerCase() ?? '';
  return search === '' ? undefined : (row) => describer.matches(row, search);
}

export function auditHandlers(
  { context, moveAnchor, session }: AuditFeatureDeps,
  handle: Handle,
): Pick<TreasuryHandlers, 'audit/list' | 'audit/verify' | 'audit/head' | 'audit/checkpoint' | 'audit/export' | 'audit/moveAnchor'> {
  const standing = new AuditRowStanding(context.trail, context.db);
  return {
    'audit/moveAnchor': handle('audit/moveAnchor', async (request) => {
      const acting = await actingAs(context, request.as, 'manageSettings');
      return moveAnchor(request.to, (details) => signAction(acting, ANCHOR_MOVED_ACTION, context.trail.deskKeyId, details));
    }),
    'audit/list': handle('audit/list', async (request) => {
      const describer = new AuditDescriber(context.db);
      const query = auditQueryOf(context, request);
      const page = listAudit(context.db, { ...query, limit: request.limit ?? DEFAULT_PAGE, after: request.cursor ?? null }, searchOf(describer, request));
      const verificationOf = await standing.current();
      return { rows: page.rows.map((row) => ({ ...describer.describe(row), verification: verificationOf(row.seq) })), nextCursor: page.nextCursor };
    }),
    'audit/verify': handle('audit/verify', async (request) => {
      let against;
      if (request.against !== undefined) {
        try {
          against = parseCheckpoint(readTextFile(request.against, 'checkpoint', CHECKPOINT_FILE_MAX_BYTES));
        } catch (error) {
          if (error instanceof DeskError) throw error;
          throw new DeskError('invalidInput', `${request.against}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      return context.trail.verify(against ? { against } : {});
    }),
    'audit/head': handle('audit/head', () => ({ head: context.trail.head() })),
    'audit/checkpoint': handle('audit/checkpoint', (request) => {
      const checkpoint = context.trail.checkpoint();
      const head = context.trail.head();
      if (!checkpoint || !head) throw new DeskError('conflict', 'the audit log is empty: there is nothing to checkpoint yet');
      writeFileAtomically(request.path, (append) => append(`${JSON.stringify(checkpoint, null, 2)}\n`));
      context.audit({ action: 'audit/checkpoint', subject: String(head.seq), details: { fingerprint: head.fingerprint } });
      return { path: request.path, seq: head.seq, fingerprint: head.fingerprint };
    }),
    'audit/export': handle('audit/export', async (request) => {
      const describer = new AuditDescriber(context.db);
      const { path, format: wanted, ...filter } = request;
      const format = wanted ?? 'jsonl';
      const rows = auditRowsWhere(context.db, auditQueryOf(context, filter), searchOf(describer, filter));
      const verificationOf = await standing.current();
      const timeZone = session.reportingTimeZone();
      writeFileAtomically(path, (append) => {
        if (format === 'csv') append(AUDIT_CSV_HEADER);
        for (const row of rows) {
          const view = { ...describer.describe(row), verification: verificationOf(row.seq) };
          append(format === 'csv' ? auditCsvLine(row, view, timeZone) : auditJsonLine(row, view));
        }
      });
      context.audit({ action: 'audit/export', subject: path, details: { rows: rows.length, format, filter, ...(format === 'csv' ? { timeZone } : {}) } });
      return { rows: rows.length, path };
    }),
  };
}
