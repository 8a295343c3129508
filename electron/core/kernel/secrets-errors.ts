// Typed errors of core/secrets, kept in the kernel because the kernel maps every error to the contract (errors.ts).
// Invariant: no message, property or cause ever holds a secret, a key or any part of a credential's value; they name
// the profile, the field and what to do.
import type { CredentialField } from './credential-fields';

export type SecretsErrorKind =
  | 'invalidCredentials'
  | 'invalidProfileName'
  | 'profileNotFound'
  | 'profileExists'
  | 'keychainUnavailable'
  | 'credentialsFile';

/** Base class: `kind` lets callers switch exhaustively without instanceof chains. */
export abstract class SecretsError extends Error {
  abstract readonly kind: SecretsErrorKind;
}

/** One of the four credentials is missing or unusable. `field` names it; its value is never repeated. */
export class InvalidCredentialsError extends SecretsError {
  readonly kind = 'invalidCredentials' as const;
  constructor(
    readonly field: CredentialField,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${field}: ${detail}`, options);
    this.name = 'InvalidCredentialsError';
  }
}

/** A profile name the keychain layout cannot hold (it becomes part of the entry's account name). */
export class InvalidProfileNameError extends SecretsError {
  readonly kind = 'invalidProfileName' as const;
  constructor(readonly profile: string) {
    super(
      `invalid profile name ${JSON.stringify(profile.slice(0, 80))}: use 1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit`,
    );
    this.name = 'InvalidProfileNameError';
  }
}

/** No (or only part of a) profile in the keychain. `missing` lists the absent fields. */
export class ProfileNotFoundError extends SecretsError {
  readonly kind = 'profileNotFound' as const;
  constructor(
    readonly profile: string,
    readonly missing: readonly CredentialField[],
    readonly incomplete: boolean,
  ) {
    super(
      incomplete
        ? `credentials for profile ${profile} in the OS keychain are incomplete (missing: ${missing.join(', ')}): ` +
            `remove the profile and import it again with \`treasury-desk profile import\``
        : `no credentials for profile ${profile} in the OS keychain: import them with \`treasury-desk profile import\``,
    );
    this.name = 'ProfileNotFoundError';
  }
}

/** `save` without `replace` on a profile that already has entries: keys are never overwritten silently. */
export class ProfileExistsError extends SecretsError {
  readonly kind = 'profileExists' as const;
  constructor(readonly profile: string) {
    super(
      `profile ${profile} already has credentials in the OS keychain: remove it first (\`treasury-desk profile remove ${profile}\`) ` +
        `or replace it explicitly`,
    );
    this.name = 'ProfileExistsError';
  }
}

/** Why the keychain could not be used. */
export type KeychainUnavailableReason = 'moduleUnavailable' | 'serviceUnavailable';

/** What happened to a save that failed after writing some entries. */
export interface PartialWriteOutcome {
  /** True when every entry written by the failed save was restored to its previous state (deleted if new). */
  readonly rolledBack: boolean;
  /** Fields whose entry may still hold a value written by the failed save (empty when rolledBack). */
  readonly leftover: readonly CredentialField[];
}

const HEADLESS_ADVICE =
  'Unlock your login keyring (GNOME Keyring or KWallet through the Secret Service, the macOS Keychain, or the ' +
  'Windows Credential Manager) and try again. On a headless machine without a Secret Service you can pass ' +
  '`--credentials FILE` instead, but that is less safe: the secret and the private key then sit in a plain file ' +
  'that any process running as your user, and every backup of that file, can read (keep it mode 600).';

/**
 * The OS keychain cannot be used: @napi-rs/keyring did not load, no Secret Service answers, or the keyring is locked.
 * `detail` is the backend's own message (never a credential value); `partialWrite` is set when a save failed midway.
 */
export class KeychainUnavailableError extends SecretsError {
  readonly kind = 'keychainUnavailable' as const;
  constructor(
    readonly reason: KeychainUnavailableReason,
    readonly operation: string,
    readonly detail: string,
    readonly partialWrite?: PartialWriteOutcome,
    options?: { cause?: unknown },
  ) {
    super(
      `the OS keychain is not available, so the desk could not ${operation}: ${reasonText(reason)}${detail ? ` (it said: ${detail})` : ''}. ` +
        `${partialWriteText(partialWrite)}${HEADLESS_ADVICE}`,
      options,
    );
    this.name = 'KeychainUnavailableError';
  }
}

function reasonText(reason: KeychainUnavailableReason): string {
  switch (reason) {
    case 'moduleUnavailable':
      return "this installation's keychain module did not load (reinstall Treasury Desk if this persists)";
    case 'serviceUnavailable':
      return 'no keychain service answered, or the keyring is locked';
    default: {
      const never: never = reason;
      return never;
    }
  }
}

function partialWriteText(outcome: PartialWriteOutcome | undefined): string {
  if (!outcome) return '';
  if (outcome.rolledBack) return 'Nothing was changed: the entries written before the failure were rolled back. ';
  return (
    `The rollback failed too: entries for ${outcome.leftover.join(', ')} may hold a half-written profile; ` +
    'remove the profile once the keychain works. '
  );
}

export type CredentialsFileFailure = 'missing' | 'unreadable' | 'badJson' | 'invalidField';

/** A `--credentials FILE` that cannot be used. Names the file and the field, never a value. */
export class CredentialsFileError extends SecretsError {
  readonly kind = 'credentialsFile' as const;
  constructor(
    readonly failure: CredentialsFileFailure,
    readonly file: string,
    detail: string,
    readonly field?: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${detail}`, options);
    this.name = 'CredentialsFileError';
  }
}
