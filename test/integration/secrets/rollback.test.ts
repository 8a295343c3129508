// KeychainVault with an injected keytar-like backend: a save that fails midway leaves no half profile (new
// profile: entries deleted; replaced profile: previous values restored), a failed rollback is reported, and a
// backend that cannot load gives KeychainUnavailableError. In-memory only: no Secret Service needed.
import { describe, expect, it } from 'vitest';
import {
  CREDENTIAL_FIELDS,
  KeychainUnavailableError,
  KeychainVault,
  keychainAccount,
  type KeytarBackend,
} from '../../../electron/core/secrets';
import { leakedParts, makeCredentials } from './support';

/** keytar's API over a Map; `failOnWrite` makes the n-th setPassword (1-based) reject, `failDeletes` all deletes. */
class MemoryBackend implements KeytarBackend {
  readonly entries = new Map<string, string>();
  writes = 0;
  constructor(
    private readonly options: { failOnWrite?: number; failDeletes?: boolean; failAllWritesAfter?: number; failMessage?: string } = {},
  ) {}
  private key(service: string, account: string): string {
    return `${service}\u0000${account}`;
  }
  async getPassword(service: string, account: string): Promise<string | null> {
    return this.entries.get(this.key(service, account)) ?? null;
  }
  async setPassword(service: string, account: string, password: string): Promise<void> {
    this.writes += 1;
    const { failOnWrite, failAllWritesAfter } = this.options;
    if (this.writes === failOnWrite || (failAllWritesAfter !== undefined && this.writes > failAllWritesAfter)) {
      throw new Error(this.options.failMessage ?? 'Cannot create an item in a locked collection');
    }
    this.entries.set(this.key(service, account), password);
  }
  async deletePassword(service: string, account: string): Promise<boolean> {
    if (this.options.failDeletes) throw new Error('Cannot delete: the collection is locked');
    return this.entries.delete(this.key(service, account));
  }
  async findCredentials(service: string): Promise<Array<{ account: string; password: string }>> {
    return [...this.entries]
      .filter(([key]) => key.startsWith(`${service}\u0000`))
      .map(([key, password]) => ({ account: key.slice(service.length + 1), password }));
  }
}

describe('save rollback with an injected backend', () => {
  it('a new profile whose 3rd write fails leaves no entry behind', async () => {
    const backend = new MemoryBackend({ failOnWrite: 3 });
    const vault = new KeychainVault({ backend });
    const creds = makeCredentials();
    const error = await vault.save('shop', creds.text).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    const unavailable = error as KeychainUnavailableError;
    expect(unavailable.partialWrite).toEqual({ rolledBack: true, leftover: [] });
    expect(unavailable.message).toMatch(/rolled back/);
    expect(unavailable.message).toMatch(/locked collection/);
    expect(backend.entries.size).toBe(0);
    expect(await vault.has('shop')).toBe(false);
    expect(await vault.listProfiles()).toEqual([]);
    expect(leakedParts(`${unavailable.message}\n${unavailable.stack ?? ''}`, creds)).toEqual([]);
  });

  it('a replaced profile whose 3rd write fails keeps its previous values', async () => {
    const backend = new MemoryBackend();
    const vault = new KeychainVault({ backend });
    const first = makeCredentials();
    await vault.save('shop', first.text);
    const before = new Map(backend.entries);
    const failing = new MemoryBackend({ failOnWrite: 3 });
    for (const [key, value] of before) failing.entries.set(key, value);
    const failingVault = new KeychainVault({ backend: failing });
    await expect(failingVault.save('shop', makeCredentials().text, { replace: true })).rejects.toBeInstanceOf(KeychainUnavailableError);
    expect(failing.entries).toEqual(before);
    expect((await failingVault.load('shop')).secret).toBe(first.text.secret);
  });

  it('every possible failing write position leaves the store exactly as it was', async () => {
    for (let position = 1; position <= CREDENTIAL_FIELDS.length; position += 1) {
      const backend = new MemoryBackend({ failOnWrite: position });
      await expect(new KeychainVault({ backend }).save('shop', makeCredentials().text)).rejects.toBeInstanceOf(KeychainUnavailableError);
      expect(backend.entries.size, `failing write #${position}`).toBe(0);
    }
  });

  it('reports the fields that may remain when the rollback fails too', async () => {
    const backend = new MemoryBackend({ failOnWrite: 3, failDeletes: true });
    const error = (await new KeychainVault({ backend }).save('shop', makeCredentials().text).catch((caught: unknown) => caught)) as KeychainUnavailableError;
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    expect(error.partialWrite?.rolledBack).toBe(false);
    expect(error.partialWrite?.leftover).toEqual(['merchantId', 'secret', 'platformPublicKey']);
    expect(error.message).toMatch(/merchantId, secret, platformPublicKey may hold a half-written profile/);
  });

  it('withholds a backend message that quotes a value being written', async () => {
    const creds = makeCredentials();
    const backend = new MemoryBackend({ failOnWrite: 2, failMessage: `refused value ${creds.text.secret}` });
    const error = (await new KeychainVault({ backend }).save('shop', creds.text).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    expect(error.message).toMatch(/withheld/);
    expect(leakedParts(`${error.message}\n${error.stack ?? ''}`, creds)).toEqual([]);
  });

  it('writes the four entries under one account per field', async () => {
    const backend = new MemoryBackend();
    await new KeychainVault({ backend }).save('shop', makeCredentials().text);
    const accounts = (await backend.findCredentials('treasury-desk')).map((entry) => entry.account).sort();
    expect(accounts).toEqual(CREDENTIAL_FIELDS.map((field) => keychainAccount('shop', field)).sort());
  });
});

describe('backend loading', () => {
  it('turns a loader failure into KeychainUnavailableError with advice, and retries on the next call', async () => {
    let attempts = 0;
    const working = new MemoryBackend();
    const vault = new KeychainVault({
      backend: async () => {
        attempts += 1;
        if (attempts === 1) throw new KeychainUnavailableError('moduleUnavailable', 'load @napi-rs/keyring', 'Cannot find native binding');
        return working;
      },
    });
    const error = (await vault.listProfiles().catch((caught: unknown) => caught)) as KeychainUnavailableError;
    expect(error).toBeInstanceOf(KeychainUnavailableError);
    expect(error.reason).toBe('moduleUnavailable');
    expect(error.message).toMatch(/--credentials FILE/);
    expect(await vault.listProfiles()).toEqual([]);
    expect(attempts).toBe(2);
  });

  it("names what a desk entry holds, not the engine's name for it, when the keychain refuses it; a malformed name is a bug, not a keychain failure", async () => {
    const locked = new MemoryBackend();
    locked.getPassword = () => Promise.reject(new Error('Platform failure: Collection is locked'));
    const vault = new KeychainVault({ backend: locked });
    const anchor = (await vault.readDeskEntry(`audit-head/${'ab'.repeat(16)}`).catch((caught: unknown) => caught)) as KeychainUnavailableError;
    expect(anchor).toBeInstanceOf(KeychainUnavailableError);
    expect(anchor.message).toMatch(/^the OS keychain is not available, so the desk could not read the audit log's anchor: no keychain service answered, or the keyring is locked \(it said: Platform failure: Collection is locked\)\. Unlock your login keyring/);
    expect(anchor.message).not.toMatch(/audit-head|desk entry|desk:/);
    const secret = (await vault.readDeskEntry(`webhook-secret-7/${'cd'.repeat(16)}`).catch((caught: unknown) => caught)) as KeychainUnavailableError;
    expect(secret.message).toContain('could not read the signing secret of webhook endpoint 7:');
    const bug = await vault.readDeskEntry('Not A Name/x').catch((caught: unknown) => caught);
    expect(bug).not.toBeInstanceOf(KeychainUnavailableError);
    expect((bug as Error).message).toBe('not a desk entry name: Not A Name/x');
  });

  it('runs the operations of one vault one at a time', async () => {
    const backend = new MemoryBackend();
    const vault = new KeychainVault({ backend });
    const creds = makeCredentials();
    const results = await Promise.allSettled([vault.save('shop', creds.text), vault.save('shop', makeCredentials().text)]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await vault.load('shop')).secret).toBe(creds.text.secret);
  });
});
