// Operators of a desk profile as the store knows them: the name, the wrong-passphrase counter and lockout, and the
// operator's sealed signing keys (one per key id; the roster says which one is current). Roles, status and parties
// are deliberately absent: they come from the signed roster (core/ledger/roster.ts), never from a row here.
// Invariant: a sealed key is only ever the passphrase-sealed form; nothing here can return or store a plain key.
import { unsafeTextProblem } from '../../contract/display-text';
import { perDatabase, writeTransaction, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument, isUniqueViolation } from '../store/errors';

export interface OperatorRecord {
  readonly id: number;
  readonly profile: string;
  readonly name: string;
  readonly failedAttempts: number;
  readonly lockedUntil: number | null;
  readonly createdAt: number;
}

export interface OperatorKeyRecord {
  readonly keyId: string;
  readonly publicKey: string;
  readonly sealedKeyJson: string;
  readonly createdAt: number;
}

interface OperatorRow {
  id: number;
  profile: string;
  name: string;
  failed_attempts: number;
  locked_until: number | null;
  created_at: number;
}

const COLUMNS = 'id, profile, name, failed_attempts, locked_until, created_at';

function toRecord(row: OperatorRow): OperatorRecord {
  return { id: row.id, profile: row.profile, name: row.name, failedAttempts: row.failed_attempts, lockedUntil: row.locked_until, createdAt: row.created_at };
}

const statements = perDatabase((db) => ({
  insert: db.prepare(`INSERT INTO operators (profile, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING ${COLUMNS}`),
  byName: db.prepare(`SELECT ${COLUMNS} FROM operators WHERE profile = ? AND name = ?`),
  all: db.prepare(`SELECT ${COLUMNS} FROM operators WHERE profile = ? ORDER BY name`),
  count: db.prepare('SELECT count(*) FROM operators WHERE profile = ?').pluck(),
  removeAll: db.prepare('DELETE FROM operators WHERE profile = ?'),
  failure: db.prepare('UPDATE operators SET failed_attempts = failed_attempts + 1, updated_at = ? WHERE id = ? RETURNING failed_attempts').pluck(),
  lockUntil: db.prepare('UPDATE operators SET locked_until = ? WHERE id = ?'),
  lockedUntil: db.prepare('SELECT locked_until FROM operators WHERE id = ?').pluck(),
  reset: db.prepare('UPDATE operators SET failed_attempts = 0, locked_until = NULL, updated_at = ? WHERE id = ? AND (failed_attempts <> 0 OR locked_until IS NOT NULL)'),
  addKey: db.prepare(
    'INSERT INTO operator_keys (operator_id, key_id, public_key, sealed_key_json, created_at) VALUES (?, ?, ?, ?, ?) ' +
      'ON CONFLICT (operator_id, key_id) DO UPDATE SET sealed_key_json = excluded.sealed_key_json',
  ),
  key: db.prepare('SELECT key_id, public_key, sealed_key_json, created_at FROM operator_keys WHERE operator_id = ? AND key_id = ?'),
}));

/** Checks an operator name typed by a person: 1–64 characters, no control or text-direction characters. */
export function operatorNameProblem(name: string): string | null {
  if (name.trim() !== name || name.length < 1 || name.length > 64) return 'an operator name is 1 to 64 characters without spaces at either end';
  if (name.includes('\n')) return 'an operator name is one line';
  return unsafeTextProblem(name, 'the operator name');
}

/** The operator of a profile with this name (case-insensitive), created when absent. */
export function ensureOperator(db: WritableDB, profile: string, name: string, now: number = Date.now()): OperatorRecord {
  const problem = operatorNameProblem(name);
  if (problem) throw invalidArgument(problem);
  return writeTransaction(db, () => {
    const existing = statements(db).byName.get(profile, name) as OperatorRow | undefined;
    if (existing) return toRecord(existing);
    try {
      return toRecord(statements(db).insert.get(profile, name, now, now) as OperatorRow);
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidArgument(`an operator named ${name} already exists`);
      throw error;
    }
  });
}

export function getOperatorRecord(db: ReadableDB, profile: string, name: string): OperatorRecord | undefined {
  const row = statements(db).byName.get(profile, name.trim()) as OperatorRow | undefined;
  return row === undefined ? undefined : toRecord(row);
}

export function listOperatorRecords(db: ReadableDB, profile: string): OperatorRecord[] {
  return (statements(db).all.all(profile) as OperatorRow[]).map(toRecord);
}

export function countOperatorRecords(db: ReadableDB, profile: string): number {
  return statements(db).count.get(profile) as number;
}

/** A passphrase attempt claimed before it is checked: allowed with the count it holds, or refused while locked. */
export type PassphraseAttempt =
  | { readonly allowed: true; readonly failures: number; readonly lockedUntil: number | null }
  | { readonly allowed: false; readonly lockedUntil: number };

/**
 * Claims one passphrase attempt BEFORE the passphrase is checked, in one write transaction: refused while the
 * operator is locked; otherwise counted as a failure at once (a right passphrase clears it afterwards) and, from the
 * count the store now holds, the time before which no further attempt is checked is set. Parallel guesses (in this
 * process or another) therefore each take their own count: exactly the allowed number are ever checked.
 */
export function claimPassphraseAttempt(
  db: WritableDB,
  operatorId: number,
  waitAfter: (failures: number) => number,
  now: number = Date.now(),
): PassphraseAttempt {
  return writeTransaction(db, () => {
    const locked = statements(db).lockedUntil.get(operatorId) as number | null | undefined;
    if (locked !== null && locked !== undefined && locked > now) return { allowed: false, lockedUntil: locked };
    const failures = statements(db).failure.get(now, operatorId) as number;
    const wait = waitAfter(failures);
    const lockedUntil = wait > 0 ? now + wait : null;
    statements(db).lockUntil.run(lockedUntil, operatorId);
    return { allowed: true, failures, lockedUntil };
  });
}

/** A right passphrase clears the counter; returns whether there was anything to clear. */
export function resetPassphraseFailures(db: WritableDB, operatorId: number, now: number = Date.now()): boolean {
  return statements(db).reset.run(now, operatorId).changes === 1;
}

/** Stores a sealed key (the seal is re-written when the operator changes passphrase for the same key). */
export function saveOperatorKey(db: WritableDB, operatorId: number, key: { keyId: string; publicKey: string; sealedKeyJson: string }, now: number = Date.now()): void {
  statements(db).addKey.run(operatorId, key.keyId, key.publicKey, key.sealedKeyJson, now);
}

export function getOperatorKey(db: ReadableDB, operatorId: number, keyId: string): OperatorKeyRecord | undefined {
  const row = statements(db).key.get(operatorId, keyId) as { key_id: string; public_key: string; sealed_key_json: string; created_at: number } | undefined;
  return row === undefined ? undefined : { keyId: row.key_id, publicKey: row.public_key, sealedKeyJson: row.sealed_key_json, createdAt: row.created_at };
}

/** Forgets a profile's operators and their sealed keys (the profile is being removed). */
export function deleteOperatorRecords(db: WritableDB, profile: string): number {
  return statements(db).removeAll.run(profile).changes;
}
