// The secrets module's part other modules take: the OS keychain vault (per-profile credentials, operator keys sealed
// by passphrase, the desk key). Holders read and write secrets only through the vault's own methods.
import type { KeychainVault } from './keychain';

export interface KeychainAccess {
  readonly vault: KeychainVault;
}
