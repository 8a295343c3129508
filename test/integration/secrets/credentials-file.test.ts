// readCredentialsFile (headless `--credentials FILE`): the sandbox's credentials.json format, PEM and base64 DER
// keys, clear errors naming file and field (never a value), and the group/other permission warning.
import { createPublicKey } from 'node:crypto';
import { chmod, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CredentialsFileError,
  credentialsFilePermissionWarning,
  describeCredentials,
  readCredentialsFile,
} from '../../../electron/core/secrets';
import { publicKeyFingerprint } from '../../../electron/protocol/keys';
import { leakedParts, makeCredentials, type TestCredentials } from './support';

let folder = '';
let counter = 0;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'treasury-credentials-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function writeFileWith(content: string, mode = 0o600): Promise<string> {
  counter += 1;
  const file = join(folder, `credentials-${counter}.json`);
  await writeFile(file, content, { mode });
  await chmod(file, mode);
  return file;
}

function fileJson(creds: TestCredentials, patch: Record<string, unknown> = {}): string {
  return JSON.stringify({ baseUrl: 'http://127.0.0.1:8787', ...creds.text, ...patch }, null, 2);
}

async function failureOf(file: string): Promise<CredentialsFileError> {
  const error = await readCredentialsFile(file).catch((caught: unknown) => caught);
  if (!(error instanceof CredentialsFileError)) throw new Error(`expected CredentialsFileError, got ${String(error)}`);
  return error;
}

function expectNoLeak(error: Error, creds: TestCredentials): void {
  expect(leakedParts(`${error.message}\n${error.stack ?? ''}\n${inspect(error, { depth: 5 })}`, creds)).toEqual([]);
}

describe('readCredentialsFile', () => {
  it('reads the sandbox format with PEM keys and parses the keys once', async () => {
    const creds = makeCredentials();
    const file = await writeFileWith(fileJson(creds));
    const result = await readCredentialsFile(file);
    expect(result.baseUrl).toBe('http://127.0.0.1:8787');
    expect(result.credentials).toEqual(creds.text);
    expect(result.keys.secret).toBe(creds.text.secret);
    expect(describeCredentials(result.keys).merchantPublicKeyFingerprint).toBe(publicKeyFingerprint(createPublicKey(creds.merchantPublicKeyPem)));
    expect(result.warnings).toEqual([]);
  });

  it('accepts keys as bare base64 DER (PROTOCOL §1.2) and a UTF-8 byte order mark', async () => {
    const creds = makeCredentials();
    const bare = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const file = await writeFileWith(
      `\uFEFF${fileJson(creds, { platformPublicKey: bare(creds.text.platformPublicKey), merchantPrivateKey: bare(creds.text.merchantPrivateKey) })}`,
    );
    const result = await readCredentialsFile(file);
    expect(result.keys.merchantPrivateKey.type).toBe('private');
    expect(result.keys.platformPublicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('warns when group or other users can access the file, and says why a file is less safe', async () => {
    const creds = makeCredentials();
    const file = await writeFileWith(fileJson(creds), 0o644);
    const { warnings } = await readCredentialsFile(file);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${file} can be accessed by group or other users (mode 0644)`);
    expect(warnings[0]).toContain(`chmod 600 ${file}`);
    expect(warnings[0]).toMatch(/less safe than the OS keychain/);
    expect(leakedParts(warnings.join('\n'), creds)).toEqual([]);
    await chmod(file, 0o600);
    expect((await readCredentialsFile(file)).warnings).toEqual([]);
  });

  it('checks every group/other bit (mode & 0o077) and is silent on Windows', () => {
    expect(credentialsFilePermissionWarning('f', 0o100600, 'linux')).toBeUndefined();
    expect(credentialsFilePermissionWarning('f', 0o100400, 'linux')).toBeUndefined();
    for (const mode of [0o640, 0o620, 0o610, 0o604, 0o602, 0o601, 0o666]) {
      expect(credentialsFilePermissionWarning('f', mode, 'linux'), mode.toString(8)).toMatch(/can be accessed by group or other users/);
    }
    expect(credentialsFilePermissionWarning('f', 0o644, 'win32')).toBeUndefined();
  });

  it('warns about unknown fields by name only', async () => {
    const creds = makeCredentials();
    const file = await writeFileWith(fileJson(creds, { note: creds.text.secret }));
    const { warnings } = await readCredentialsFile(file);
    expect(warnings).toEqual([`${file}: unknown field(s) ignored: "note".`]);
  });

  it('says when the file is missing or is a directory', async () => {
    const missing = await failureOf(join(folder, 'nope.json'));
    expect(missing.failure).toBe('missing');
    expect(missing.message).toBe(`${join(folder, 'nope.json')}: no such file: pass the path of an existing credentials.json.`);
    const directory = join(folder, 'a-directory');
    await mkdir(directory);
    expect((await failureOf(directory)).failure).toBe('unreadable');
  });

  it('says the JSON is invalid, with a position but never the text around it', async () => {
    const creds = makeCredentials();
    const broken = fileJson(creds).replace(`"secret": "${creds.text.secret}"`, `"secret": ${creds.text.secret}`);
    const error = await failureOf(await writeFileWith(broken));
    expect(error.failure).toBe('badJson');
    expect(error.message).toMatch(/is not valid JSON/);
    expectNoLeak(error, creds);
    const truncated = await failureOf(await writeFileWith(fileJson(creds).slice(0, 200)));
    expect(truncated.failure).toBe('badJson');
    expectNoLeak(truncated, creds);
    expect((await failureOf(await writeFileWith('[1, 2]'))).message).toMatch(/must hold a JSON object, not a list/);
  });

  it('names a missing or wrongly typed field, never its value', async () => {
    const creds = makeCredentials();
    for (const field of ['baseUrl', 'merchantId', 'secret', 'platformPublicKey', 'merchantPrivateKey']) {
      const all = JSON.parse(fileJson(creds)) as Record<string, unknown>;
      delete all[field];
      const missing = await failureOf(await writeFileWith(JSON.stringify(all)));
      expect(missing.failure).toBe('invalidField');
      expect(missing.field).toBe(field);
      expect(missing.message).toMatch(new RegExp(`: ${field}: is missing\\.$`));

      const typed = await failureOf(await writeFileWith(fileJson(creds, { [field]: { value: creds.text.secret } })));
      expect(typed.field).toBe(field);
      expect(typed.message).toMatch(new RegExp(`: ${field}: must be a string, not an object\\.$`));
      expectNoLeak(typed, creds);
    }
    expect((await failureOf(await writeFileWith(fileJson(creds, { secret: 12345 })))).message).toMatch(/secret: must be a string, not a number/);
  });

  it('names an unusable key or value by field', async () => {
    const creds = makeCredentials();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ merchantPrivateKey: creds.text.platformPublicKey }, 'merchantPrivateKey'],
      [{ platformPublicKey: 'QUJD' }, 'platformPublicKey'],
      [{ secret: '' }, 'secret'],
      [{ merchantId: 'a b' }, 'merchantId'],
      [{ baseUrl: 'not a url' }, 'baseUrl'],
      [{ baseUrl: 'ftp://example.com' }, 'baseUrl'],
      [{ baseUrl: 'http://pay.example.com' }, 'baseUrl'],
      [{ baseUrl: `https://user:${creds.text.secret}@example.com` }, 'baseUrl'],
    ];
    for (const [patch, field] of cases) {
      const error = await failureOf(await writeFileWith(fileJson(creds, patch)));
      expect(error.failure).toBe('invalidField');
      expect(error.field).toBe(field);
      expect(error.message).toContain(`${field}: `);
      expectNoLeak(error, creds);
    }
  });
});
