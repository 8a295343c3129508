// Shared helpers of the core/secrets tests: the isolated-keyring guard, direct @napi-rs/keyring access (direct's
// shape), generated credentials.
// Tests generate their own keys at run time; no key material is ever committed.
import { randomBytes } from 'node:crypto';
import { generateRsaKeyPair, type GeneratedKeyPair } from '../../../electron/protocol/keys';
import type { MerchantCredentialsText } from '../../../electron/core/secrets';
import { loadKeyring } from '../../../electron/core/secrets/keychain';

/** The keychain as the tests see it (@napi-rs/keyring in direct's shape), to check entries independently of KeychainVault. */
export interface DirectKeytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

/**
 * @napi-rs/keyring with the keychain's own retries (loadKeyring: Secret Service only, as the vault uses it), not through
 * KeychainVault's code.
 */
export async function directKeyring(): Promise<DirectKeytar> {
  return loadKeyring();
}

export const HARNESS_COMMAND = 'bash scripts/with-keyring.sh npx vitest run test/integration/secrets';

/**
 * Fails (never skips) unless a private Secret Service started by scripts/with-keyring.sh is reachable: checks the
 * bus address, that the bus lives in the harness's temporary folder (so a developer's real keyring is never
 * written), and that a probe entry can be stored, read and deleted. Returns direct keychain access for checks.
 */
export async function requireIsolatedSecretService(): Promise<DirectKeytar> {
  const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
  const harness = process.env.TREASURY_KEYRING_HARNESS;
  if (process.platform === 'linux' && !bus) {
    throw new Error(`no Secret Service is reachable (DBUS_SESSION_BUS_ADDRESS is unset): run these tests as \`${HARNESS_COMMAND}\``);
  }
  if (!harness || !bus || !bus.includes(harness)) {
    throw new Error(
      `these tests write to the OS keychain and must run against the private keyring of scripts/with-keyring.sh, never a real one: run \`${HARNESS_COMMAND}\``,
    );
  }
  const direct = await directKeyring();
  const service = 'treasury-desk-test-probe';
  const probe = `probe-${randomBytes(6).toString('hex')}`;
  try {
    await direct.setPassword(service, probe, probe);
    const readBack = await direct.getPassword(service, probe);
    await direct.deletePassword(service, probe);
    if (readBack !== probe) throw new Error('the probe entry did not read back');
  } catch (error) {
    throw new Error(
      `the Secret Service at ${bus} does not work (${error instanceof Error ? error.message : String(error)}): run these tests as \`${HARNESS_COMMAND}\``,
      { cause: error },
    );
  }
  return direct;
}

/** A profile name no other test uses. */
export function uniqueProfile(prefix = 'test'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export interface TestCredentials {
  readonly text: MerchantCredentialsText;
  /** The platform's private key (the other side), to sign as the platform would. */
  readonly platformPrivateKeyPem: string;
  /** The merchant public key the platform holds, PEM. */
  readonly merchantPublicKeyPem: string;
}

/** Key pairs generated once per test file (RSA generation is slow) and handed out in rotation. */
const KEY_POOL_SIZE = 5;
const keyPool: GeneratedKeyPair[] = [];
let nextKey = 0;
function pooledKeyPair(): GeneratedKeyPair {
  if (keyPool.length < KEY_POOL_SIZE) keyPool.push(generateRsaKeyPair());
  const pair = keyPool[nextKey % keyPool.length];
  nextKey += 1;
  if (!pair) throw new Error('key pool is empty');
  return pair;
}

/**
 * Credentials with a random merchant ID and secret and two different key pairs (platform, merchant). Consecutive
 * calls get different key pairs (a pool of five, generated on first use, in rotation).
 */
export function makeCredentials(): TestCredentials {
  const platform = pooledKeyPair();
  const merchant = pooledKeyPair();
  return {
    text: {
      merchantId: `M${randomBytes(4).toString('hex').toUpperCase()}`,
      secret: `s3cr3t-${randomBytes(16).toString('hex')}`,
      platformPublicKey: platform.publicKeyPem,
      merchantPrivateKey: merchant.privateKeyPem,
    },
    platformPrivateKeyPem: platform.privateKeyPem,
    merchantPublicKeyPem: merchant.publicKeyPem,
  };
}

/** The base64 body of a PEM block joined into one line, and a few 40-character slices of it. */
export function keyMaterialFragments(pem: string): string[] {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const fragments = [body];
  for (let start = 0; start + 40 <= body.length; start += Math.floor(body.length / 6)) fragments.push(body.slice(start, start + 40));
  // each PEM line on its own, as a log might print it
  for (const line of pem.split('\n')) if (line.length >= 40 && !line.startsWith('-----')) fragments.push(line.trim());
  return fragments;
}

/** Asserts that `text` contains neither the secret nor any recognisable piece of the private or public keys. */
export function leakedParts(text: string, credentials: TestCredentials): string[] {
  const leaks: string[] = [];
  if (text.includes(credentials.text.secret)) leaks.push('secret');
  for (const [label, pem] of [
    ['merchantPrivateKey', credentials.text.merchantPrivateKey],
    ['platformPublicKey', credentials.text.platformPublicKey],
  ] as const) {
    if (keyMaterialFragments(pem).some((fragment) => text.includes(fragment))) leaks.push(label);
  }
  return leaks;
}
