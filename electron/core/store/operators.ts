// Desk operators: name, role, the encoded passphrase hash (hashing lives in core/auth), disabled flag.
// Invariant: listing and lookup functions never return the hash; only getOperatorCredential does, for verification.
import { OPERATOR_ROLES, type OperatorRole } from '../auth/roles';
import { perDatabase, type StoreDatabase } from './database';
import { invalidArgument, isUniqueViolation } from './errors';

export type { OperatorRole };

export interface Operator {
  readonly id: number;
  readonly name: string;
  readonly role: OperatorRole;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly disabled: boolean;
}

export interface OperatorCredential {
  readonly id: number;
  readonly name: string;
  readonly role: OperatorRole;
  readonly disabled: boolean;
  /** The encoded hash string from core/auth (e.g. "scrypt$N$r$p$salt$key"); never the passphrase. */
  readonly passphraseHash: string;
}

export interface NewOperator {
  readonly name: string;
  readonly role: OperatorRole;
  readonly passphraseHash: string;
}

interface OperatorRow {
  id: number;
  name: string;
  role: OperatorRole;
  passphrase_hash: string;
  created_at: number;
  updated_at: number;
  disabled: number;
}

const PUBLIC_COLUMNS = 'id, name, role, created_at, updated_at, disabled';

function toOperator(row: Omit<OperatorRow, 'passphrase_hash'>): Operator {
  return { id: row.id, name: row.name, role: row.role, createdAt: row.created_at, updatedAt: row.updated_at, disabled: row.disabled === 1 };
}

function checkRole(role: string): asserts role is OperatorRole {
  if (!(OPERATOR_ROLES as readonly string[]).includes(role)) throw invalidArgument(`unknown operator role ${role}`);
}

const statements = perDatabase((db) => ({
  insert: db.prepare(
    `INSERT INTO operators (name, role, passphrase_hash, created_at, updated_at, disabled)
     VALUES (@name, @role, @hash, @now, @now, 0) RETURNING ${PUBLIC_COLUMNS}`,
  ),
  byId: db.prepare(`SELECT ${PUBLIC_COLUMNS} FROM operators WHERE id = ?`),
  byName: db.prepare(`SELECT ${PUBLIC_COLUMNS} FROM operators WHERE name = ?`),
  all: db.prepare(`SELECT ${PUBLIC_COLUMNS} FROM operators ORDER BY name`),
  credential: db.prepare('SELECT id, name, role, disabled, passphrase_hash FROM operators WHERE name = ?'),
  setRole: db.prepare('UPDATE operators SET role = ?, updated_at = ? WHERE id = ?'),
  setHash: db.prepare('UPDATE operators SET passphrase_hash = ?, updated_at = ? WHERE id = ?'),
  setDisabled: db.prepare('UPDATE operators SET disabled = ?, updated_at = ? WHERE id = ?'),
  countActiveAdmins: db.prepare("SELECT count(*) FROM operators WHERE role = 'admin' AND disabled = 0").pluck(),
}));

/** Adds an operator; names are unique ignoring case. */
export function createOperator(db: StoreDatabase, input: NewOperator, now: number = Date.now()): Operator {
  checkRole(input.role);
  const name = input.name.trim();
  if (name === '' || name.length > 64) throw invalidArgument('operator name must be 1 to 64 characters');
  if (input.passphraseHash === '') throw invalidArgument('passphrase hash is empty');
  try {
    return toOperator(statements(db).insert.get({ name, role: input.role, hash: input.passphraseHash, now }) as OperatorRow);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidArgument(`an operator named ${name} already exists`);
    throw error;
  }
}

export function getOperator(db: StoreDatabase, id: number): Operator | undefined {
  const row = statements(db).byId.get(id) as OperatorRow | undefined;
  return row === undefined ? undefined : toOperator(row);
}

/** Case-insensitive. */
export function getOperatorByName(db: StoreDatabase, name: string): Operator | undefined {
  const row = statements(db).byName.get(name.trim()) as OperatorRow | undefined;
  return row === undefined ? undefined : toOperator(row);
}

export function listOperators(db: StoreDatabase): Operator[] {
  return (statements(db).all.all() as OperatorRow[]).map(toOperator);
}

/** The stored hash for verifying a passphrase at sign-in (case-insensitive name). */
export function getOperatorCredential(db: StoreDatabase, name: string): OperatorCredential | undefined {
  const row = statements(db).credential.get(name.trim()) as Pick<OperatorRow, 'id' | 'name' | 'role' | 'disabled' | 'passphrase_hash'> | undefined;
  if (row === undefined) return undefined;
  return { id: row.id, name: row.name, role: row.role, disabled: row.disabled === 1, passphraseHash: row.passphrase_hash };
}

export function setOperatorRole(db: StoreDatabase, id: number, role: OperatorRole, now: number = Date.now()): boolean {
  checkRole(role);
  return statements(db).setRole.run(role, now, id).changes === 1;
}

export function setOperatorPassphraseHash(db: StoreDatabase, id: number, passphraseHash: string, now: number = Date.now()): boolean {
  if (passphraseHash === '') throw invalidArgument('passphrase hash is empty');
  return statements(db).setHash.run(passphraseHash, now, id).changes === 1;
}

export function setOperatorDisabled(db: StoreDatabase, id: number, disabled: boolean, now: number = Date.now()): boolean {
  return statements(db).setDisabled.run(disabled ? 1 : 0, now, id).changes === 1;
}

/** Admins who can still sign in (the workflow refuses to disable or demote the last one). */
export function countActiveAdmins(db: StoreDatabase): number {
  return statements(db).countActiveAdmins.get() as number;
}
