// Approvals of withdrawal requests: one decision (approve or reject) per operator per request, never changed.
// Who may approve, and how many approvals a request needs, is the workflow's business (core/withdrawals).
import { perDatabase, type StoreDatabase } from './database';
import { invalidArgument, isForeignKeyViolation } from './errors';

export type ApprovalDecision = 'approve' | 'reject';

export interface Approval {
  readonly id: number;
  readonly requestId: number;
  readonly operatorId: number;
  readonly decision: ApprovalDecision;
  readonly reason: string | null;
  readonly at: number;
}

export interface NewApproval {
  readonly requestId: number;
  readonly operatorId: number;
  readonly decision: ApprovalDecision;
  readonly reason?: string | null;
}

export type RecordApprovalResult =
  | { readonly recorded: true; readonly approval: Approval }
  /** This operator had already decided on this request; the first decision stands. */
  | { readonly recorded: false; readonly existing: Approval };

interface ApprovalRow {
  id: number;
  request_id: number;
  operator_id: number;
  decision: ApprovalDecision;
  reason: string | null;
  at: number;
}

const COLUMNS = 'id, request_id, operator_id, decision, reason, at';

function toApproval(row: ApprovalRow): Approval {
  return { id: row.id, requestId: row.request_id, operatorId: row.operator_id, decision: row.decision, reason: row.reason, at: row.at };
}

const statements = perDatabase((db) => ({
  insert: db.prepare(
    `INSERT INTO approvals (request_id, operator_id, decision, reason, at) VALUES (@requestId, @operatorId, @decision, @reason, @now)
     ON CONFLICT (request_id, operator_id) DO NOTHING RETURNING ${COLUMNS}`,
  ),
  one: db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE request_id = ? AND operator_id = ?`),
  forRequest: db.prepare(`SELECT ${COLUMNS} FROM approvals WHERE request_id = ? ORDER BY at, id`),
  tally: db.prepare(
    `SELECT COALESCE(SUM(decision = 'approve'), 0) AS approvals, COALESCE(SUM(decision = 'reject'), 0) AS rejections
     FROM approvals WHERE request_id = ?`,
  ),
}));

export function recordApproval(db: StoreDatabase, input: NewApproval, now: number = Date.now()): RecordApprovalResult {
  if (input.decision !== 'approve' && input.decision !== 'reject') throw invalidArgument(`unknown decision ${String(input.decision)}`);
  let row: ApprovalRow | undefined;
  try {
    row = statements(db).insert.get({ ...input, reason: input.reason ?? null, now }) as ApprovalRow | undefined;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw invalidArgument(`unknown withdrawal request ${input.requestId} or operator ${input.operatorId}`);
    throw error;
  }
  if (row !== undefined) return { recorded: true, approval: toApproval(row) };
  const existing = statements(db).one.get(input.requestId, input.operatorId) as ApprovalRow;
  return { recorded: false, existing: toApproval(existing) };
}

export function listApprovals(db: StoreDatabase, requestId: number): Approval[] {
  return (statements(db).forRequest.all(requestId) as ApprovalRow[]).map(toApproval);
}

export function approvalTally(db: StoreDatabase, requestId: number): { readonly approvals: number; readonly rejections: number } {
  return statements(db).tally.get(requestId) as { approvals: number; rejections: number };
}
