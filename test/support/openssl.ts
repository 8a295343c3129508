// Test helper: the openssl CLI as an independent oracle (key generation in every PEM/DER form, OAEP, signatures).
// Keys live in a temporary directory made per test file and removed afterwards; no key file is ever committed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const OPENSSL = '/usr/bin/openssl';

/** The OAEP options of PROTOCOL §2.2 for `openssl pkeyutl`: SHA-1 hash, MGF1 with SHA-1, empty label. */
export const OAEP_PKEYOPTS = [
  '-pkeyopt',
  'rsa_padding_mode:oaep',
  '-pkeyopt',
  'rsa_oaep_md:sha1',
  '-pkeyopt',
  'rsa_mgf1_md:sha1',
] as const;

/** Runs openssl and returns stdout; throws with openssl's stderr when it exits non-zero. */
export function openssl(args: readonly string[], input?: Uint8Array | string): Buffer {
  try {
    return execFileSync(OPENSSL, args, { input: input ?? '', stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`openssl ${args.join(' ')} failed: ${stderr.trim()}`, { cause: error });
  }
}

/** Runs openssl and reports its exit status instead of throwing (for `dgst -verify`, which exits 1 on a bad signature). */
export function opensslStatus(args: readonly string[], input?: Uint8Array | string): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(OPENSSL, args, { input: input ?? '', maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status ?? -1, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/** A temporary directory for one test file; call `remove()` in afterAll. */
export interface TempDir {
  readonly path: string;
  file(name: string): string;
  write(name: string, content: Uint8Array | string): string;
  remove(): void;
}

export function makeTempDir(prefix = 'treasury-desk-test-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file: (name) => join(path, name),
    write: (name, content) => {
      const file = join(path, name);
      writeFileSync(file, content);
      return file;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/** Base64 of a PEM's DER body, as one line (what a platform console shows as a "bare" key). */
export function pemToBareBase64(pem: string): string {
  return pem
    .replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '')
    .replace(/^[A-Za-z-]+:.*$/gm, '')
    .replace(/\s+/g, '');
}

/** Every accepted text form (PROTOCOL §1.2) of one RSA key pair, each made by openssl, with file paths. */
export interface OpensslRsaKey {
  readonly bits: number;
  /** PEM `PRIVATE KEY` (PKCS#8). */
  readonly pkcs8PemPath: string;
  readonly pkcs8Pem: string;
  /** PEM `RSA PRIVATE KEY` (PKCS#1, `openssl rsa -traditional`). */
  readonly pkcs1PrivatePemPath: string;
  readonly pkcs1PrivatePem: string;
  /** PEM `PUBLIC KEY` (SPKI). */
  readonly spkiPemPath: string;
  readonly spkiPem: string;
  /** PEM `RSA PUBLIC KEY` (PKCS#1, `openssl rsa -RSAPublicKey_out`). */
  readonly pkcs1PublicPemPath: string;
  readonly pkcs1PublicPem: string;
  /** Bare base64 of the DER made by openssl `-outform DER`, one line each. */
  readonly pkcs8DerBase64: string;
  readonly pkcs1PrivateDerBase64: string;
  readonly spkiDerBase64: string;
  readonly pkcs1PublicDerBase64: string;
  /** SPKI DER bytes, for fingerprints. */
  readonly spkiDer: Buffer;
}

/** Generates an RSA key with `openssl genpkey` and derives every accepted form with openssl itself. */
export function generateOpensslRsaKey(dir: TempDir, name: string, bits: number): OpensslRsaKey {
  const pkcs8PemPath = dir.file(`${name}.pkcs8.pem`);
  openssl(['genpkey', '-algorithm', 'RSA', '-pkeyopt', `rsa_keygen_bits:${bits}`, '-out', pkcs8PemPath]);
  const pkcs1PrivatePemPath = dir.file(`${name}.pkcs1.pem`);
  openssl(['rsa', '-in', pkcs8PemPath, '-traditional', '-out', pkcs1PrivatePemPath]);
  const spkiPemPath = dir.file(`${name}.spki.pem`);
  openssl(['pkey', '-in', pkcs8PemPath, '-pubout', '-out', spkiPemPath]);
  const pkcs1PublicPemPath = dir.file(`${name}.pkcs1-public.pem`);
  openssl(['rsa', '-in', pkcs8PemPath, '-RSAPublicKey_out', '-out', pkcs1PublicPemPath]);
  const der = (args: string[]): string => openssl([...args, '-outform', 'DER']).toString('base64');
  const spkiDer = openssl(['pkey', '-pubin', '-in', spkiPemPath, '-outform', 'DER']);
  return {
    bits,
    pkcs8PemPath,
    pkcs8Pem: readFileSync(pkcs8PemPath, 'utf8'),
    pkcs1PrivatePemPath,
    pkcs1PrivatePem: readFileSync(pkcs1PrivatePemPath, 'utf8'),
    spkiPemPath,
    spkiPem: readFileSync(spkiPemPath, 'utf8'),
    pkcs1PublicPemPath,
    pkcs1PublicPem: readFileSync(pkcs1PublicPemPath, 'utf8'),
    pkcs8DerBase64: der(['pkey', '-in', pkcs8PemPath]),
    pkcs1PrivateDerBase64: der(['rsa', '-in', pkcs8PemPath, '-traditional']),
    spkiDerBase64: spkiDer.toString('base64'),
    pkcs1PublicDerBase64: der(['rsa', '-in', pkcs8PemPath, '-RSAPublicKey_out']),
    spkiDer,
  };
}

/** Decrypts one OAEP block (§2.2 options) with openssl. */
export function opensslOaepDecrypt(block: Uint8Array, privateKeyPath: string): Buffer {
  return openssl(['pkeyutl', '-decrypt', '-inkey', privateKeyPath, ...OAEP_PKEYOPTS], block);
}

/** Encrypts one chunk with OAEP (§2.2 options) with openssl. */
export function opensslOaepEncrypt(chunk: Uint8Array, publicKeyPath: string): Buffer {
  return openssl(['pkeyutl', '-encrypt', '-pubin', '-inkey', publicKeyPath, ...OAEP_PKEYOPTS], chunk);
}

/** RSASSA-PKCS1-v1_5 SHA-256 signature by openssl, as base64. */
export function opensslSign(data: Uint8Array | string, privateKeyPath: string): string {
  return openssl(['dgst', '-sha256', '-sign', privateKeyPath], data).toString('base64');
}

/** True when `openssl dgst -sha256 -verify` accepts the base64 signature over data. */
export function opensslVerify(dir: TempDir, data: Uint8Array | string, signatureBase64: string, publicKeyPath: string): boolean {
  const signaturePath = dir.write(`signature-${process.hrtime.bigint()}.bin`, Buffer.from(signatureBase64, 'base64'));
  const result = opensslStatus(['dgst', '-sha256', '-verify', publicKeyPath, '-signature', signaturePath], data);
  rmSync(signaturePath, { force: true });
  return result.status === 0 && result.stdout.includes('Verified OK');
}
