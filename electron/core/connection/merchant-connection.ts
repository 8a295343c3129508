// The connection module's part other modules take: the active profile's clients to the service (built from its keys in
// the keychain, or the headless credentials file) and what the desk knows of the connection. Never hands out a token.
import type { MerchantClient, PublicClient, ReplayMemory, TokenLifetime } from '../../protocol';
import type { MerchantKeys } from '../secrets';
import type { ConnectionTracker } from './tracker';
import type { ConnectionWatch } from './watch';

export interface MerchantConnection {
  /** The active profile's merchant keys (keychain, or the credentials file in headless use). */
  keys(): Promise<MerchantKeys>;
  merchantClient(): Promise<MerchantClient>;
  publicClient(): PublicClient;
  /** The active profile's session token lifetime, never the token; null when its client holds none yet. */
  tokenLifetime(): Promise<TokenLifetime | null>;
  /** Online or offline, and why (the connection panel). */
  readonly connection: ConnectionTracker;
  /** Records clock drift readings and whitelist refusals for the connection panel. */
  readonly connectionWatch: ConnectionWatch;
  /** Response and callback nonces seen (§4.4), one memory for both, kept for the whole 600 s across restarts. */
  readonly nonces: ReplayMemory;
  /** Clock drift (server - local, seconds) measured by the last selfcheck; null until one ran. */
  clockDriftSeconds: number | null;
  /** Headless use: the keys come from a credentials file, not the keychain (profiles cannot be changed then). */
  readonly usesCredentialsFile: boolean;
  /** Closes the clients (and the key pool) so the next call rebuilds them, e.g. after credentials change. */
  dropClients(): Promise<void>;
}
