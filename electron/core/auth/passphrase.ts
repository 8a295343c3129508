// Operator passphrases: scrypt hashing with a per-operator salt, encoded as one self-describing string, and a
// constant-time check. The plain passphrase is never stored or logged.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost: N = 2^15, r = 8, p = 1 (about 32 MiB and ~50 ms here), 16-byte salt, 32-byte key. */
export const SCRYPT_PARAMETERS = { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;
/** A passphrase must be long enough to resist guessing at a shared workstation. */
export const MIN_PASSPHRASE_LENGTH = 10;

function scryptAsync(passphrase: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passphrase.normalize('NFKC'), salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function memoryFor(N: number, r: number): number {
  return 256 * N * r; // twice scrypt's 128·N·r working set
}

export function passphraseProblem(passphrase: string): string | undefined {
  if (passphrase.length < MIN_PASSPHRASE_LENGTH) return `a passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters`;
  if (passphrase.trim() !== passphrase) return 'a passphrase must not start or end with spaces';
  return undefined;
}

/** Returns `scrypt$N$r$p$saltBase64$keyBase64`. */
export async function hashPassphrase(passphrase: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT_PARAMETERS;
  const salt = randomBytes(saltLength);
  const key = await scryptAsync(passphrase, salt, keyLength, { N, r, p, maxmem: memoryFor(N, r) });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** True when the passphrase matches the encoded hash; false for a wrong passphrase or a malformed hash. */
export async function verifyPassphrase(passphrase: string, encoded: string): Promise<boolean> {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((value) => Number.isSafeInteger(value) && value > 0) || N > 2 ** 20) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await scryptAsync(passphrase, salt, expected.length, { N, r, p, maxmem: memoryFor(N, r) });
  return timingSafeEqual(actual, expected);
}
