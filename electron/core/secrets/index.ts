// Public API of core/secrets: the only module that holds merchant credentials and touches the OS keychain (house rule 2).
export { CREDENTIAL_FIELDS, CREDENTIAL_FIELD_TITLES, type CredentialField } from '../kernel/credential-fields';
export {
  MerchantKeys,
  describeCredentials,
  parseCredentials,
  type CredentialsDescription,
  type MerchantCredentialsText,
} from './credentials';
export {
  KEYCHAIN_SERVICE,
  KeychainVault,
  deskAccount,
  isValidProfileName,
  keychainAccount,
  loadKeyring,
  moveKeytarEntries,
  openKeychain,
  type KeychainVaultOptions,
  type KeytarBackend,
  type KeytarBackendLoader,
  type KeytarMoveResult,
  type RemoveResult,
  type SaveOptions,
} from './keychain';
export {
  credentialsFilePermissionWarning,
  readCredentialsFile,
  type CredentialsFileContents,
  type CredentialsFileJson,
} from './credentials-file';
export { GeneratedMerchantKeyPair, generateMerchantKeyPair, type GeneratedKeyPairDescription } from './keygen';
export {
  CredentialsFileError,
  InvalidCredentialsError,
  InvalidProfileNameError,
  KeychainUnavailableError,
  ProfileExistsError,
  ProfileNotFoundError,
  SecretsError,
  type CredentialsFileFailure,
  type KeychainUnavailableReason,
  type PartialWriteOutcome,
  type SecretsErrorKind,
} from '../kernel/secrets-errors';
// For the other core modules:
export { type DeskSecretStore } from './desk-secret-store';
export { type KeychainAccess } from './keychain-access';
