// Typed failures of the local store: every refusal names the file and says what the operator can do about it.

export type StoreErrorKind =
  /** The file is not a SQLite database, or an integrity check found damage. */
  | 'damaged'
  /** The file was written by a newer Treasury Desk (its schema version is above what this build knows). */
  | 'newerSchema'
  /** A read-only open found a database that still needs migrations this build would run. */
  | 'notMigrated'
  /** The SQLite build lacks something the store needs. */
  | 'unsupported'
  /** A migration failed; the database was left at its previous version. */
  | 'migrationFailed'
  /** A caller passed something the store cannot keep (bad cursor, bad amount text, mismatched record). */
  | 'invalidArgument'
  /** A referenced row does not exist. */
  | 'notFound';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly kind: StoreErrorKind;
  /** The database file concerned, when there is one. */
  readonly path: string | undefined;

  constructor(kind: StoreErrorKind, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.path = options.path;
  }
}

/** The advice shown whenever the cache file cannot be used; it is a cache of the platform's history plus local records. */
export function damagedMessage(path: string, detail: string): string {
  return (
    `the local cache at ${path} is damaged (${detail}). Move it aside (keep the copy: it also holds operators, ` +
    `approvals and the audit log) and run \`treasury-desk sync --full\` to rebuild the history from the platform.`
  );
}

export function invalidArgument(message: string): StoreError {
  return new StoreError('invalidArgument', message);
}

/** The SQLite extended result code of a failed statement, if any (better-sqlite3 puts it on `code`). */
export function sqliteCode(error: unknown): string | undefined {
  return error !== null && typeof error === 'object' && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = sqliteCode(error);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function isForeignKeyViolation(error: unknown): boolean {
  return sqliteCode(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
