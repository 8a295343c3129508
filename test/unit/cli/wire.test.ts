// Proves `treasury-desk wire encrypt|decrypt|sign|verify` (exit codes 0/1/2, one-line errors) with openssl as the oracle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processEnv, runInProcessPlain, spawnCli, type Captured } from '../../support/cli';
import { signingInput } from '../../../electron/protocol/signature';
import {
  generateOpensslRsaKey,
  makeTempDir,
  openssl,
  opensslOaepDecrypt,
  opensslOaepEncrypt,
  opensslSign,
  opensslVerify,
  pemToBareBase64,
  type OpensslRsaKey,
  type TempDir,
} from '../../support/openssl';

let dir: TempDir;
let platform: OpensslRsaKey;
let merchant: OpensslRsaKey;
let small: OpensslRsaKey;
let encryptedKeyPath: string;
let bareMerchantPrivatePath: string;

beforeAll(() => {
  dir = makeTempDir();
  platform = generateOpensslRsaKey(dir, 'platform', 2048);
  merchant = generateOpensslRsaKey(dir, 'merchant', 2048);
  small = generateOpensslRsaKey(dir, 'small', 1024);
  encryptedKeyPath = dir.file('encrypted.pem');
  openssl(['pkcs8', '-topk8', '-in', merchant.pkcs8PemPath, '-passout', 'pass:secret', '-out', encryptedKeyPath]);
  bareMerchantPrivatePath = dir.write('merchant-private.b64', `\n  ${merchant.pkcs8DerBase64}\n`);
}, 60_000);

afterAll(() => dir.remove());

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: readonly string[], stdin = ''): Promise<Run> {
  return runInProcessPlain(['wire', ...args], { stdin });
}

/** A refusal: the exit code, nothing on stdout, exactly one stderr line. Returns that line. */
function expectFailure(run: Run, code: number): string {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe('');
  expect(run.stderr.endsWith('\n')).toBe(true);
  expect(run.stderr.slice(0, -1)).not.toContain('\n');
  return run.stderr;
}

/** No 16-character base64 run of any key text may appear in output meant for a terminal or a ticket. */
function expectNoKeyText(text: string): void {
  for (const key of [platform, merchant, small]) {
    for (const pem of [key.pkcs8Pem, key.pkcs1PrivatePem, key.spkiPem, key.pkcs1PublicPem]) {
      const compact = pemToBareBase64(pem);
      for (let offset = 0; offset + 16 <= compact.length; offset += 16) expect(text).not.toContain(compact.slice(offset, offset + 16));
    }
  }
}

function blocks(base64: string): Buffer[] {
  const bytes = Buffer.from(base64, 'base64');
  const result: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += 256) result.push(bytes.subarray(offset, offset + 256));
  return result;
}

const TIMESTAMP = '1700000000';
const NONCE = '0123456789abcdef0123456789abcdef';
/** Multi-block, non-ASCII JSON whose number a JSON.parse/stringify round trip would change (…567890 -> …567000). */
const JSON_TEXT = `{"userOrder":"W-1","memo":${JSON.stringify('é/中/😀'.repeat(40))},"amount":12345678901234567890}`;

describe('wire encrypt', () => {
  it('encrypts stdin JSON as given (no re-serialisation) to one line of §2 base64 that openssl decrypts', async () => {
    expect(JSON_TEXT).toContain('12345678901234567890');
    const run = await cli(['encrypt', '--public-key', platform.spkiPemPath], `\n${JSON_TEXT}\n`);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^[A-Za-z0-9+/]+={0,2}\n$/);
    const plaintext = Buffer.concat(blocks(run.stdout.trim()).map((block) => opensslOaepDecrypt(block, platform.pkcs8PemPath)));
    expect(plaintext.toString('utf8')).toBe(JSON_TEXT);
    expect(blocks(run.stdout.trim()).length).toBeGreaterThan(1);
  });

  it('accepts the RSA PUBLIC KEY form and bare base64 DER too', async () => {
    const bare = dir.write('platform-public.b64', platform.pkcs1PublicDerBase64);
    for (const path of [platform.pkcs1PublicPemPath, bare]) {
      const run = await cli(['encrypt', '--public-key', path], '{}');
      expect(run.code).toBe(0);
      expect(opensslOaepDecrypt(Buffer.from(run.stdout.trim(), 'base64'), platform.pkcs1PrivatePemPath).toString()).toBe('{}');
    }
  });

  it.each([
    ['not JSON', 'hello', 'stdin is not JSON'],
    ['empty stdin', '', 'stdin is not JSON'],
    ['truncated JSON', '{"a":', 'stdin is not JSON'],
  ])('%s: exit 2', async (_name, stdin, message) => {
    expect(expectFailure(await cli(['encrypt', '--public-key', platform.spkiPemPath], stdin), 2)).toContain(message);
  });

  it('key problems: exit 2 with the reason, never the key text', async () => {
    const cases: Array<[string, string]> = [
      [merchant.pkcs8PemPath, 'holds a private key where a public key is expected'],
      [small.spkiPemPath, '1024-bit'],
      [dir.file('missing.pem'), 'no such file'],
    ];
    for (const [path, message] of cases) {
      const line = expectFailure(await cli(['encrypt', '--public-key', path], '{}'), 2);
      expect(line).toMatch(/^treasury-desk: /);
      expect(line).toContain(message);
      expectNoKeyText(line);
    }
  });

  it('a missing --public-key is a usage error (exit 2)', async () => {
    const run = await cli(['encrypt'], '{}');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--public-key');
  });
});

describe('wire decrypt', () => {
  it('decrypts openssl-made ciphertext (surrounding white space ignored) to the exact JSON text', async () => {
    const plaintext = Buffer.from(JSON_TEXT, 'utf8');
    const made: Buffer[] = [];
    for (let offset = 0; offset < plaintext.length; offset += 214) {
      made.push(opensslOaepEncrypt(plaintext.subarray(offset, offset + 214), platform.spkiPemPath));
    }
    const run = await cli(['decrypt', '--private-key', platform.pkcs1PrivatePemPath], `  ${Buffer.concat(made).toString('base64')}\r\n`);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${JSON_TEXT}\n`);
  });

  it('round trip with encrypt, with a bare base64 private key file', async () => {
    const encrypted = await cli(['encrypt', '--public-key', merchant.spkiPemPath], JSON_TEXT);
    const run = await cli(['decrypt', '--private-key', bareMerchantPrivatePath], encrypted.stdout);
    expect(run).toEqual({ code: 0, stdout: `${JSON_TEXT}\n`, stderr: '' });
  });

  it('ciphertext problems are bad input (exit 2) with the CipherError reason', async () => {
    const good = (await cli(['encrypt', '--public-key', platform.spkiPemPath], '{"a":1}')).stdout.trim();
    const notJson = opensslOaepEncrypt(Buffer.from('not json'), platform.spkiPemPath).toString('base64');
    const cases: Array<[string, string]> = [
      ['not base64 !', 'not canonical standard base64'],
      ['', 'not a positive multiple'],
      [Buffer.alloc(100).toString('base64'), 'not a positive multiple'],
      [good.replace(/^./, good.startsWith('A') ? 'B' : 'A'), 'RSA-OAEP block failed'],
      [notJson, 'not JSON'],
    ];
    for (const [stdin, message] of cases) {
      expect(expectFailure(await cli(['decrypt', '--private-key', platform.pkcs8PemPath], stdin), 2)).toContain(message);
    }
    // the right ciphertext under the wrong key
    expect(expectFailure(await cli(['decrypt', '--private-key', merchant.pkcs8PemPath], good), 2)).toContain('wrong key');
  });

  it('an encrypted or public key file is refused with exit 2, without key text', async () => {
    for (const [path, message] of [
      [encryptedKeyPath, 'passphrase-encrypted'],
      [platform.spkiPemPath, 'holds a public key where a private key is expected'],
    ] as const) {
      const line = expectFailure(await cli(['decrypt', '--private-key', path], 'AAAA'), 2);
      expect(line).toContain(message);
      expectNoKeyText(line);
    }
  });
});

describe('wire sign', () => {
  const signArgs = (extra: readonly string[] = []): string[] => [
    'sign',
    '--private-key',
    merchant.pkcs1PrivatePemPath,
    '--timestamp',
    TIMESTAMP,
    '--nonce',
    NONCE,
    ...extra,
  ];

  it('signs TIMESTAMP\\nNONCE\\nBODY over stdin exactly as given, identical to openssl dgst -sha256 -sign', async () => {
    const body = (await cli(['encrypt', '--public-key', platform.spkiPemPath], JSON_TEXT)).stdout.trim();
    const run = await cli(signArgs(), body);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${opensslSign(signingInput(TIMESTAMP, NONCE, body), merchant.pkcs8PemPath)}\n`);
  });

  it('a trailing line feed is part of the body; --strip-newline removes exactly one', async () => {
    const plain = (await cli(signArgs(), 'body')).stdout;
    const withNewline = (await cli(signArgs(), 'body\n')).stdout;
    expect(withNewline).not.toBe(plain);
    expect(withNewline).toBe(`${opensslSign(`${TIMESTAMP}\n${NONCE}\nbody\n`, merchant.pkcs8PemPath)}\n`);
    expect((await cli(signArgs(['--strip-newline']), 'body\n')).stdout).toBe(plain);
    expect((await cli(signArgs(['--strip-newline']), 'body')).stdout).toBe(plain);
    expect((await cli(signArgs(['--strip-newline']), 'body\n\n')).stdout).toBe(withNewline);
    // surrounding spaces are never trimmed
    expect((await cli(signArgs(), ' body')).stdout).not.toBe(plain);
  });

  it.each([
    ['--timestamp', '', '§4.1'],
    ['--timestamp', '17e8', '§4.1'],
    ['--timestamp', '-1700000000', '§4.1'],
    ['--timestamp', '1700000000.5', '§4.1'],
    ['--nonce', 'short', '§4.3'],
    ['--nonce', `${'a'.repeat(31)}-`, '§4.3'],
    ['--nonce', 'a'.repeat(65), '§4.3'],
  ])('a malformed %s %j: exit 2', async (option, value, section) => {
    const args = signArgs().map((arg, index, all) => (all[index - 1] === option ? value : arg));
    expect(expectFailure(await cli(args, 'body'), 2)).toContain(section);
  });

  it('key problems: exit 2 with the reason, never the key text', async () => {
    for (const [path, message] of [
      [encryptedKeyPath, 'passphrase-encrypted'],
      [merchant.spkiPemPath, 'public key where a private key is expected'],
      [small.pkcs8PemPath, '1024-bit'],
    ] as const) {
      const args = ['sign', '--private-key', path, '--timestamp', TIMESTAMP, '--nonce', NONCE];
      const line = expectFailure(await cli(args, 'body'), 2);
      expect(line).toContain(message);
      expectNoKeyText(line);
    }
  });

  it('missing options are usage errors (exit 2)', async () => {
    expect((await cli(['sign', '--private-key', merchant.pkcs8PemPath, '--nonce', NONCE], 'x')).code).toBe(2);
    expect((await cli(['sign', '--private-key', merchant.pkcs8PemPath, '--timestamp', TIMESTAMP], 'x')).code).toBe(2);
    expect((await cli(['sign', '--timestamp', TIMESTAMP, '--nonce', NONCE], 'x')).code).toBe(2);
  });
});

describe('wire verify', () => {
  const verifyArgs = (signature: string, extra: readonly string[] = [], publicKey = merchant.spkiPemPath): string[] => [
    'verify',
    '--public-key',
    publicKey,
    '--timestamp',
    TIMESTAMP,
    '--nonce',
    NONCE,
    '--signature',
    signature,
    ...extra,
  ];

  it('an openssl signature verifies: exit 0, prints valid', async () => {
    const signature = opensslSign(signingInput(TIMESTAMP, NONCE, 'QUJD/+=='), merchant.pkcs8PemPath);
    expect(await cli(verifyArgs(signature), 'QUJD/+==')).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    expect((await cli(verifyArgs(signature, [], merchant.pkcs1PublicPemPath), 'QUJD/+==')).code).toBe(0);
  });

  it('a signature that does not verify: exit 1, one line naming the failure', async () => {
    const signature = opensslSign(signingInput(TIMESTAMP, NONCE, 'body'), merchant.pkcs8PemPath);
    const cases: Array<[string[], string]> = [
      [verifyArgs(signature), 'other body'],
      [verifyArgs(signature, [], platform.spkiPemPath), 'body'],
      [verifyArgs(signature).map((arg) => (arg === TIMESTAMP ? '1700000001' : arg)), 'body'],
      [verifyArgs(signature).map((arg) => (arg === NONCE ? NONCE.toUpperCase() : arg)), 'body'],
      [verifyArgs(Buffer.alloc(256).toString('base64')), 'body'],
    ];
    for (const [args, stdin] of cases) {
      const line = expectFailure(await cli(args, stdin), 1);
      expect(line).toMatch(/^treasury-desk: signature does not verify /);
    }
  });

  it('the body is exact: a trailing line feed fails (with a hint) unless --strip-newline', async () => {
    const signature = opensslSign(signingInput(TIMESTAMP, NONCE, 'body'), merchant.pkcs8PemPath);
    const line = expectFailure(await cli(verifyArgs(signature), 'body\n'), 1);
    expect(line).toMatch(/^treasury-desk: signature does not verify .*--strip-newline/);
    expect((await cli(verifyArgs(signature, ['--strip-newline']), 'body\n')).code).toBe(0);
    expect((await cli(verifyArgs(signature, ['--strip-newline']), 'body')).code).toBe(0);
    expect((await cli(verifyArgs(signature, ['--strip-newline']), 'body\n\n')).code).toBe(1);
  });

  it('sign and verify agree', async () => {
    const signed = await cli(['sign', '--private-key', bareMerchantPrivatePath, '--timestamp', TIMESTAMP, '--nonce', NONCE], 'x/y');
    expect((await cli(verifyArgs(signed.stdout.trim()), 'x/y')).stdout).toBe('valid\n');
  });

  it('malformed input is exit 2: signature not base64, bad timestamp or nonce, bad key', async () => {
    const signature = opensslSign(signingInput(TIMESTAMP, NONCE, 'body'), merchant.pkcs8PemPath);
    const urlEncoded = signature.replace(/\+/g, ' ');
    expect(expectFailure(await cli(verifyArgs('%2Bab'), 'body'), 2)).toContain('--signature is not standard base64');
    // The URL-safe alphabet's '_' and '-', put in the value (a signature need not hold a '/' or '+' to replace); not
    // first, where commander would read '-V…' or '-h…' as an option of its own.
    expect(expectFailure(await cli(verifyArgs(`${signature.slice(0, 10)}_${signature.slice(11)}`), 'body'), 2)).toContain('standard base64');
    expect(expectFailure(await cli(verifyArgs(`${signature.slice(0, 10)}-${signature.slice(11)}`), 'body'), 2)).toContain('standard base64');
    if (urlEncoded !== signature) expect(expectFailure(await cli(verifyArgs(urlEncoded), 'body'), 2)).toContain('standard base64');
    expect(expectFailure(await cli(verifyArgs(''), 'body'), 2)).toContain('standard base64');
    const badTimestamp = verifyArgs(signature).map((arg) => (arg === TIMESTAMP ? 'yesterday' : arg));
    expect(expectFailure(await cli(badTimestamp, 'body'), 2)).toContain('§4.1');
    const badNonce = verifyArgs(signature).map((arg) => (arg === NONCE ? 'n-o-n-c-e-0123456789' : arg));
    expect(expectFailure(await cli(badNonce, 'body'), 2)).toContain('§4.3');
    const privateAsPublic = expectFailure(await cli(verifyArgs(signature, [], merchant.pkcs8PemPath), 'body'), 2);
    expect(privateAsPublic).toContain('private key where a public key is expected');
    expectNoKeyText(privateAsPublic);
    // white space around a pasted header value is tolerated
    expect((await cli(verifyArgs(` ${signature} `), 'body')).code).toBe(0);
  });
});

describe('wire usage', () => {
  it('no subcommand or an unknown one is a usage error (exit 2)', async () => {
    expect((await cli([])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
  });

  it('help for a subcommand exits 0 and documents the trailing-newline rule', async () => {
    const run = await cli(['sign', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--strip-newline');
    expect(run.stdout).toContain('printf %s');
  });
});

describe('the real process: treasury-desk wire ...', () => {
  async function spawnWire(args: readonly string[], stdin: string): Promise<Captured> {
    return spawnCli(['wire', ...args], processEnv(), stdin);
  }

  it('encrypt with the CLI, decrypt with openssl; sign with the CLI, verify with openssl; a failed verify exits 1', async () => {
    const encrypted = await spawnWire(['encrypt', '--public-key', platform.spkiPemPath], `${JSON_TEXT}\n`);
    expect(encrypted.stderr).toBe('');
    expect(encrypted.code).toBe(0);
    const body = encrypted.stdout.trim();
    const plaintext = Buffer.concat(blocks(body).map((block) => opensslOaepDecrypt(block, platform.pkcs8PemPath)));
    expect(plaintext.toString('utf8')).toBe(JSON_TEXT);

    // a body piped with echo's trailing newline, stripped by --strip-newline
    const signed = await spawnWire(
      ['sign', '--private-key', merchant.pkcs8PemPath, '--timestamp', TIMESTAMP, '--nonce', NONCE, '--strip-newline'],
      `${body}\n`,
    );
    expect(signed.code).toBe(0);
    const signature = signed.stdout.trim();
    expect(opensslVerify(dir, signingInput(TIMESTAMP, NONCE, body), signature, merchant.spkiPemPath)).toBe(true);

    const verifyArgs = ['verify', '--public-key', merchant.spkiPemPath, '--timestamp', TIMESTAMP, '--nonce', NONCE, '--signature', signature];
    const refused = await spawnWire(verifyArgs, `${body}x`);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^treasury-desk: signature does not verify [^\n]*\n$/);
  });

  it('bad input from a pipe exits 2 with one stderr line', async () => {
    const run = await spawnWire(['decrypt', '--private-key', platform.pkcs8PemPath], 'definitely not ciphertext');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^treasury-desk: [^\n]*\n$/);
  });
});
