// The audit feature: the signed audit log, its verification against checkpoints, and its export
// (audit/list, audit/verify, audit/head, audit/checkpoint, audit/export), and the audited move of the desk key and
// anchor between the keychain and the file (audit/moveAnchor).
import type { AuditEntryView, TreasuryHandlers } from '../../contract';
import {
  ANCHOR_MOVED_ACTION,
  type AuditRecorder,
  type AuditRow,
  type DeskSecretsKind,
  exportAudit,
  listAudit,
  parseCheckpoint,
} from '../audit';
import { actingAs, signAction } from '../operators';
import type { Kernel } from '../kernel/kernel';
import type { ProfileSelection } from '../profiles';
import { DeskError } from '../errors';
import { parseStatement } from '../ledger';
import { DEFAULT_PAGE, type Handle } from '../kernel/handle';
import { readTextFile, writeFileAtomically } from '../files/named-files';

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
}

function auditEntryView(row: AuditRow): AuditEntryView {
  const statement = parseStatement(row.statement);
  const body = statement?.body ?? {};
  const details = statement?.kind === 'system' || statement?.kind === 'action' ? (body['details'] ?? {}) : body;
  return { seq: row.seq, at: row.at, profile: row.profile, operator: row.operator, kind: row.kind, action: row.action, subject: row.subject === '' ? null : row.subject, keyFingerprint: row.keyId, details };
}

export function auditHandlers(
  { context, moveAnchor }: AuditFeatureDeps,
  handle: Handle,
): Pick<TreasuryHandlers, 'audit/list' | 'audit/verify' | 'audit/head' | 'audit/checkpoint' | 'audit/export' | 'audit/moveAnchor'> {
  return {
    'audit/moveAnchor': handle('audit/moveAnchor', async (request) => {
      const acting = await actingAs(context, request.as, 'manageSettings');
      return moveAnchor(request.to, (details) => signAction(acting, ANCHOR_MOVED_ACTION, context.trail.deskKeyId, details));
    }),
    'audit/list': handle('audit/list', (request) => {
      const page = listAudit(context.db, { limit: request.limit ?? DEFAULT_PAGE, after: request.cursor ?? null });
      return { rows: page.rows.map(auditEntryView), nextCursor: page.nextCursor };
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
    'audit/export': handle('audit/export', (request) => {
      const rows = exportAudit(context.db);
      writeFileAtomically(request.path, (append) => {
        for (const row of rows) {
          append(`${JSON.stringify({ seq: row.seq, statement: row.statement, signature: row.signature, hash: row.hash })}\n`);
        }
      });
      return { rows: rows.length, path: request.path };
    }),
  };
}
