// Merchant profiles: name, base URL, merchant ID, callback listener, demo flag. Invariant: never a secret, key or
// token (those live in core/secrets and the OS keychain, ARCHITECTURE rule 2).
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument, isForeignKeyViolation, isUniqueViolation, StoreError } from '../store/errors';

export interface Profile {
  readonly name: string;
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly callbackHost: string | null;
  readonly callbackPort: number | null;
  readonly demo: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** The profiles module's part other modules take: which merchant profile the desk acts on (selection.ts ProfileChoice keeps it). */
export interface ProfileSelection {
  /** The profile to act on, or undefined when the desk has none yet. */
  activeProfileName(): string | undefined;
  /** The active profile's row; DeskError('noProfile') when none is set up. */
  activeProfile(): Profile;
}

/** Switching the profile the desk acts on, which drops the old profile's clients (connection/merchant-session.ts); most modules only read the selection. */
export interface ProfileSwitch {
  /** Switches the profile this engine acts on; drops the old profile's clients. */
  selectProfile(name: string): Promise<void>;
}

export interface NewProfile {
  readonly name: string;
  readonly baseUrl: string;
  readonly merchantId: string;
  readonly callbackHost?: string | null;
  readonly callbackPort?: number | null;
  readonly demo?: boolean;
}

export type ProfileChanges = Partial<Omit<NewProfile, 'name'>>;

interface ProfileRow {
  name: string;
  base_url: string;
  merchant_id: string;
  callback_host: string | null;
  callback_port: number | null;
  demo: number;
  created_at: number;
  updated_at: number;
}

const COLUMNS = 'name, base_url, merchant_id, callback_host, callback_port, demo, created_at, updated_at';

function toProfile(row: ProfileRow): Profile {
  return {
    name: row.name,
    baseUrl: row.base_url,
    merchantId: row.merchant_id,
    callbackHost: row.callback_host,
    callbackPort: row.callback_port,
    demo: row.demo === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const statements = perDatabase((db) => ({
  insert: db.prepare(
    `INSERT INTO profiles (${COLUMNS}) VALUES (@name, @baseUrl, @merchantId, @callbackHost, @callbackPort, @demo, @now, @now)
     RETURNING ${COLUMNS}`,
  ),
  get: db.prepare(`SELECT ${COLUMNS} FROM profiles WHERE name = ?`),
  all: db.prepare(`SELECT ${COLUMNS} FROM profiles ORDER BY name`),
  update: db.prepare(
    `UPDATE profiles SET base_url = @baseUrl, merchant_id = @merchantId, callback_host = @callbackHost,
       callback_port = @callbackPort, demo = @demo, updated_at = @now
     WHERE name = @name RETURNING ${COLUMNS}`,
  ),
  remove: db.prepare('DELETE FROM profiles WHERE name = ?'),
}));

function checkPort(port: number | null): void {
  if (port !== null && (!Number.isInteger(port) || port < 0 || port > 65535)) throw invalidArgument(`callback port ${port} is not 0–65535`);
}

export function createProfile(db: WritableDB, input: NewProfile, now: number = Date.now()): Profile {
  if (input.name.length < 1 || input.name.length > 64) throw invalidArgument('profile name must be 1 to 64 characters');
  const callbackPort = input.callbackPort ?? null;
  checkPort(callbackPort);
  try {
    const row = statements(db).insert.get({
      name: input.name,
      baseUrl: input.baseUrl,
      merchantId: input.merchantId,
      callbackHost: input.callbackHost ?? null,
      callbackPort,
      demo: input.demo === true ? 1 : 0,
      now,
    }) as ProfileRow;
    return toProfile(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw invalidArgument(`a profile named ${input.name} already exists`);
    throw error;
  }
}

export function getProfile(db: ReadableDB, name: string): Profile | undefined {
  const row = statements(db).get.get(name) as ProfileRow | undefined;
  return row === undefined ? undefined : toProfile(row);
}

export function listProfiles(db: ReadableDB): Profile[] {
  return (statements(db).all.all() as ProfileRow[]).map(toProfile);
}

export function updateProfile(db: WritableDB, name: string, changes: ProfileChanges, now: number = Date.now()): Profile {
  const current = getProfile(db, name);
  if (current === undefined) throw new StoreError('notFound', `no profile named ${name}`);
  const callbackPort = changes.callbackPort === undefined ? current.callbackPort : changes.callbackPort;
  checkPort(callbackPort);
  const row = statements(db).update.get({
    name,
    baseUrl: changes.baseUrl ?? current.baseUrl,
    merchantId: changes.merchantId ?? current.merchantId,
    callbackHost: changes.callbackHost === undefined ? current.callbackHost : changes.callbackHost,
    callbackPort,
    demo: (changes.demo ?? current.demo) ? 1 : 0,
    now,
  }) as ProfileRow;
  return toProfile(row);
}

/**
 * Deletes a profile and its cached history (currencies, balances, addresses, deposits, address book, policies,
 * sync state). Refused while withdrawal requests exist for it: those are records of money movement.
 * The audit log keeps its rows (it is append-only). Returns whether a profile was deleted.
 */
export function deleteProfile(db: WritableDB, name: string): boolean {
  try {
    return statements(db).remove.run(name).changes === 1;
  } catch (error) {
    if (isForeignKeyViolation(error)) throw invalidArgument(`profile ${name} has withdrawal requests and cannot be deleted`);
    throw error;
  }
}
