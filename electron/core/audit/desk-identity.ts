// The desk key: this workstation's own Ed25519 key, which signs system events (sync, callbacks, lockouts) and audit
// checkpoints, and never counts as an operator's decision (APPROVALS.md "Desk key"). It lives in the OS keychain;
// a headless run with no keychain (`--credentials FILE`) keeps it in a 0600 file beside the database instead, with
// the same caveats as the credentials file. The same store keeps each database's audit anchor (audit/anchor.ts).
import type { KeyObject } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFileAtomically } from '../files/atomic-write';
import { readRegularTextFile } from '../files/bounded-read';
import { type DeskSecretStore, KeychainUnavailableError, type KeychainVault } from '../secrets';
import { registerSecret } from '../log/redact';
import {
  exportPrivateKey,
  generateSigningKey,
  importPrivateKey,
  keyIdOf,
  publicKeyOfPrivate,
  signBytes,
} from '../ledger';

export function keychainDeskSecrets(vault: KeychainVault): DeskSecretStore {
  return {
    kind: 'keychain',
    read: (name) => vault.readDeskEntry(name),
    write: (name, value) => vault.writeDeskEntry(name, value),
    remove: async (name) => void (await vault.removeDeskEntry(name)),
  };
}

/** The desk secrets file holds a few keys: a bound far above that, read once from a regular file. */
const DESK_SECRETS_FILE_MAX_BYTES = 1024 * 1024;

/** A JSON object of entries in one 0600 file, replaced whole on every write (temp file, fsync, rename). */
export function fileDeskSecrets(path: string): DeskSecretStore {
  const readAll = (): Record<string, string> => {
    if (!existsSync(path)) return {};
    const value = JSON.parse(readRegularTextFile(path, DESK_SECRETS_FILE_MAX_BYTES)) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, string>) : {};
  };
  return {
    kind: 'file',
    read: (name) => Promise.resolve(readAll()[name] ?? null),
    write: (name, value) => {
      const next = { ...readAll(), [name]: value };
      writeFileAtomically(path, JSON.stringify(next));
      return Promise.resolve();
    },
    remove: (name) => {
      const { [name]: _removed, ...rest } = readAll();
      writeFileAtomically(path, JSON.stringify(rest));
      return Promise.resolve();
    },
  };
}

/**
 * The keychain when it answers; the file store only when it cannot be reached AND the caller allows it (headless
 * runs with a credentials file). Decided once, at engine start.
 */
export async function chooseDeskSecrets(vault: KeychainVault, fallbackFile: string | undefined): Promise<DeskSecretStore> {
  const keychain = keychainDeskSecrets(vault);
  try {
    await keychain.read('key');
    return keychain;
  } catch (error) {
    if (fallbackFile !== undefined && error instanceof KeychainUnavailableError) return fileDeskSecrets(fallbackFile);
    throw error;
  }
}

export class DeskIdentity {
  readonly #privateKey: KeyObject;
  readonly publicKey: string;
  readonly keyId: string;

  private constructor(privateKey: KeyObject) {
    // The desk key never reaches a log, in any encoding (its keychain entry is the base64 of this DER).
    registerSecret(privateKey, 'deskKey');
    this.#privateKey = privateKey;
    this.publicKey = publicKeyOfPrivate(privateKey);
    this.keyId = keyIdOf(this.publicKey);
  }

  /** The workstation's desk key, created on first use. */
  static async load(store: DeskSecretStore): Promise<DeskIdentity> {
    const stored = await store.read('key');
    if (stored !== null) return new DeskIdentity(importPrivateKey(Buffer.from(stored, 'base64')));
    const pair = generateSigningKey();
    await store.write('key', exportPrivateKey(pair.privateKey).toString('base64'));
    return new DeskIdentity(pair.privateKey);
  }

  /** Signs a message with the desk key (statements and checkpoints add their own domain prefix). */
  sign(message: string): string {
    return signBytes(this.#privateKey, message);
  }
}
