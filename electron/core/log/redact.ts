// The redaction layer every log record passes before it is written (house rule 2): fields named like secrets, the
// secret values this process holds (registered where the engine loads them, in every encoding a log could show), and
// secret shapes (PEM private keys, bearer tokens, the service's Authorization header, invitation codes).
// Invariant: redactValue answers plain JSON-safe data in which no registered secret (in any registered form), no
// secret-named field's text and no private key block appears; public data (addresses, txids, public keys,
// fingerprints, error codes) passes unchanged.
import { KeyObject } from 'node:crypto';
import { CONTRACT_ERROR_CODES } from '../../contract/result';

/** What a registered value is; it names the marker that replaces it (`[redacted merchantSecret]`). */
export type SecretKind =
  | 'merchantSecret'
  | 'merchantPrivateKey'
  | 'authorization'
  | 'accessToken'
  | 'deskKey'
  | 'operatorKey'
  | 'passphrase'
  | 'invitationCode'
  /** Any other value of a field named like a secret (a token, a key, a password). */
  | 'secretField';

/** Stands in for the value of a field named like a secret. */
export const REDACTED = '[redacted]';

/**
 * Values shorter than this are not redacted by value (a short string such as "1234" would garble every log line that
 * happens to contain it); fields named like secrets are still redacted whatever their length. Passphrases are at least
 * 10 characters (contract/limits.ts), invitation codes 13, tokens and keys far longer.
 */
export const MIN_REGISTERED_SECRET_LENGTH = 8;
/** Forms kept at most (oldest dropped first); the patterns below still apply to a dropped value's shape. */
export const MAX_REGISTERED_FORMS = 20_000;
/** Longest string kept in a record (after redaction, so a cut never leaves part of a secret that was whole). */
export const MAX_LOGGED_STRING_LENGTH = 8_192;
const MAX_DEPTH = 6;
const MAX_ARRAY_ITEMS = 50;
const MAX_OBJECT_KEYS = 100;

/** Field names whose value is a secret, compared lower-case without separators, by ending (`merchantSecret`, `as.passphrase`). */
const SECRET_FIELD_ENDINGS = [
  'passphrase',
  'password',
  'secret',
  'privatekey',
  'token',
  'authorization',
  'cookie',
  'apikey',
  'credentials',
  'mnemonic',
  'deskkey',
  'signingkey',
  'invitationcode',
] as const;
/**
 * A `code` field is an invitation code (operators/accept) unless it is an error code: one of the contract's, a
 * camelCase service reason such as `tokenExpired` (an invitation code is typed in one case), or a Node code such as
 * `ENOENT`, `ERR_INVALID_ARG_TYPE`. Numbers are never secret.
 */
const ERROR_CODE_SHAPE = /^(?:[a-z]+[A-Z][A-Za-z0-9]*|E[A-Z]{2,}|ERR_[A-Z0-9_]+)$/;
const KNOWN_ERROR_CODES: ReadonlySet<string> = new Set(CONTRACT_ERROR_CODES);

interface TextPattern {
  readonly pattern: RegExp;
  readonly replacement: string;
}

/**
 * Secret shapes, replaced in any text. Safe inside a JSON string too: neither a match nor its replacement spans a quote
 * or a backslash escape other than `\n`/`\r` inside a key block, so a written line stays valid JSON.
 */
const SECRET_SHAPES: readonly TextPattern[] = [
  // PEM private keys (PKCS#8, PKCS#1, EC, encrypted), whole or cut short, with real or JSON-escaped line breaks.
  {
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:[A-Za-z0-9+/=\s]|\\[nr])*(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----)?/g,
    replacement: '[redacted private key]',
  },
  { pattern: /\b(Bearer)\s+[A-Za-z0-9\-._~+/]+=*/gi, replacement: '$1 [redacted]' },
  // The service's Authorization header: `auth ` + MD5(merchantId & secret) in hex (PROTOCOL §6.1), a standing credential.
  { pattern: /\bauth [0-9a-fA-F]{32}\b/g, replacement: 'auth [redacted]' },
  { pattern: /\b(SVC-TOKEN)(["']?\s*[:=]\s*["']?)[A-Za-z0-9\-._~+/]+=*/gi, replacement: '$1$2[redacted]' },
  // Invitation codes as handed out: ABCD-EFGH-IJKL-M (key fingerprints have four characters in the last group).
  { pattern: /(?<![A-Za-z0-9-])[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7](?![A-Za-z0-9-])/g, replacement: '[redacted invitationCode]' },
  // A team database URL's password (postgres://role:PASSWORD@host/db).
  { pattern: /\b(postgres(?:ql)?:\/\/[^:/\s@"'\\]*):[^@\s"'\\]*@/gi, replacement: '$1:[redacted]@' },
];

/** Secret assignments in free text (`passphrase=...`, `"secret": "..."`): only in strings, never over a written JSON line. */
const ASSIGNMENT_SHAPES: readonly TextPattern[] = [
  { pattern: /\b(passphrase|password|secret|token|access_?token|private_?key|api_?key)=(?:"[^"]*"|'[^']*'|[^\s&;,"'\\]+)/gi, replacement: '$1=[redacted]' },
  {
    pattern: /(["'])(passphrase|newPassphrase|password|secret|merchantSecret|token|accessToken|privateKey|merchantPrivateKey|authorization)\1(\s*:\s*)(["'])(?:\\.|(?!\4)[^\\])*\4/gi,
    replacement: '$1$2$1$3$4[redacted]$4',
  },
];

function normalizedFieldName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** True when a field of this name holds a secret whatever its value looks like. */
export function isSecretFieldName(name: string): boolean {
  const normalized = normalizedFieldName(name);
  return SECRET_FIELD_ENDINGS.some((ending) => normalized.endsWith(ending));
}

function isInvitationCodeField(name: string, value: string): boolean {
  return normalizedFieldName(name) === 'code' && !KNOWN_ERROR_CODES.has(value) && !ERROR_CODE_SHAPE.test(value);
}

function byteForms(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes);
  const base64 = buffer.toString('base64');
  const hex = buffer.toString('hex');
  return [base64, base64.replace(/=+$/, ''), buffer.toString('base64url'), hex, hex.toUpperCase()];
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** The encodings a secret text may appear in: itself, base64/hex of its bytes, a PEM's body and lines and DER. */
function textForms(text: string): string[] {
  const forms = [text, text.trim(), ...byteForms(Buffer.from(text, 'utf8'))];
  for (const match of text.matchAll(PEM_BLOCK)) {
    const body = (match[2] ?? '').replace(/\s+/g, '');
    forms.push(body, ...byteForms(Buffer.from(body, 'base64')));
    for (const line of (match[2] ?? '').split(/\s+/)) if (line.length >= 16) forms.push(line);
  }
  // Bare base64 DER (PROTOCOL §1.2 allows a key without its PEM armour): also its hex form.
  const compact = text.replace(/\s+/g, '');
  if (compact.length >= 64 && /^[A-Za-z0-9+/]+=*$/.test(compact)) forms.push(compact, ...byteForms(Buffer.from(compact, 'base64')));
  return forms;
}

function keyForms(key: KeyObject): string[] {
  if (key.type === 'secret') return byteForms(key.export());
  if (key.type !== 'private') return []; // public keys are public
  const forms: string[] = [];
  const der = key.export({ format: 'der', type: 'pkcs8' });
  // The DER, the PEM, and the base64 text a keychain entry keeps (and that text encoded once more).
  forms.push(...byteForms(der), ...textForms(String(key.export({ format: 'pem', type: 'pkcs8' }))), ...textForms(der.toString('base64')));
  if (key.asymmetricKeyType === 'rsa') {
    forms.push(...byteForms(key.export({ format: 'der', type: 'pkcs1' })), ...textForms(String(key.export({ format: 'pem', type: 'pkcs1' }))));
  }
  // The private numbers as a JWK shows them (d; RSA's p, q, dp, dq, qi), base64url.
  const jwk = key.export({ format: 'jwk' }) as Record<string, unknown>;
  for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) {
    const value = jwk[member];
    if (typeof value === 'string') forms.push(value, ...byteForms(Buffer.from(value, 'base64url')));
  }
  return forms;
}

/** A form as it appears inside a JSON string or a URL, when that differs (a PEM's line breaks become `\n`). */
function escapedForms(form: string): string[] {
  const json = JSON.stringify(form).slice(1, -1);
  const url = encodeURIComponent(form);
  return [json, url].filter((escaped) => escaped !== form);
}

function marker(kind: SecretKind): string {
  return `[redacted ${kind}]`;
}

function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…[${text.length - limit} more characters]`;
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * Redacts log records. One process-wide instance (`secretRedactor`) holds the registered values; tests make their own.
 */
export class Redactor {
  /** Every registered form and the kind it came from, in registration order (the oldest is dropped first). */
  readonly #forms = new Map<string, SecretKind>();
  #sorted: (readonly [string, SecretKind])[] | null = null;

  /**
   * Remembers a secret this process holds so no log record can carry it: text (and its base64/hex, a PEM's body, a
   * bare DER key's), bytes, or a private or secret KeyObject (its DER, PEM and JWK numbers). Public keys are ignored.
   */
  register(value: string | Uint8Array | KeyObject, kind: SecretKind): void {
    let forms: string[];
    if (value instanceof KeyObject) forms = keyForms(value);
    else if (typeof value === 'string') forms = textForms(value);
    else forms = byteForms(value);
    for (const form of forms) {
      for (const variant of [form, ...escapedForms(form)]) {
        if (variant.length < MIN_REGISTERED_SECRET_LENGTH) continue;
        this.#forms.delete(variant);
        this.#forms.set(variant, kind);
      }
    }
    while (this.#forms.size > MAX_REGISTERED_FORMS) {
      const oldest = this.#forms.keys().next().value;
      if (oldest === undefined) break;
      this.#forms.delete(oldest);
    }
    this.#sorted = null;
  }

  /** How many forms are registered (for tests and diagnostics). */
  get registeredForms(): number {
    return this.#forms.size;
  }

  /** Longest first, so a secret that contains another is replaced whole. */
  #byLength(): readonly (readonly [string, SecretKind])[] {
    this.#sorted ??= [...this.#forms.entries()].sort((a, b) => b[0].length - a[0].length);
    return this.#sorted;
  }

  #replaceRegistered(text: string): string {
    let out = text;
    for (const [form, kind] of this.#byLength()) {
      if (out.includes(form)) out = out.split(form).join(marker(kind));
    }
    return out;
  }

  /** A text with registered secrets, secret shapes and secret assignments replaced. */
  redactText(text: string): string {
    let out = this.#replaceRegistered(text);
    for (const { pattern, replacement } of [...SECRET_SHAPES, ...ASSIGNMENT_SHAPES]) out = out.replace(pattern, replacement);
    return out;
  }

  /**
   * The last pass over a serialized JSON log line before it is written: registered secrets (raw and JSON-escaped) and
   * secret shapes. Keeps the line valid JSON (no replacement contains a quote or a backslash).
   */
  scrubLine(line: string): string {
    let out = this.#replaceRegistered(line);
    for (const { pattern, replacement } of SECRET_SHAPES) out = out.replace(pattern, replacement);
    return out;
  }

  /** The kind of the first secret found in `text` (a registered form or a secret shape), or null when it is clean. */
  findSecret(text: string): SecretKind | 'secretShape' | null {
    for (const [form, kind] of this.#byLength()) if (text.includes(form)) return kind;
    for (const { pattern } of SECRET_SHAPES) {
      const probe = new RegExp(pattern.source, pattern.flags.replace('g', ''));
      const match = probe.exec(text);
      // A Bearer/SVC-TOKEN/auth match that is already redacted is not a finding.
      if (match !== null && !match[0].includes('[redacted')) return 'secretShape';
    }
    return null;
  }

  /** Any value as plain JSON-safe data with every secret replaced (see the file's invariant). */
  redactValue(value: unknown): unknown {
    return this.#value(value, null, 0, new WeakSet());
  }

  /** An Error (or anything thrown) as a plain record: type, message, stack, code and cause, all redacted. */
  redactError(error: unknown): unknown {
    return this.#value(error, null, 0, new WeakSet());
  }

  #value(value: unknown, fieldName: string | null, depth: number, seen: WeakSet<object>): unknown {
    if (value === null || value === undefined || typeof value === 'boolean') return value ?? null;
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'string') {
      if (fieldName !== null && (isSecretFieldName(fieldName) || isInvitationCodeField(fieldName, value))) return REDACTED;
      return truncate(this.redactText(value), MAX_LOGGED_STRING_LENGTH);
    }
    if (typeof value === 'function' || typeof value === 'symbol') return `[${typeof value}]`;
    if (fieldName !== null && isSecretFieldName(fieldName)) return REDACTED;
    if (seen.has(value)) return '[circular]';
    if (depth >= MAX_DEPTH) return '[too deep]';
    seen.add(value);
    try {
      if (value instanceof KeyObject) return value.type === 'public' ? '[public key]' : '[redacted key]';
      if (value instanceof Uint8Array || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
      if (value instanceof Error) return this.#error(value, depth, seen);
      if (Array.isArray(value)) {
        const items = value.slice(0, MAX_ARRAY_ITEMS).map((item) => this.#value(item, null, depth + 1, seen));
        if (value.length > MAX_ARRAY_ITEMS) items.push(`[${value.length - MAX_ARRAY_ITEMS} more items]`);
        return items;
      }
      if (value instanceof Map) return this.#entries([...value.entries()].map(([key, item]) => [String(key), item]), depth, seen);
      if (value instanceof Set) return this.#value([...value], fieldName, depth, seen);
      if (value instanceof URL) return this.redactText(value.href);
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return this.#value(toJSON.call(value), fieldName, depth + 1, seen);
      // Only plain records are expanded: an engine object (a context, a client) is named, never dumped.
      if (!isPlainObject(value)) return `[${(value as { constructor?: { name?: string } }).constructor?.name ?? 'object'}]`;
      return this.#entries(Object.entries(value), depth, seen);
    } finally {
      seen.delete(value);
    }
  }

  #entries(entries: readonly (readonly [string, unknown])[], depth: number, seen: WeakSet<object>): Record<string, unknown> {
    const record: Record<string, unknown> = {};
    for (const [key, item] of entries.slice(0, MAX_OBJECT_KEYS)) {
      if (item === undefined) continue;
      record[this.redactText(key)] = this.#value(item, key, depth + 1, seen);
    }
    if (entries.length > MAX_OBJECT_KEYS) record['[more keys]'] = entries.length - MAX_OBJECT_KEYS;
    return record;
  }

  #error(error: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
    const record: Record<string, unknown> = { type: error.name, message: truncate(this.redactText(error.message), MAX_LOGGED_STRING_LENGTH) };
    if (typeof error.stack === 'string') record['stack'] = truncate(this.redactText(error.stack), MAX_LOGGED_STRING_LENGTH * 2);
    for (const [key, item] of Object.entries(error)) {
      if (key === 'name' || key === 'message' || key === 'stack' || key === 'cause' || item === undefined) continue;
      record[key] = this.#value(item, key, depth + 1, seen);
    }
    if (error instanceof AggregateError) record['errors'] = this.#value(error.errors, null, depth + 1, seen);
    if (error.cause !== undefined) record['cause'] = this.#value(error.cause, null, depth + 1, seen);
    return record;
  }
}

function kindOfField(name: string): SecretKind {
  const normalized = normalizedFieldName(name);
  if (normalized.endsWith('passphrase')) return 'passphrase';
  if (normalized === 'code' || normalized.endsWith('invitationcode')) return 'invitationCode';
  if (normalized.endsWith('privatekey')) return 'merchantPrivateKey';
  if (normalized.endsWith('secret')) return 'merchantSecret';
  if (normalized.endsWith('token')) return 'accessToken';
  return 'secretField';
}

/**
 * Registers the text of every secret-named field in a request (passphrases, invitation codes, a pasted secret or
 * key), however deep: a person's secret is known to the redactor from the moment it reaches the engine.
 */
export function registerSecretFields(redactor: Redactor, value: unknown, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') {
      if (isSecretFieldName(key) || isInvitationCodeField(key, item)) redactor.register(item, kindOfField(key));
    } else {
      registerSecretFields(redactor, item, depth + 1);
    }
  }
}

/** The process's redactor: the engine registers the secrets it loads here; the logger and diagnostics use it. */
export const secretRedactor = new Redactor();

/** Registers a secret with the process's redactor (see Redactor.register). */
export function registerSecret(value: string | Uint8Array | KeyObject, kind: SecretKind): void {
  secretRedactor.register(value, kind);
}

/** Registers a request's secret-named fields with the process's redactor (see registerSecretFields). */
export function registerRequestSecrets(request: unknown): void {
  registerSecretFields(secretRedactor, request);
}
