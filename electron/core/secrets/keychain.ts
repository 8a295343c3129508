// KeychainVault: the four merchant credentials of each profile in the OS keychain through @napi-rs/keyring, the ONLY
// module that touches it (and, once, the entries an older release stored through keytar). Invariants: a profile is
// stored whole or not at all (a failed save is rolled back), invalid credentials are never stored, and no value ever
// reaches an error message.
import { parseCredentials, type CredentialsDescription, type MerchantCredentialsText, type MerchantKeys } from './credentials';
import {
  InvalidCredentialsError,
  InvalidProfileNameError,
  KeychainUnavailableError,
  ProfileExistsError,
  ProfileNotFoundError,
  type PartialWriteOutcome,
} from '../kernel/secrets-errors';
import { CREDENTIAL_FIELDS, type CredentialField } from '../kernel/credential-fields';
import { retryKeychainCall } from './no-reply-retry';
import { SecretService } from './secret-service';

/** The keychain service name every entry is stored under. */
export const KEYCHAIN_SERVICE = 'treasury-desk';

/** Windows Credential Manager refuses credential blobs over 2560 bytes (CRED_MAX_CREDENTIAL_BLOB_SIZE). */
const WINDOWS_MAX_VALUE_BYTES = 2560;

const PROFILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The keychain API the vault uses (keytar's shape, kept as the seam); the default is @napi-rs/keyring (loadKeyring),
 * tests inject their own (e.g. one that fails on the 3rd write).
 */
export interface KeytarBackend {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

/** Produces a backend on first use (the default loads @napi-rs/keyring with a dynamic import). */
export type KeytarBackendLoader = () => Promise<KeytarBackend>;

export interface KeychainVaultOptions {
  /**
   * A keytar-like backend or a loader for one. Default: @napi-rs/keyring, loaded lazily on first use, after moving
   * this service's keytar-stored entries into it (openKeychain).
   */
  readonly backend?: KeytarBackend | KeytarBackendLoader;
  /** Keychain service name. Default: KEYCHAIN_SERVICE. */
  readonly service?: string;
}

export interface SaveOptions {
  /** Overwrite a profile that already has entries. Default false: existing keys are never replaced silently. */
  readonly replace?: boolean;
}

export interface RemoveResult {
  readonly profile: string;
  /** The fields whose entries existed and were deleted (empty when the profile had none). */
  readonly removed: readonly CredentialField[];
}

/** True when `name` can be used as a profile name (it becomes the first part of each entry's account). */
export function isValidProfileName(name: string): boolean {
  return PROFILE_NAME_PATTERN.test(name);
}

/** The keychain account holding one field of one profile: `${profile}/${field}`. */
/** The keychain account of a generated, not yet registered merchant private key. */
export function pendingKeyAccount(profile: string): string {
  checkProfileName(profile);
  return `${profile}/pendingMerchantPrivateKey`;
}

/** The keychain account of a desk-wide entry; a name outside the pattern is a programming error, never sent. */
export function deskAccount(name: string): string {
  if (!/^[a-z][a-z0-9-]*(\/[0-9a-f]{1,64})?$/.test(name)) throw new Error(`not a desk entry name: ${name}`);
  return `desk:${name}`;
}

/** What each family of desk entries holds, in words for an error message (the entry's own name is the engine's). */
const DESK_ENTRY_PURPOSES: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray) => string]> = [
  [/^key$/, () => "this workstation's desk signing key"],
  [/^audit-head\//, () => "the audit log's anchor"],
  [/^team-password\//, () => 'the team database password'],
  [/^team-genesis\//, () => "the team's pinned genesis"],
  [/^webhook-queue-seal\//, () => "the webhooks' sealing key"],
  [/^webhook-secret-(\d+)\//, (match) => `the signing secret of webhook endpoint ${match[1] ?? ''}`],
];

/** "the audit log's anchor" for `audit-head/…`: what a desk entry is, for the person reading an error. */
export function deskEntryPurpose(name: string): string {
  for (const [pattern, purpose] of DESK_ENTRY_PURPOSES) {
    const match = pattern.exec(name);
    if (match) return purpose(match);
  }
  return 'a desk entry';
}

export function keychainAccount(profile: string, field: CredentialField): string {
  return `${profile}/${field}`;
}

function checkProfileName(profile: string): void {
  if (typeof profile !== 'string' || !isValidProfileName(profile)) throw new InvalidProfileNameError(String(profile));
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

/** The backend's message, unless it quotes one of the values in play (then it is withheld entirely). */
function safeDetail(error: unknown, sensitive: readonly string[]): string {
  const full = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  if (sensitive.some((value) => value.length >= 4 && full.includes(value))) {
    return 'the backend message was withheld because it quoted a credential value';
  }
  return firstLine(error);
}

/**
 * On Linux, entries live in the Secret Service only: @napi-rs/keyring would otherwise fall back silently to the kernel
 * keyring, which forgets everything at reboot (a merchant key stored there would be lost). Without a Secret Service
 * every operation fails with a clear error instead. Ignored on macOS and Windows.
 */
const ENTRY_OPTIONS = { linux: { store: 'secret-service' } } as const;

interface KeyringModule {
  AsyncEntry: new (service: string, account: string, options?: typeof ENTRY_OPTIONS) => {
    getPassword(): Promise<string | null>;
    setPassword(password: string): Promise<void>;
    deleteCredential(): Promise<boolean>;
  };
  findCredentialsAsync(service: string): Promise<Array<{ account: string; password: string }>>;
}

function isKeyringModule(value: unknown): value is KeyringModule {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate['AsyncEntry'] === 'function' && typeof candidate['findCredentialsAsync'] === 'function';
}

/** Loads @napi-rs/keyring with a dynamic import (the rest of the app works without the native module). */
export async function loadKeyring(): Promise<KeytarBackend> {
  let loaded: unknown;
  try {
    loaded = await import('@napi-rs/keyring');
  } catch (error) {
    throw new KeychainUnavailableError('moduleUnavailable', 'load @napi-rs/keyring', firstLine(error));
  }
  const namespace = loaded as { default?: unknown };
  const keyring = isKeyringModule(namespace.default) ? namespace.default : loaded;
  if (!isKeyringModule(keyring)) {
    throw new KeychainUnavailableError('moduleUnavailable', 'load @napi-rs/keyring', 'the module does not have the keyring API');
  }
  return secretServiceBackend(keyring);
}

/**
 * The keychain's four calls over @napi-rs/keyring. One entry object per service and account, reused: each AsyncEntry
 * holds its own D-Bus connection until it is garbage-collected, and a bus with dbus-daemon's built-in limits refuses a
 * user's 257th connection, so a fresh entry per call fails after some hundred operations. Every call waits out a Secret
 * Service too busy to answer within D-Bus's reply timeout, or started again since the entry's connection opened its
 * session (no-reply-retry.ts): then that entry is dropped, and the retry opens a new one.
 */
function secretServiceBackend(keyring: KeyringModule): KeytarBackend {
  const entries = new Map<string, InstanceType<KeyringModule['AsyncEntry']>>();
  const withEntry = <T>(service: string, account: string, use: (entry: InstanceType<KeyringModule['AsyncEntry']>) => Promise<T>): Promise<T> => {
    const key = JSON.stringify([service, account]);
    return retryKeychainCall(
      () => {
        let found = entries.get(key);
        if (!found) {
          found = new keyring.AsyncEntry(service, account, ENTRY_OPTIONS);
          entries.set(key, found);
        }
        return use(found);
      },
      { onRetry: () => entries.delete(key) },
    );
  };
  return {
    getPassword: (service, account) => withEntry(service, account, (entry) => entry.getPassword()),
    setPassword: (service, account, password) => withEntry(service, account, (entry) => entry.setPassword(password)),
    deletePassword: (service, account) => withEntry(service, account, (entry) => entry.deleteCredential()),
    findCredentials: (service) => retryKeychainCall(() => keyring.findCredentialsAsync(service)),
  };
}

/** What moveKeytarEntries did, by account (never values). */
export interface KeytarMoveResult {
  /** Entries now stored through @napi-rs/keyring, whose keytar item was deleted. */
  readonly moved: readonly string[];
  /** keytar items left in place because the new store already holds a different value for the same account. */
  readonly conflicting: readonly string[];
}

/**
 * Moves the entries keytar stored for `service` into `backend` (Linux only; elsewhere nothing to do and nothing done).
 * keytar wrote libsecret's generic schema, attributes `service` and `account`; @napi-rs/keyring stores and finds
 * `service` and `username`, so it cannot see them. They are read over D-Bus (SecretService), written through the
 * backend, read back, and only then deleted. An account the new store already holds with the same value only loses
 * its old item; with a different value the new one wins and the old item is kept (reported as conflicting).
 * macOS (same service/account attributes) needs no move. Windows is not handled: see docs/desktop.md.
 */
export async function moveKeytarEntries(
  service: string,
  backend: KeytarBackend,
  openSecretService: () => Promise<SecretService> = () => SecretService.open(),
): Promise<KeytarMoveResult> {
  const moved: string[] = [];
  const conflicting: string[] = [];
  if (process.platform !== 'linux') return { moved, conflicting };
  const secrets = await openSecretService();
  try {
    const items = await secrets.search({ service });
    for (const item of items) {
      const account = item.attributes.get('account');
      if (account === undefined || item.attributes.has('username')) continue;
      const value = await secrets.readText(item);
      const current = await backend.getPassword(service, account);
      if (current === null) {
        await backend.setPassword(service, account, value);
        if ((await backend.getPassword(service, account)) !== value) throw new Error(`the moved entry ${account} did not read back`);
      } else if (current !== value) {
        conflicting.push(account);
        continue;
      }
      await secrets.delete(item);
      moved.push(account);
    }
  } finally {
    secrets.close();
  }
  return { moved: moved.sort(), conflicting: conflicting.sort() };
}

/**
 * The default backend: @napi-rs/keyring, after moving this service's keytar entries into it. Runs on a vault's first
 * use in each process; once the entries are moved the search finds nothing, so later starts only pay one D-Bus query.
 * The move waits out a Secret Service that does not answer or was started again meanwhile, as every keychain call does
 * (no-reply-retry.ts): it is idempotent (each try searches again, on a new connection and session), and without the
 * retry a daemon crash at a desk's first keychain use failed the whole start (seen in CI, 2026-11-29).
 */
export async function openKeychain(
  service: string,
  openSecretService: () => Promise<SecretService> = () => SecretService.open(),
): Promise<KeytarBackend> {
  const backend = await loadKeyring();
  try {
    await retryKeychainCall(() => moveKeytarEntries(service, backend, openSecretService));
  } catch (error) {
    throw new KeychainUnavailableError('serviceUnavailable', 'move the credentials an earlier version saved into the keychain', firstLine(error));
  }
  return backend;
}

/**
 * Canonical stored form of each field: trimmed text; keys as compact base64 DER (SPKI public, PKCS#8 private),
 * which PROTOCOL §1.2 accepts and which stays well under Windows' credential size limit for 2048-bit keys.
 */
function storedValues(text: MerchantCredentialsText, keys: MerchantKeys): Record<CredentialField, string> {
  // parseCredentials has already validated every field; keys are re-exported from the parsed KeyObjects.
  const platformDer = keys.platformPublicKey.export({ format: 'der', type: 'spki' });
  const privateDer = keys.merchantPrivateKey.export({ format: 'der', type: 'pkcs8' });
  return {
    merchantId: text.merchantId.trim(),
    secret: text.secret.trim(),
    platformPublicKey: platformDer.toString('base64'),
    merchantPrivateKey: privateDer.toString('base64'),
  };
}

/**
 * The OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux) holding one entry per
 * profile and field under service `treasury-desk`, account `${profile}/${field}`. Operations of one vault run one
 * at a time, so two saves of a profile never interleave.
 */
export class KeychainVault {
  readonly service: string;
  readonly #source: KeytarBackend | KeytarBackendLoader;
  #backend: Promise<KeytarBackend> | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: KeychainVaultOptions = {}) {
    this.service = options.service ?? KEYCHAIN_SERVICE;
    this.#source = options.backend ?? (() => openKeychain(this.service));
  }

  /**
   * Validates the credentials (nothing is stored when they are invalid), then writes all four entries and reads
   * them back. When a write fails midway, every entry written so far is restored to its previous state (deleted
   * when it was new), so no half profile remains. Returns the non-secret description of what was stored.
   */
  save(profile: string, credentials: MerchantCredentialsText, options: SaveOptions = {}): Promise<CredentialsDescription> {
    return this.#serial(async () => {
      checkProfileName(profile);
      const keys = parseCredentials(credentials);
      const values = storedValues(credentials, keys);
      if (process.platform === 'win32') {
        for (const field of CREDENTIAL_FIELDS) {
          if (Buffer.byteLength(values[field], 'utf8') > WINDOWS_MAX_VALUE_BYTES) {
            throw new InvalidCredentialsError(
              field,
              `the value is too large for the Windows Credential Manager (over ${WINDOWS_MAX_VALUE_BYTES} bytes); use a 2048-bit key.`,
            );
          }
        }
      }
      const backend = await this.#backendFor(`save profile ${profile}`);
      const sensitive = [...Object.values(values), credentials.secret, credentials.merchantPrivateKey];
      const operation = `save profile ${profile}`;

      const previous = {} as Record<CredentialField, string | null>;
      for (const field of CREDENTIAL_FIELDS) {
        previous[field] = await this.#call(operation, sensitive, () => backend.getPassword(this.service, keychainAccount(profile, field)));
      }
      if (!options.replace && CREDENTIAL_FIELDS.some((field) => previous[field] !== null)) {
        throw new ProfileExistsError(profile);
      }

      const touched: CredentialField[] = [];
      try {
        for (const field of CREDENTIAL_FIELDS) {
          touched.push(field);
          await backend.setPassword(this.service, keychainAccount(profile, field), values[field]);
        }
        for (const field of CREDENTIAL_FIELDS) {
          const readBack = await backend.getPassword(this.service, keychainAccount(profile, field));
          if (readBack !== values[field]) throw new Error(`the ${field} entry did not read back as written`);
        }
      } catch (error) {
        const outcome = await this.#rollBack(backend, profile, touched, previous);
        throw new KeychainUnavailableError('serviceUnavailable', operation, safeDetail(error, sensitive), outcome);
      }
      return keys.describe();
    });
  }

  /** Reads and parses the four entries of `profile`. ProfileNotFoundError when absent or incomplete. */
  load(profile: string): Promise<MerchantKeys> {
    return this.#serial(async () => {
      checkProfileName(profile);
      const values = await this.#readAll(profile, `load profile ${profile}`);
      const missing = CREDENTIAL_FIELDS.filter((field) => values[field] === null);
      if (missing.length > 0) throw new ProfileNotFoundError(profile, missing, missing.length < CREDENTIAL_FIELDS.length);
      const text: MerchantCredentialsText = {
        merchantId: values.merchantId ?? '',
        secret: values.secret ?? '',
        platformPublicKey: values.platformPublicKey ?? '',
        merchantPrivateKey: values.merchantPrivateKey ?? '',
      };
      try {
        return parseCredentials(text);
      } catch (error) {
        if (error instanceof InvalidCredentialsError) {
          throw new InvalidCredentialsError(
            error.field,
            `the entry stored in the OS keychain for profile ${profile} is unusable (${error.message}); ` +
              'remove the profile and import it again.',
          );
        }
        throw error;
      }
    });
  }

  /** True when all four entries of `profile` exist. */
  has(profile: string): Promise<boolean> {
    return this.#serial(async () => {
      checkProfileName(profile);
      const values = await this.#readAll(profile, `check profile ${profile}`);
      return CREDENTIAL_FIELDS.every((field) => values[field] !== null);
    });
  }

  /** Deletes all four entries of `profile`; reports which existed. Removing an absent profile removes nothing. */
  remove(profile: string): Promise<RemoveResult> {
    return this.#serial(async () => {
      checkProfileName(profile);
      const backend = await this.#backendFor(`remove profile ${profile}`);
      const removed: CredentialField[] = [];
      for (const field of CREDENTIAL_FIELDS) {
        const deleted = await this.#call(`remove profile ${profile}`, [], () =>
          backend.deletePassword(this.service, keychainAccount(profile, field)),
        );
        if (deleted) removed.push(field);
      }
      return { profile, removed };
    });
  }

  /**
   * Keeps a generated merchant private key for `profile` until the platform issues the other three credentials
   * (registering the public key can take days): account `${profile}/pendingMerchantPrivateKey`. A later `save`
   * for the profile is given this key by the caller, which then calls `removePendingPrivateKey`.
   */
  savePendingPrivateKey(profile: string, privateKeyPem: string): Promise<void> {
    return this.#serial(async () => {
      checkProfileName(profile);
      const backend = await this.#backendFor(`save the generated key of profile ${profile}`);
      await this.#call(`save the generated key of profile ${profile}`, [privateKeyPem], () =>
        backend.setPassword(this.service, pendingKeyAccount(profile), privateKeyPem),
      );
    });
  }

  /** The pending private key PEM of `profile`, or null when none was generated. */
  loadPendingPrivateKey(profile: string): Promise<string | null> {
    return this.#serial(async () => {
      checkProfileName(profile);
      const backend = await this.#backendFor(`read the generated key of profile ${profile}`);
      return this.#call(`read the generated key of profile ${profile}`, [], () => backend.getPassword(this.service, pendingKeyAccount(profile)));
    });
  }

  removePendingPrivateKey(profile: string): Promise<boolean> {
    return this.#serial(async () => {
      checkProfileName(profile);
      const backend = await this.#backendFor(`remove the generated key of profile ${profile}`);
      return this.#call(`remove the generated key of profile ${profile}`, [], () => backend.deletePassword(this.service, pendingKeyAccount(profile)));
    });
  }

  /**
   * A desk-wide entry of this workstation (`desk:${name}`: the desk's signing key, the audit anchor of a database).
   * The `:` keeps these accounts apart from profile accounts, whose names cannot contain it. Null when absent.
   */
  readDeskEntry(name: string): Promise<string | null> {
    return this.#serial(async () => {
      const account = deskAccount(name);
      const purpose = deskEntryPurpose(name);
      const backend = await this.#backendFor(`read ${purpose}`);
      return this.#call(`read ${purpose}`, [], () => backend.getPassword(this.service, account));
    });
  }

  writeDeskEntry(name: string, value: string): Promise<void> {
    return this.#serial(async () => {
      const account = deskAccount(name);
      const purpose = deskEntryPurpose(name);
      const backend = await this.#backendFor(`save ${purpose}`);
      await this.#call(`save ${purpose}`, [value], () => backend.setPassword(this.service, account, value));
    });
  }

  removeDeskEntry(name: string): Promise<boolean> {
    return this.#serial(async () => {
      const account = deskAccount(name);
      const purpose = deskEntryPurpose(name);
      const backend = await this.#backendFor(`remove ${purpose}`);
      return this.#call(`remove ${purpose}`, [], () => backend.deletePassword(this.service, account));
    });
  }

  /** Names of the profiles with at least one entry, sorted (values are read by the backend but dropped at once). */
  listProfiles(): Promise<string[]> {
    return this.#serial(async () => {
      const backend = await this.#backendFor('list profiles');
      const entries = await this.#call('list profiles', [], () => backend.findCredentials(this.service));
      const profiles = new Set<string>();
      for (const { account } of entries) {
        const slash = account.lastIndexOf('/');
        const profile = account.slice(0, slash);
        const field = account.slice(slash + 1);
        if (slash > 0 && (CREDENTIAL_FIELDS as readonly string[]).includes(field) && isValidProfileName(profile)) {
          profiles.add(profile);
        }
      }
      return [...profiles].sort();
    });
  }

  async #readAll(profile: string, operation: string): Promise<Record<CredentialField, string | null>> {
    const backend = await this.#backendFor(operation);
    const values = {} as Record<CredentialField, string | null>;
    for (const field of CREDENTIAL_FIELDS) {
      values[field] = await this.#call(operation, [], () => backend.getPassword(this.service, keychainAccount(profile, field)));
    }
    return values;
  }

  /** Restores every touched entry to its previous value (or deletes it when it was new). */
  async #rollBack(
    backend: KeytarBackend,
    profile: string,
    touched: readonly CredentialField[],
    previous: Readonly<Record<CredentialField, string | null>>,
  ): Promise<PartialWriteOutcome> {
    const leftover: CredentialField[] = [];
    for (const field of [...touched].reverse()) {
      const account = keychainAccount(profile, field);
      const before = previous[field];
      try {
        if (before === null) await backend.deletePassword(this.service, account);
        else await backend.setPassword(this.service, account, before);
      } catch {
        leftover.push(field);
      }
    }
    return { rolledBack: leftover.length === 0, leftover: leftover.reverse() };
  }

  async #call<T>(operation: string, sensitive: readonly string[], run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw new KeychainUnavailableError('serviceUnavailable', operation, safeDetail(error, sensitive));
    }
  }

  /** The backend; a failure to load it is reported as a failure of `operation` (what the user asked for). */
  async #backendFor(operation: string): Promise<KeytarBackend> {
    try {
      return await this.#getBackend();
    } catch (error) {
      if (error instanceof KeychainUnavailableError && error.operation !== operation) {
        throw new KeychainUnavailableError(error.reason, operation, error.detail, undefined, { cause: error });
      }
      throw error;
    }
  }

  #getBackend(): Promise<KeytarBackend> {
    if (!this.#backend) {
      const source = this.#source;
      const pending = typeof source === 'function' ? source() : Promise.resolve(source);
      this.#backend = pending;
      // A failed load is not cached: a later call tries again (e.g. after the user unlocked the keyring).
      pending.catch(() => {
        if (this.#backend === pending) this.#backend = undefined;
      });
    }
    return this.#backend;
  }

  #serial<T>(run: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(run, run);
    this.#queue = result.catch(() => undefined);
    return result;
  }
}
