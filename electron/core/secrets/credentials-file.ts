// Reads a credentials.json for headless `--credentials FILE` use (the sandbox's format), validated with zod and
// parsed once into MerchantKeys. Invariant: errors and warnings name the file and the field, never a value.
import { FileReadError, readRegularFile } from '../files/bounded-read';
import { z } from 'zod';
import { serviceBaseUrlProblem } from '../../chains';
import { parseCredentials, type MerchantCredentialsText, type MerchantKeys } from './credentials';
import { CredentialsFileError, InvalidCredentialsError } from '../kernel/secrets-errors';

/** `{"baseUrl", "merchantId", "secret", "platformPublicKey", "merchantPrivateKey"}`; keys as PEM or base64 DER (§1.2). */
const credentialsFileSchema = z.object({
  baseUrl: z.string(),
  merchantId: z.string(),
  secret: z.string(),
  platformPublicKey: z.string(),
  merchantPrivateKey: z.string(),
});

export type CredentialsFileJson = z.infer<typeof credentialsFileSchema>;

const KNOWN_FIELDS: readonly string[] = Object.keys(credentialsFileSchema.shape);

/** A credentials file larger than this is not a credentials file. */
const MAX_FILE_BYTES = 1024 * 1024;

export interface CredentialsFileContents {
  /** The service's base URL (http or https, no user name or password in it). */
  readonly baseUrl: string;
  /** The four credentials as text, e.g. for `KeychainVault.save`. */
  readonly credentials: MerchantCredentialsText;
  /** The same credentials, validated and parsed once. */
  readonly keys: MerchantKeys;
  /** Things the user should fix (file permissions, unknown fields); never contain values. */
  readonly warnings: readonly string[];
}

/**
 * The warning for a credentials file that group or other users can access (mode & 0o077), or undefined.
 * Windows has no such mode bits, so nothing is reported there.
 */
export function credentialsFilePermissionWarning(file: string, mode: number, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32' || (mode & 0o077) === 0) return undefined;
  const octal = (mode & 0o777).toString(8).padStart(4, '0');
  return (
    `${file} can be accessed by group or other users (mode ${octal}): run \`chmod 600 ${file}\`. ` +
    'A credentials file is less safe than the OS keychain in any case: the secret and the private key sit in plain ' +
    'text that any process running as your user, and every backup of the file, can read.'
  );
}

function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** "line L, column C" from V8's "... at position N" (the rest of V8's message may quote the file: never shown). */
function jsonErrorPosition(error: unknown, text: string): string {
  const match = error instanceof Error ? /at position (\d+)/.exec(error.message) : null;
  if (!match?.[1]) return '';
  const position = Number(match[1]);
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return ` near line ${line}, column ${column}`;
}

/** The file's text and mode, read once with a bound (core/files/bounded-read.ts); a BOM at its start is dropped. */
function readText(file: string): { text: string; mode: number } {
  try {
    const { bytes, mode } = readRegularFile(file, MAX_FILE_BYTES);
    return { text: bytes.toString('utf8').replace(/^\uFEFF/, ''), mode };
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    switch (error.code) {
      case 'missing':
        throw new CredentialsFileError('missing', file, 'no such file: pass the path of an existing credentials.json.');
      case 'notRegular':
        throw new CredentialsFileError('unreadable', file, `${error.reason}, not a credentials.json file.`);
      case 'tooLarge':
        throw new CredentialsFileError('unreadable', file, `${error.reason}: too large for a credentials file.`);
      case 'denied':
      case 'notUtf8':
      case 'unreadable':
        throw new CredentialsFileError('unreadable', file, `${error.reason}.`);
    }
  }
}

function checkBaseUrl(file: string, value: string): string {
  const problem = serviceBaseUrlProblem(value);
  if (problem !== null) throw new CredentialsFileError('invalidField', file, `baseUrl: ${problem}.`, 'baseUrl');
  return value.trim();
}

/**
 * Reads, validates and parses a credentials.json. Throws CredentialsFileError (missing file, unreadable, bad JSON,
 * missing or wrongly typed field, unusable key) naming the field, never its value.
 */
export async function readCredentialsFile(file: string): Promise<CredentialsFileContents> {
  const { text, mode } = readText(file);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CredentialsFileError('badJson', file, `is not valid JSON${jsonErrorPosition(error, text)}.`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new CredentialsFileError('badJson', file, `must hold a JSON object, not ${jsonTypeName(json)}.`);
  }
  const raw = json as Record<string, unknown>;
  const parsed = credentialsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = typeof issue?.path[0] === 'string' ? issue.path[0] : '';
    const detail =
      raw[field] === undefined ? 'is missing.' : `must be a string, not ${jsonTypeName(raw[field])}.`;
    throw new CredentialsFileError('invalidField', file, `${field}: ${detail}`, field);
  }
  const baseUrl = checkBaseUrl(file, parsed.data.baseUrl);
  const credentials: MerchantCredentialsText = {
    merchantId: parsed.data.merchantId,
    secret: parsed.data.secret,
    platformPublicKey: parsed.data.platformPublicKey,
    merchantPrivateKey: parsed.data.merchantPrivateKey,
  };
  let keys: MerchantKeys;
  try {
    keys = parseCredentials(credentials);
  } catch (error) {
    if (error instanceof InvalidCredentialsError) {
      throw new CredentialsFileError('invalidField', file, error.message, error.field, { cause: error });
    }
    throw error;
  }

  const warnings: string[] = [];
  const permission = credentialsFilePermissionWarning(file, mode);
  if (permission) warnings.push(permission);
  const unknown = Object.keys(raw).filter((key) => !KNOWN_FIELDS.includes(key));
  if (unknown.length > 0) {
    const names = unknown.slice(0, 10).map((key) => JSON.stringify(key.slice(0, 40)));
    warnings.push(`${file}: unknown field(s) ignored: ${names.join(', ')}${unknown.length > 10 ? ', …' : ''}.`);
  }
  return { baseUrl, credentials, keys, warnings };
}
