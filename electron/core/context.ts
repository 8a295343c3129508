// The engine's shared state: the database, the clock, the keychain, the active profile and its clients, the
// connection tracker and the event stream. Invariant: keys live only in MerchantKeys and the clients built from
// them; nothing here hands key material or tokens to a caller.
import type { ContractEvent } from '../contract';
import {
  createCryptoPool,
  MerchantClient,
  PublicClient,
  type CryptoPool,
  type HttpTimeouts,
  type ReplayMemory,
  type TokenLifetime,
} from '../protocol';
import type { Dispatcher } from 'undici';
import { DeskError } from './errors';
import { appLog } from './log';
import { registerSecret } from './log/redact';
import { type KeychainAccess, type KeychainVault, type MerchantKeys, readCredentialsFile } from './secrets';
import type { AuditEntry, AuditRecorder, AuditTrail } from './audit';
import type { Kernel } from './kernel/kernel';
import { type StoreDatabase } from './store/database';
import {
  createProfile,
  getProfile,
  getSetting,
  listProfiles,
  type Profile,
  type ProfileSelection,
  type ProfileSwitch,
  SETTING_KEYS,
  updateProfile,
} from './profiles';
import { ConnectionTracker, ConnectionWatch, type MerchantConnection, StoredNonceMemory } from './connection';

export interface NetworkOptions {
  readonly timeouts?: Partial<HttpTimeouts>;
  readonly dispatcher?: Dispatcher;
}

export interface DeskContextOptions {
  readonly db: StoreDatabase;
  readonly vault: KeychainVault;
  readonly clock: () => number;
  /** Headless use: the four credentials from a file instead of the keychain (less safe: see the README). */
  readonly credentialsFile?: string;
  /** Profile to act on; otherwise the active profile setting; otherwise the only profile. */
  readonly profile?: string;
  readonly cryptoThreads?: number;
  readonly network?: NetworkOptions;
  /** The signed audit trail (desk key and keychain anchor); built by the engine before the context is used. */
  readonly trail: AuditTrail;
}

interface ProfileClients {
  readonly profile: string;
  readonly keys: MerchantKeys;
  readonly merchant: MerchantClient;
  readonly pool: CryptoPool;
}

export class DeskContext implements Kernel, AuditRecorder, ProfileSelection, ProfileSwitch, MerchantConnection, KeychainAccess {
  readonly db: StoreDatabase;
  readonly vault: KeychainVault;
  readonly trail: AuditTrail;
  readonly now: () => number;
  readonly connection: ConnectionTracker;
  /** Records clock drift readings and whitelist refusals for the connection panel. */
  readonly connectionWatch: ConnectionWatch;
  /**
   * Response and callback nonces seen (§4.4), one memory for both so that a genuine response captured on the way
   * cannot be replayed to the callback listener (or a callback fed back as a response); kept in the database for the
   * whole 600 s, across restarts and CLI runs.
   */
  readonly nonces: ReplayMemory;
  /** Clock drift (server - local, seconds) measured by the last selfcheck; null until one ran. */
  clockDriftSeconds: number | null = null;
  readonly #options: DeskContextOptions;
  readonly #listeners = new Set<(event: ContractEvent) => void>();
  #clients: Promise<ProfileClients> | undefined;
  readonly #publicClients = new Map<string, PublicClient>();
  #fileWarnings: readonly string[] = [];
  #selectedProfile: string | undefined;

  constructor(options: DeskContextOptions) {
    this.#options = options;
    this.db = options.db;
    this.nonces = new StoredNonceMemory(options.db);
    this.vault = options.vault;
    this.trail = options.trail;
    this.now = options.clock;
    this.connection = new ConnectionTracker(options.clock);
    this.connectionWatch = new ConnectionWatch(options.db, options.clock);
    this.#selectedProfile = options.profile;
  }

  get usesCredentialsFile(): boolean {
    return this.#options.credentialsFile !== undefined;
  }

  get credentialsFileWarnings(): readonly string[] {
    return this.#fileWarnings;
  }

  // ---- events -------------------------------------------------------------------------------------------------
  onEvent(listener: (event: ContractEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: ContractEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // a face's listener failing must not break the engine
        appLog.error('engine: an event listener failed', { event: event.type, error });
      }
    }
  }

  /** Records a system event, signed by the desk key (operators' decisions are signed by them: operators/acting). */
  audit(entry: AuditEntry): void {
    this.trail.system(entry);
  }

  // ---- profiles -----------------------------------------------------------------------------------------------
  /** The profile to act on, or undefined when the desk has none yet. */
  activeProfileName(): string | undefined {
    if (this.#selectedProfile !== undefined) return this.#selectedProfile;
    const stored = getSetting(this.db, SETTING_KEYS.activeProfile);
    if (typeof stored === 'string' && getProfile(this.db, stored)) return stored;
    const all = listProfiles(this.db);
    return all.length === 1 ? all[0]?.name : undefined;
  }

  /** The active profile's row; DeskError('noProfile') when none is set up. */
  activeProfile(): Profile {
    const name = this.activeProfileName();
    const profile = name === undefined ? undefined : getProfile(this.db, name);
    if (!profile) {
      throw new DeskError(
        'noProfile',
        name === undefined
          ? 'no merchant profile is set up: import credentials (treasury-desk profile import FILE) or start the demo'
          : `no profile named ${name}: list them with treasury-desk profile list`,
      );
    }
    return profile;
  }

  /** Switches the profile this engine acts on; drops the old profile's clients. */
  async selectProfile(name: string): Promise<void> {
    this.#selectedProfile = name;
    await this.dropClients();
  }

  /** Closes the clients (and the key pool) so the next call rebuilds them, e.g. after credentials change. */
  async dropClients(): Promise<void> {
    const clients = this.#clients;
    this.#clients = undefined;
    if (clients) {
      const built = await clients.catch(() => undefined);
      if (built) {
        await built.merchant.close();
        await built.pool.close();
      }
    }
  }

  /** The active profile's merchant keys (keychain, or the credentials file in headless use). */
  async keys(): Promise<MerchantKeys> {
    return (await this.clients()).keys;
  }

  async merchantClient(): Promise<MerchantClient> {
    return (await this.clients()).merchant;
  }

  /**
   * The active profile's session token lifetime (issued, last accepted, estimated expiry), never the token; null when
   * its client holds none (no call made yet in this run). Never builds a client just to ask.
   */
  async tokenLifetime(): Promise<TokenLifetime | null> {
    const built = await this.#clients?.catch(() => undefined);
    return built !== undefined && built.profile === this.activeProfileName() ? built.merchant.tokenLifetime : null;
  }

  publicClient(): PublicClient {
    const baseUrl = this.activeProfile().baseUrl;
    let client = this.#publicClients.get(baseUrl);
    if (!client) {
      client = new PublicClient({ baseUrl, clock: this.now, ...this.#network() });
      this.#publicClients.set(baseUrl, client);
    }
    return client;
  }

  async close(): Promise<void> {
    await this.dropClients();
    await Promise.all([...this.#publicClients.values()].map((client) => client.close()));
    this.#publicClients.clear();
  }

  #network(): { timeouts?: Partial<HttpTimeouts>; dispatcher?: Dispatcher } {
    const network = this.#options.network ?? {};
    return {
      ...(network.timeouts ? { timeouts: network.timeouts } : {}),
      ...(network.dispatcher ? { dispatcher: network.dispatcher } : {}),
    };
  }

  private clients(): Promise<ProfileClients> {
    const profile = this.activeProfile();
    const existing = this.#clients;
    if (existing) {
      return existing.then((clients) => {
        if (clients.profile === profile.name) return clients;
        return this.dropClients().then(() => this.clients());
      });
    }
    const building = this.#buildClients(profile).catch((error: unknown) => {
      if (this.#clients === building) this.#clients = undefined;
      throw error;
    });
    this.#clients = building;
    return building;
  }

  async #buildClients(profile: Profile): Promise<ProfileClients> {
    return this.#makeClients(profile, await this.vault.load(profile.name));
  }

  #makeClients(profile: Profile, keys: MerchantKeys): ProfileClients {
    const threads = this.#options.cryptoThreads;
    const pool = createCryptoPool({ privateKey: keys.merchantPrivateKey, ...(threads ? { threads } : {}) });
    const merchant = new MerchantClient({
      baseUrl: profile.baseUrl,
      merchantId: keys.merchantId,
      secret: keys.secret,
      platformPublicKey: keys.platformPublicKey,
      merchantPrivateKey: keys.merchantPrivateKey,
      decryptor: pool,
      clock: this.now,
      nonceMemory: this.nonces,
      // Session tokens are secrets too: registered so no log line can carry one.
      onToken: (token) => registerSecret(token, 'accessToken'),
      onClockDrift: (driftSeconds) => this.connectionWatch.clockDrift(profile.name, driftSeconds, 'response'),
      onNotWhitelisted: (endpoint) => this.connectionWatch.notWhitelisted(profile.name, endpoint),
      ...this.#network(),
    });
    return { profile: profile.name, keys, merchant, pool };
  }

  /**
   * Headless use (`--credentials FILE`): reads the file once, keeps the keys in memory only, and makes sure the
   * store has a profile row for the records it will cache. The keychain is not touched.
   */
  async loadCredentialsFile(): Promise<void> {
    const file = this.#options.credentialsFile;
    if (file === undefined) return;
    const contents = await readCredentialsFile(file);
    this.#fileWarnings = contents.warnings;
    const name = this.#selectedProfile ?? 'default';
    const existing = getProfile(this.db, name);
    if (!existing) createProfile(this.db, { name, baseUrl: contents.baseUrl, merchantId: contents.keys.merchantId }, this.now());
    else if (existing.baseUrl !== contents.baseUrl || existing.merchantId !== contents.keys.merchantId) {
      if (existing.merchantId !== contents.keys.merchantId) {
        throw new DeskError('conflict', `profile ${name} in this database belongs to merchant ${existing.merchantId}, not ${contents.keys.merchantId}: use another --profile or --db`);
      }
      updateProfile(this.db, name, { baseUrl: contents.baseUrl }, this.now());
    }
    this.#selectedProfile = name;
    this.#clients = Promise.resolve(this.#makeClients(this.activeProfile(), contents.keys));
  }
}
