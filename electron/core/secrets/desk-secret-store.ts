// Where desk-wide secrets live (the desk key, the audit anchor, the pinned trust roots): the OS keychain, or a private
// file for headless use (audit/desk-identity.ts builds both). Read and written by name; no value reaches a log, SQLite or PostgreSQL.
/** Where desk-wide secrets live: the keychain, or a private file for headless use. */
export interface DeskSecretStore {
  readonly kind: 'keychain' | 'file';
  read(name: string): Promise<string | null>;
  write(name: string, value: string): Promise<void>;
  /** Removes an entry (a move between the keychain and the file leaves no stale anchor behind). */
  remove(name: string): Promise<void>;
}
