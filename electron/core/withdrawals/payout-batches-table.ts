// Batch payouts (migration 0110): a batch row caches its signed batch intent and fingerprint; its lines are
// withdrawal requests (withdrawals.ts) numbered in `payout_lines`. Caches only: decisions are checked from the
// batch's signed statements (core/payouts), never from these rows.
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument, isUniqueViolation } from '../store/errors';
import { checkPageSize, decodeCursor, toPage, type Page } from '../store/pagination';
import type { WithdrawalRequestState } from './withdrawals-table';

export interface NewPayoutBatch {
  readonly profile: string;
  readonly batchHash: string;
  readonly fingerprint: string;
  /** The canonical batch intent the request statement signed. */
  readonly batchJson: string;
  /** The imported file's name (no folder). */
  readonly sourceName: string;
  readonly initiator: string;
  readonly lineCount: number;
  readonly requestSeq: number;
}

export interface PayoutBatch extends NewPayoutBatch {
  readonly id: number;
  readonly createdAt: number;
}

interface BatchRow {
  id: number;
  profile: string;
  batch_hash: string;
  fingerprint: string;
  batch_json: string;
  source_name: string;
  initiator: string;
  line_count: number;
  request_seq: number;
  created_at: number;
}

/** A line of a batch: its number in the imported file (1 = the first payout after the header) and its request. */
export interface PayoutLineRow {
  readonly line: number;
  readonly requestId: number;
}

const BATCH_COLUMNS = 'id, profile, batch_hash, fingerprint, batch_json, source_name, initiator, line_count, request_seq, created_at';

function toBatch(row: BatchRow): PayoutBatch {
  return {
    id: row.id,
    profile: row.profile,
    batchHash: row.batch_hash,
    fingerprint: row.fingerprint,
    batchJson: row.batch_json,
    sourceName: row.source_name,
    initiator: row.initiator,
    lineCount: row.line_count,
    requestSeq: row.request_seq,
    createdAt: row.created_at,
  };
}

const statements = perDatabase((db) => ({
  insert: db.prepare(
    `INSERT INTO payout_batches (profile, batch_hash, fingerprint, batch_json, source_name, initiator, line_count, request_seq, created_at)
     VALUES (@profile, @batchHash, @fingerprint, @batchJson, @sourceName, @initiator, @lineCount, @requestSeq, @now)
     RETURNING ${BATCH_COLUMNS}`,
  ),
  insertLine: db.prepare('INSERT INTO payout_lines (batch_id, line, request_id) VALUES (?, ?, ?)'),
  byId: db.prepare(`SELECT ${BATCH_COLUMNS} FROM payout_batches WHERE id = ?`),
  byHash: db.prepare(`SELECT ${BATCH_COLUMNS} FROM payout_batches WHERE profile = ? AND batch_hash = ?`),
  lineOfRequest: db.prepare(
    `SELECT b.id AS batchId, b.batch_hash AS batchHash, l.line AS line
     FROM payout_lines l JOIN payout_batches b ON b.id = l.batch_id WHERE l.request_id = ?`,
  ),
  lines: db.prepare('SELECT line, request_id AS requestId FROM payout_lines WHERE batch_id = ? ORDER BY line'),
  // Through the lines' own batch_hash (what their decisions are signed under), newest batch first.
  withLinesIn: db.prepare(
    `SELECT ${BATCH_COLUMNS.split(', ').map((column) => `b.${column}`).join(', ')} FROM payout_batches b
     WHERE b.profile = @profile AND EXISTS (
       SELECT 1 FROM withdrawal_requests r WHERE r.batch_hash = b.batch_hash AND r.state IN (SELECT value FROM json_each(@states)))
     ORDER BY b.created_at DESC, b.id DESC`,
  ),
  firstPage: db.prepare(`SELECT ${BATCH_COLUMNS} FROM payout_batches WHERE profile = @profile ORDER BY created_at DESC, id DESC LIMIT @fetch`),
  nextPage: db.prepare(
    `SELECT ${BATCH_COLUMNS} FROM payout_batches WHERE profile = @profile AND (created_at, id) < (@afterAt, @afterId)
     ORDER BY created_at DESC, id DESC LIMIT @fetch`,
  ),
}));

export function createPayoutBatch(db: WritableDB, input: NewPayoutBatch, now: number = Date.now()): PayoutBatch {
  try {
    return toBatch(statements(db).insert.get({ ...input, now }) as BatchRow);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidArgument('this batch was already imported');
    throw error;
  }
}

export function addPayoutLine(db: WritableDB, batchId: number, line: number, requestId: number): void {
  statements(db).insertLine.run(batchId, line, requestId);
}

export function getPayoutBatch(db: ReadableDB, id: number): PayoutBatch | undefined {
  const row = statements(db).byId.get(id) as BatchRow | undefined;
  return row === undefined ? undefined : toBatch(row);
}

/** The batch `profile` stored under `batchHash` (the hash its lines' decisions are signed under), if any. */
export function getPayoutBatchByHash(db: ReadableDB, profile: string, batchHash: string): PayoutBatch | undefined {
  const row = statements(db).byHash.get(profile, batchHash) as BatchRow | undefined;
  return row === undefined ? undefined : toBatch(row);
}

/** Where a request sits in a batch: the batch's id and hash, and the line number. */
export interface PayoutLinePlace {
  readonly batchId: number;
  readonly batchHash: string;
  readonly line: number;
}

/** Undefined for a single withdrawal (or a line whose `payout_lines` row is gone). */

export function payoutLineOfRequest(db: ReadableDB, requestId: number): PayoutLinePlace | undefined {
  return statements(db).lineOfRequest.get(requestId) as PayoutLinePlace | undefined;
}

export function listPayoutLines(db: ReadableDB, batchId: number): PayoutLineRow[] {
  return statements(db).lines.all(batchId) as PayoutLineRow[];
}

/** A profile's batches with at least one line in one of `states` (e.g. those someone still has to decide on), newest first. */
export function listPayoutBatchesWithLinesIn(db: ReadableDB, profile: string, states: readonly WithdrawalRequestState[]): PayoutBatch[] {
  return (statements(db).withLinesIn.all({ profile, states: JSON.stringify(states) }) as BatchRow[]).map(toBatch);
}

/** A profile's batches, newest first, keyset-paged. */
export function listPayoutBatches(db: ReadableDB, profile: string, limit: number, after: string | null = null): Page<PayoutBatch> {
  const fetch = checkPageSize(limit) + 1;
  const rows = (
    after === null
      ? statements(db).firstPage.all({ profile, fetch })
      : (() => {
          const position = decodeCursor(after);
          return statements(db).nextPage.all({ profile, fetch, afterAt: position.at, afterId: position.id });
        })()
  ) as BatchRow[];
  return toPage(rows.map(toBatch), fetch - 1, (batch) => ({ at: batch.createdAt, id: batch.id }));
}
