// Per-profile sync bookkeeping: when each resource was last attempted and last succeeded, the last error (kind and
// message, never a secret), and a JSON progress/cursor the sync code owns.
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { parseJsonColumn } from '../store/json';

/** Resources the sync code tracks; free text in SQL so new ones need no migration. */
export type SyncResource = 'deposits' | 'withdrawals' | 'balances' | 'currencies' | (string & {});

export interface SyncState {
  readonly profile: string;
  readonly resource: string;
  readonly lastAttemptAt: number | null;
  readonly lastSuccessAt: number | null;
  readonly lastErrorKind: string | null;
  readonly lastErrorMessage: string | null;
  readonly progress: unknown;
}

interface SyncRow {
  profile: string;
  resource: string;
  last_attempt_at: number | null;
  last_success_at: number | null;
  last_error_kind: string | null;
  last_error_message: string | null;
  progress_json: string | null;
}

const COLUMNS = 'profile, resource, last_attempt_at, last_success_at, last_error_kind, last_error_message, progress_json';

function toState(row: SyncRow): SyncState {
  return {
    profile: row.profile,
    resource: row.resource,
    lastAttemptAt: row.last_attempt_at,
    lastSuccessAt: row.last_success_at,
    lastErrorKind: row.last_error_kind,
    lastErrorMessage: row.last_error_message,
    progress: row.progress_json === null ? null : parseJsonColumn(row.progress_json),
  };
}

const statements = perDatabase((db) => ({
  attempt: db.prepare(
    `INSERT INTO sync_state (profile, resource, last_attempt_at) VALUES (@profile, @resource, @now)
     ON CONFLICT (profile, resource) DO UPDATE SET last_attempt_at = excluded.last_attempt_at`,
  ),
  success: db.prepare(
    `INSERT INTO sync_state (profile, resource, last_attempt_at, last_success_at, progress_json) VALUES (@profile, @resource, @now, @now, @progress)
     ON CONFLICT (profile, resource) DO UPDATE SET last_attempt_at = MAX(COALESCE(last_attempt_at, 0), excluded.last_attempt_at),
       last_success_at = excluded.last_success_at, last_error_kind = NULL, last_error_message = NULL,
       progress_json = COALESCE(excluded.progress_json, progress_json)`,
  ),
  failure: db.prepare(
    `INSERT INTO sync_state (profile, resource, last_attempt_at, last_error_kind, last_error_message) VALUES (@profile, @resource, @now, @kind, @message)
     ON CONFLICT (profile, resource) DO UPDATE SET last_attempt_at = MAX(COALESCE(last_attempt_at, 0), excluded.last_attempt_at),
       last_error_kind = excluded.last_error_kind, last_error_message = excluded.last_error_message`,
  ),
  progress: db.prepare(
    `INSERT INTO sync_state (profile, resource, progress_json) VALUES (@profile, @resource, @progress)
     ON CONFLICT (profile, resource) DO UPDATE SET progress_json = excluded.progress_json`,
  ),
  one: db.prepare(`SELECT ${COLUMNS} FROM sync_state WHERE profile = ? AND resource = ?`),
  all: db.prepare(`SELECT ${COLUMNS} FROM sync_state WHERE profile = ? ORDER BY resource`),
}));

export function recordSyncAttempt(db: WritableDB, profile: string, resource: SyncResource, now: number = Date.now()): void {
  statements(db).attempt.run({ profile, resource, now });
}

/** Marks a success, clears the last error, and stores `progress` when given (undefined keeps the stored one). */
export function recordSyncSuccess(db: WritableDB, profile: string, resource: SyncResource, progress?: unknown, now: number = Date.now()): void {
  statements(db).success.run({ profile, resource, now, progress: progress === undefined ? null : JSON.stringify(progress) });
}

export function recordSyncFailure(
  db: WritableDB,
  profile: string,
  resource: SyncResource,
  error: { readonly kind: string; readonly message: string },
  now: number = Date.now(),
): void {
  statements(db).failure.run({ profile, resource, now, kind: error.kind, message: error.message });
}

/** Saves a progress/cursor mid-run (e.g. the last getDeposits page reached), so a resumed sync continues there. */
export function setSyncProgress(db: WritableDB, profile: string, resource: SyncResource, progress: unknown): void {
  statements(db).progress.run({ profile, resource, progress: progress === undefined ? null : JSON.stringify(progress) });
}

export function getSyncState(db: ReadableDB, profile: string, resource: SyncResource): SyncState | undefined {
  const row = statements(db).one.get(profile, resource) as SyncRow | undefined;
  return row === undefined ? undefined : toState(row);
}

export function listSyncState(db: ReadableDB, profile: string): SyncState[] {
  return (statements(db).all.all(profile) as SyncRow[]).map(toState);
}
