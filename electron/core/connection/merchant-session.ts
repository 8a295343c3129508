// The active profile's session with the service: its merchant and public clients, built from its keys in the keychain
// (or, headless, a credentials file read once), the connection state and the nonce memory. The connection module's
// MerchantConnection and ProfileSwitch. Invariant: keys live only in MerchantKeys and the clients built from them;
// nothing here hands key material or tokens to a caller.
import {
  createCryptoPool,
  MerchantClient,
  PublicClient,
  type CryptoPool,
  type HttpTimeouts,
  type ReplayMemory,
  type TokenLifetime,
} from '../../protocol';
import type { Dispatcher } from 'undici';
import { DeskError } from '../kernel/errors';
import { registerSecret } from '../log/redact';
import { type KeychainVault, type MerchantKeys, readCredentialsFile } from '../secrets';
import type { WritableDB } from '../store/database';
import { createProfile, getProfile, type Profile, type ProfileChoice, type ProfileSwitch, updateProfile } from '../profiles';
import type { MerchantConnection } from './merchant-connection';
import { StoredNonceMemory } from './seen-nonces-table';
import { ConnectionTracker } from './tracker';
import { ConnectionWatch } from './watch';

export interface NetworkOptions {
  readonly timeouts?: Partial<HttpTimeouts>;
  readonly dispatcher?: Dispatcher;
}

export interface MerchantSessionOptions {
  readonly db: WritableDB;
  readonly vault: KeychainVault;
  readonly clock: () => number;
  /** The profile the desk acts on (profiles/selection.ts). */
  readonly profiles: ProfileChoice;
  /** Headless use: the four credentials from a file instead of the keychain (less safe: see the README). */
  readonly credentialsFile?: string;
  readonly cryptoThreads?: number;
  readonly network?: NetworkOptions;
}

interface ProfileClients {
  readonly profile: string;
  readonly keys: MerchantKeys;
  readonly merchant: MerchantClient;
  readonly pool: CryptoPool;
}

export class MerchantSession implements MerchantConnection, ProfileSwitch {
  readonly connection: ConnectionTracker;
  readonly connectionWatch: ConnectionWatch;
  /**
   * Response and callback nonces seen (§4.4), one memory for both, so that a genuine response captured on the way
   * cannot be replayed to the callback listener (or a callback fed back as a response); kept in the database for the
   * whole 600 s, across restarts and CLI runs.
   */
  readonly nonces: ReplayMemory;
  clockDriftSeconds: number | null = null;
  readonly #options: MerchantSessionOptions;
  #clients: Promise<ProfileClients> | undefined;
  readonly #publicClients = new Map<string, PublicClient>();
  #fileWarnings: readonly string[] = [];

  constructor(options: MerchantSessionOptions) {
    this.#options = options;
    this.nonces = new StoredNonceMemory(options.db);
    this.connection = new ConnectionTracker(options.clock);
    this.connectionWatch = new ConnectionWatch(options.db, options.clock);
  }

  get usesCredentialsFile(): boolean {
    return this.#options.credentialsFile !== undefined;
  }

  /** What a face should say once about the credentials file (e.g. readable by others); empty otherwise. */
  get credentialsFileWarnings(): readonly string[] {
    return this.#fileWarnings;
  }

  async selectProfile(name: string): Promise<void> {
    this.#options.profiles.choose(name);
    await this.dropClients();
  }

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

  async keys(): Promise<MerchantKeys> {
    return (await this.#activeClients()).keys;
  }

  async merchantClient(): Promise<MerchantClient> {
    return (await this.#activeClients()).merchant;
  }

  /** Never builds a client just to ask: null when the active profile's client holds no token yet in this run. */
  async tokenLifetime(): Promise<TokenLifetime | null> {
    const built = await this.#clients?.catch(() => undefined);
    return built !== undefined && built.profile === this.#options.profiles.activeProfileName() ? built.merchant.tokenLifetime : null;
  }

  publicClient(): PublicClient {
    const baseUrl = this.#options.profiles.activeProfile().baseUrl;
    let client = this.#publicClients.get(baseUrl);
    if (!client) {
      client = new PublicClient({ baseUrl, clock: this.#options.clock, ...this.#network() });
      this.#publicClients.set(baseUrl, client);
    }
    return client;
  }

  async close(): Promise<void> {
    await this.dropClients();
    await Promise.all([...this.#publicClients.values()].map((client) => client.close()));
    this.#publicClients.clear();
  }

  /**
   * Headless use (`--credentials FILE`): reads the file once, keeps the keys in memory only, and makes sure the
   * store has a profile row for the records it will cache. The keychain is not touched.
   */
  async loadCredentialsFile(): Promise<void> {
    const { credentialsFile: file, db, profiles, clock } = this.#options;
    if (file === undefined) return;
    const contents = await readCredentialsFile(file);
    this.#fileWarnings = contents.warnings;
    const name = profiles.chosen ?? 'default';
    const existing = getProfile(db, name);
    if (!existing) createProfile(db, { name, baseUrl: contents.baseUrl, merchantId: contents.keys.merchantId }, clock());
    else if (existing.baseUrl !== contents.baseUrl || existing.merchantId !== contents.keys.merchantId) {
      if (existing.merchantId !== contents.keys.merchantId) {
        throw new DeskError('conflict', `profile ${name} in this database belongs to merchant ${existing.merchantId}, not ${contents.keys.merchantId}: use another --profile or --db`);
      }
      updateProfile(db, name, { baseUrl: contents.baseUrl }, clock());
    }
    profiles.choose(name);
    this.#clients = Promise.resolve(this.#makeClients(profiles.activeProfile(), contents.keys));
  }

  #network(): { timeouts?: Partial<HttpTimeouts>; dispatcher?: Dispatcher } {
    const network = this.#options.network ?? {};
    return {
      ...(network.timeouts ? { timeouts: network.timeouts } : {}),
      ...(network.dispatcher ? { dispatcher: network.dispatcher } : {}),
    };
  }

  #activeClients(): Promise<ProfileClients> {
    const profile = this.#options.profiles.activeProfile();
    const existing = this.#clients;
    if (existing) {
      return existing.then((clients) => {
        if (clients.profile === profile.name) return clients;
        return this.dropClients().then(() => this.#activeClients());
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
    return this.#makeClients(profile, await this.#options.vault.load(profile.name));
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
      clock: this.#options.clock,
      nonceMemory: this.nonces,
      // Session tokens are secrets too: registered so no log line can carry one.
      onToken: (token) => registerSecret(token, 'accessToken'),
      onClockDrift: (driftSeconds) => this.connectionWatch.clockDrift(profile.name, driftSeconds, 'response'),
      onNotWhitelisted: (endpoint) => this.connectionWatch.notWhitelisted(profile.name, endpoint),
      ...this.#network(),
    });
    return { profile: profile.name, keys, merchant, pool };
  }
}
