// KeychainVault against the REAL Secret Service of scripts/with-keyring.sh: round trip with usable keys,
// has/list/remove checked through @napi-rs/keyring directly, nothing stored when invalid, profile isolation, no leaks.
import { constants, createPrivateKey, createPublicKey, createSign, createVerify, privateDecrypt, publicEncrypt } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CREDENTIAL_FIELDS,
  InvalidCredentialsError,
  InvalidProfileNameError,
  KEYCHAIN_SERVICE,
  KeychainVault,
  ProfileExistsError,
  ProfileNotFoundError,
  keychainAccount,
} from '../../../electron/core/secrets';
import { publicKeyFingerprint } from '../../../electron/protocol/keys';
import { leakedParts, makeCredentials, requireIsolatedSecretService, uniqueProfile } from './support';

// Fails the whole file with instructions when not run under scripts/with-keyring.sh (never skips).
const direct = await requireIsolatedSecretService();

const vault = new KeychainVault();
const usedProfiles: string[] = [];
function profileName(prefix?: string): string {
  const name = uniqueProfile(prefix);
  usedProfiles.push(name);
  return name;
}

async function entriesOf(profile: string): Promise<Record<string, string | null>> {
  const entries: Record<string, string | null> = {};
  for (const field of CREDENTIAL_FIELDS) entries[field] = await direct.getPassword(KEYCHAIN_SERVICE, keychainAccount(profile, field));
  return entries;
}

afterAll(async () => {
  for (const profile of usedProfiles) {
    for (const field of CREDENTIAL_FIELDS) await direct.deletePassword(KEYCHAIN_SERVICE, keychainAccount(profile, field));
  }
});

describe('KeychainVault.save / load', () => {
  it('round-trips the four credentials and returns usable KeyObjects', async () => {
    const profile = profileName();
    const creds = makeCredentials();
    const description = await vault.save(profile, creds.text);
    expect(description.merchantId).toBe(creds.text.merchantId);
    expect(description.merchantPublicKeyFingerprint).toBe(publicKeyFingerprint(createPublicKey(creds.merchantPublicKeyPem)));

    const keys = await vault.load(profile);
    expect(keys.merchantId).toBe(creds.text.merchantId);
    expect(keys.secret).toBe(creds.text.secret);
    expect(keys.merchantPrivateKey.type).toBe('private');
    expect(keys.platformPublicKey.type).toBe('public');
    expect(keys.describe()).toEqual(description);

    // The merchant signs (PROTOCOL §3.1); the platform verifies with the merchant public key it holds.
    const input = '1700000000\nabcdef0123456789abcdef0123456789\nBODY';
    const signature = createSign('sha256').update(input).sign(keys.merchantPrivateKey, 'base64');
    expect(createVerify('sha256').update(input).verify(creds.merchantPublicKeyPem, signature, 'base64')).toBe(true);
    // The platform signs; the merchant verifies with the stored platform public key.
    const platformSignature = createSign('sha256').update(input).sign(creds.platformPrivateKeyPem, 'base64');
    expect(createVerify('sha256').update(input).verify(keys.platformPublicKey, platformSignature, 'base64')).toBe(true);
    // The merchant private key decrypts what was encrypted for the merchant (§2.2, OAEP SHA-1).
    const oaep = { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' };
    const block = publicEncrypt({ key: creds.merchantPublicKeyPem, ...oaep }, Buffer.from('{"ok":true}'));
    expect(privateDecrypt({ key: keys.merchantPrivateKey, ...oaep }, block).toString()).toBe('{"ok":true}');
  });

  it('stores the entries under service treasury-desk, one account per profile and field', async () => {
    const profile = profileName();
    const creds = makeCredentials();
    await vault.save(profile, creds.text);
    const entries = await entriesOf(profile);
    expect(entries.merchantId).toBe(creds.text.merchantId);
    expect(entries.secret).toBe(creds.text.secret);
    // Keys are stored in canonical compact form (base64 DER, PROTOCOL §1.2), parseable on load.
    expect(entries.platformPublicKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(entries.merchantPrivateKey).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const accounts = (await direct.findCredentials(KEYCHAIN_SERVICE)).map((entry) => entry.account).filter((a) => a.startsWith(`${profile}/`));
    expect(accounts.sort()).toEqual(CREDENTIAL_FIELDS.map((field) => `${profile}/${field}`).sort());
  });

  it('accepts keys as bare base64 DER and PKCS#1 PEM, and trims pasted white space', async () => {
    const profile = profileName();
    const creds = makeCredentials();
    const privatePkcs1 = createPrivateKey(creds.text.merchantPrivateKey).export({ format: 'pem', type: 'pkcs1' }).toString();
    const platformDer = createPublicKey(creds.text.platformPublicKey).export({ format: 'der', type: 'spki' }).toString('base64');
    await vault.save(profile, {
      merchantId: `  ${creds.text.merchantId}\n`,
      secret: `${creds.text.secret}\n`,
      platformPublicKey: `\n${platformDer.replace(/(.{64})/g, '$1\n')}\n`,
      merchantPrivateKey: privatePkcs1,
    });
    const keys = await vault.load(profile);
    expect(keys.merchantId).toBe(creds.text.merchantId);
    expect(keys.secret).toBe(creds.text.secret);
    expect(publicKeyFingerprint(keys.platformPublicKey)).toBe(publicKeyFingerprint(createPublicKey(creds.text.platformPublicKey)));
  });

  it('refuses to overwrite an existing profile unless replace is asked for', async () => {
    const profile = profileName();
    const first = makeCredentials();
    const second = makeCredentials();
    await vault.save(profile, first.text);
    await expect(vault.save(profile, second.text)).rejects.toBeInstanceOf(ProfileExistsError);
    expect((await vault.load(profile)).secret).toBe(first.text.secret);
    await vault.save(profile, second.text, { replace: true });
    expect((await vault.load(profile)).secret).toBe(second.text.secret);
  });

  it('says how to import when a profile is missing', async () => {
    const profile = profileName('missing');
    const error = await vault.load(profile).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProfileNotFoundError);
    expect((error as Error).message).toBe(
      `no credentials for profile ${profile} in the OS keychain: import them with \`treasury-desk profile import\``,
    );
  });

  it('reports an incomplete profile, naming the missing fields', async () => {
    const profile = profileName();
    await vault.save(profile, makeCredentials().text);
    await direct.deletePassword(KEYCHAIN_SERVICE, keychainAccount(profile, 'secret'));
    const error = await vault.load(profile).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProfileNotFoundError);
    expect((error as ProfileNotFoundError).missing).toEqual(['secret']);
    expect((error as Error).message).toMatch(/incomplete \(missing: secret\)/);
    expect(await vault.has(profile)).toBe(false);
  });

  it('reports a corrupted stored key by field, without its value', async () => {
    const profile = profileName();
    const creds = makeCredentials();
    await vault.save(profile, creds.text);
    await direct.setPassword(KEYCHAIN_SERVICE, keychainAccount(profile, 'merchantPrivateKey'), 'bm90IGEga2V5IGF0IGFsbA==');
    const error = await vault.load(profile).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidCredentialsError);
    expect((error as InvalidCredentialsError).field).toBe('merchantPrivateKey');
    expect((error as Error).message).toMatch(new RegExp(`OS keychain for profile ${profile}`));
    expect((error as Error).message).not.toContain('bm90IGEga2V5');
  });

  it('refuses profile names that cannot be stored safely', async () => {
    const creds = makeCredentials();
    for (const bad of ['', 'a/b', '../x', ' spaced', 'x'.repeat(65)]) {
      await expect(vault.save(bad, creds.text)).rejects.toBeInstanceOf(InvalidProfileNameError);
      await expect(vault.load(bad)).rejects.toBeInstanceOf(InvalidProfileNameError);
    }
  });
});

describe('KeychainVault.has / listProfiles / remove', () => {
  it('has() and listProfiles() see a saved profile; remove() deletes all four entries', async () => {
    const profile = profileName('listed');
    expect(await vault.has(profile)).toBe(false);
    await vault.save(profile, makeCredentials().text);
    expect(await vault.has(profile)).toBe(true);
    expect(await vault.listProfiles()).toContain(profile);

    const result = await vault.remove(profile);
    expect(result).toEqual({ profile, removed: [...CREDENTIAL_FIELDS] });
    // Really gone, as the keyring module itself sees it.
    expect(await entriesOf(profile)).toEqual({ merchantId: null, secret: null, platformPublicKey: null, merchantPrivateKey: null });
    expect((await direct.findCredentials(KEYCHAIN_SERVICE)).some((entry) => entry.account.startsWith(`${profile}/`))).toBe(false);
    expect(await vault.has(profile)).toBe(false);
    expect(await vault.listProfiles()).not.toContain(profile);
  });

  it('remove() of an absent profile removes nothing and says so', async () => {
    const profile = profileName('absent');
    expect(await vault.remove(profile)).toEqual({ profile, removed: [] });
  });

  it('remove() of a partial profile reports exactly the entries that existed', async () => {
    const profile = profileName();
    await direct.setPassword(KEYCHAIN_SERVICE, keychainAccount(profile, 'merchantId'), 'M1');
    await direct.setPassword(KEYCHAIN_SERVICE, keychainAccount(profile, 'platformPublicKey'), 'x');
    expect(await vault.listProfiles()).toContain(profile);
    expect(await vault.remove(profile)).toEqual({ profile, removed: ['merchantId', 'platformPublicKey'] });
    expect(await vault.listProfiles()).not.toContain(profile);
  });

  it('listProfiles() returns names only and ignores foreign accounts of the service', async () => {
    const profile = profileName('names');
    await vault.save(profile, makeCredentials().text);
    await direct.setPassword(KEYCHAIN_SERVICE, 'not-a-profile-entry', 'x');
    await direct.setPassword(KEYCHAIN_SERVICE, `${profile}/unknownField`, 'x');
    try {
      const profiles = await vault.listProfiles();
      expect(profiles.every((name) => typeof name === 'string' && !name.includes('/'))).toBe(true);
      expect(profiles).toContain(profile);
      expect(profiles).not.toContain('not-a-profile-entry');
      expect(profiles).toEqual([...profiles].sort());
    } finally {
      await direct.deletePassword(KEYCHAIN_SERVICE, 'not-a-profile-entry');
      await direct.deletePassword(KEYCHAIN_SERVICE, `${profile}/unknownField`);
    }
  });
});

describe('profile isolation', () => {
  it('keeps two profiles apart: saving, loading and removing one leaves the other untouched', async () => {
    const alpha = profileName('alpha');
    const beta = profileName('beta');
    const a = makeCredentials();
    const b = makeCredentials();
    await vault.save(alpha, a.text);
    await vault.save(beta, b.text);
    const [keysA, keysB] = [await vault.load(alpha), await vault.load(beta)];
    expect(keysA.secret).toBe(a.text.secret);
    expect(keysB.secret).toBe(b.text.secret);
    expect(keysA.describe().merchantPublicKeyFingerprint).not.toBe(keysB.describe().merchantPublicKeyFingerprint);

    await vault.remove(alpha);
    expect(await vault.has(alpha)).toBe(false);
    expect(await vault.has(beta)).toBe(true);
    expect(await entriesOf(beta)).toMatchObject({ merchantId: b.text.merchantId, secret: b.text.secret });
  });

  it('a profile name that is a prefix of another does not see its entries', async () => {
    const base = profileName('prefix');
    const longer = `${base}x`;
    usedProfiles.push(longer);
    await vault.save(longer, makeCredentials().text);
    expect(await vault.has(base)).toBe(false);
    expect(await vault.remove(base)).toEqual({ profile: base, removed: [] });
    expect(await vault.has(longer)).toBe(true);
  });
});

describe('invalid credentials', () => {
  it('stores nothing when any field is invalid, and names the field', async () => {
    const cases: Array<[keyof ReturnType<typeof makeCredentials>['text'], string]> = [
      ['merchantId', ''],
      ['merchantId', 'has space'],
      ['secret', '   '],
      ['secret', 'line\nbreak'],
      ['platformPublicKey', 'not a key'],
      ['merchantPrivateKey', 'bm90IGEga2V5'],
    ];
    for (const [field, value] of cases) {
      const profile = profileName('invalid');
      const creds = makeCredentials();
      const error = await vault.save(profile, { ...creds.text, [field]: value }).catch((caught: unknown) => caught);
      expect(error, `${field}=${JSON.stringify(value)}`).toBeInstanceOf(InvalidCredentialsError);
      expect((error as InvalidCredentialsError).field).toBe(field);
      expect(await entriesOf(profile)).toEqual({ merchantId: null, secret: null, platformPublicKey: null, merchantPrivateKey: null });
    }
  });

  it('stores nothing when a private key sits where the platform public key belongs', async () => {
    const profile = profileName('swapped');
    const creds = makeCredentials();
    const error = await vault
      .save(profile, { ...creds.text, platformPublicKey: creds.text.merchantPrivateKey })
      .catch((caught: unknown) => caught);
    expect((error as InvalidCredentialsError).field).toBe('platformPublicKey');
    expect(await vault.listProfiles()).not.toContain(profile);
  });
});

describe('secrets never reach error messages', () => {
  it('no error raised by the vault contains the secret or key material', async () => {
    const creds = makeCredentials();
    const profile = profileName('leak');
    await vault.save(profile, creds.text);
    const errors: unknown[] = [];
    const capture = (promise: Promise<unknown>) => promise.then(() => errors.push(new Error('expected a failure')), (error: unknown) => errors.push(error));
    await capture(vault.save(profile, creds.text)); // exists
    await capture(vault.save(uniqueProfile(), { ...creds.text, merchantId: `${creds.text.secret} ` + creds.text.secret })); // id with spaces
    await capture(vault.save(uniqueProfile(), { ...creds.text, platformPublicKey: creds.text.secret }));
    await capture(vault.save(uniqueProfile(), { ...creds.text, merchantPrivateKey: creds.text.platformPublicKey }));
    await capture(vault.save(uniqueProfile(), { ...creds.text, merchantPrivateKey: creds.text.merchantPrivateKey.slice(0, 400) }));
    await capture(vault.save(uniqueProfile(), { ...creds.text, secret: `${creds.text.secret}\u0000` }));
    await direct.setPassword(KEYCHAIN_SERVICE, keychainAccount(profile, 'platformPublicKey'), creds.text.merchantPrivateKey);
    await capture(vault.load(profile)); // corrupted: a private key stored as the platform key
    expect(errors).toHaveLength(7);
    for (const error of errors) {
      expect(error).toBeInstanceOf(Error);
      const rendered = [String(error), (error as Error).stack ?? '', inspect(error, { depth: 5 }), JSON.stringify(error)].join('\n');
      expect(leakedParts(rendered, creds), rendered.slice(0, 300)).toEqual([]);
    }
  });
});
