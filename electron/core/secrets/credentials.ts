// The four merchant credentials (PROTOCOL §1.3): raw text in, keys parsed ONCE into KeyObjects out (house rule 3).
// Invariant: MerchantKeys never prints, serialises or stringifies its secret or key material, and every error
// names the bad field but never repeats its value.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import { KeyFormatError } from '../../protocol/errors';
import { parsePrivateKey, parsePublicKey, publicKeyFingerprint } from '../../protocol/keys';
import { AUTHORIZATION_PREFIX } from '../../protocol/profile';
import { authorizationHeader } from '../../protocol/wire';
import { registerSecret } from '../log/redact';
import { InvalidCredentialsError } from '../kernel/secrets-errors';
import { CREDENTIAL_FIELDS, CREDENTIAL_FIELD_TITLES, type CredentialField } from '../kernel/credential-fields';

/** The four credentials as text, exactly as imported (keys as PEM or bare base64 DER, PROTOCOL §1.2). */
export interface MerchantCredentialsText {
  readonly merchantId: string;
  readonly secret: string;
  readonly platformPublicKey: string;
  readonly merchantPrivateKey: string;
}

/** Everything about a credential set that may be shown, logged or sent over IPC: no secret, no key material. */
export interface CredentialsDescription {
  readonly merchantId: string;
  /** SHA-256 of the platform public key's SPKI DER, hex pairs joined by ':'. */
  readonly platformPublicKeyFingerprint: string;
  /** SHA-256 of the merchant public key (derived from the private key): what the platform has registered. */
  readonly merchantPublicKeyFingerprint: string;
  readonly platformKeyBits: number;
  readonly merchantKeyBits: number;
}

/** The merchant ID travels as the SVC-APP-ID header: visible ASCII, no spaces. */
const MERCHANT_ID_PATTERN = /^[\x21-\x7e]{1,128}$/;
const SECRET_MAX_LENGTH = 1024;
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Only parseCredentials may construct MerchantKeys, so every instance has been validated. */
const CONSTRUCT = Symbol('MerchantKeys.construct');

interface MerchantKeyParts {
  readonly merchantId: string;
  readonly secret: string;
  readonly platformPublicKey: KeyObject;
  readonly merchantPrivateKey: KeyObject;
  readonly merchantPublicKey: KeyObject;
}

/**
 * A validated credential set with its keys parsed once. The secret and the keys are held in private fields and
 * reached only through explicit getters; JSON.stringify, util.inspect / console.log, String() and template
 * literals show only the merchant ID and fingerprints.
 */
export class MerchantKeys {
  readonly #merchantId: string;
  readonly #secret: string;
  readonly #platformPublicKey: KeyObject;
  readonly #merchantPrivateKey: KeyObject;
  readonly #merchantPublicKey: KeyObject;
  readonly #description: CredentialsDescription;

  /** @internal Use parseCredentials (or KeychainVault.load / loadCredentialsFile). */
  constructor(token: typeof CONSTRUCT, parts: MerchantKeyParts) {
    if (token !== CONSTRUCT) throw new TypeError('MerchantKeys is built by parseCredentials()');
    this.#merchantId = parts.merchantId;
    this.#secret = parts.secret;
    this.#platformPublicKey = parts.platformPublicKey;
    this.#merchantPrivateKey = parts.merchantPrivateKey;
    this.#merchantPublicKey = parts.merchantPublicKey;
    this.#description = Object.freeze({
      merchantId: parts.merchantId,
      platformPublicKeyFingerprint: publicKeyFingerprint(parts.platformPublicKey),
      merchantPublicKeyFingerprint: publicKeyFingerprint(parts.merchantPublicKey),
      platformKeyBits: parts.platformPublicKey.asymmetricKeyDetails?.modulusLength ?? 0,
      merchantKeyBits: parts.merchantPrivateKey.asymmetricKeyDetails?.modulusLength ?? 0,
    });
  }

  /** The merchant ID (SVC-APP-ID); not secret. */
  get merchantId(): string {
    return this.#merchantId;
  }

  /** The merchant secret (getToken's MD5 input, PROTOCOL §6.1). Never log it. */
  get secret(): string {
    return this.#secret;
  }

  /** Verifies responses and callbacks (§3.4). */
  get platformPublicKey(): KeyObject {
    return this.#platformPublicKey;
  }

  /** Signs requests and decrypts responses (§3.4). Never log or export it. */
  get merchantPrivateKey(): KeyObject {
    return this.#merchantPrivateKey;
  }

  /** The public half of merchantPrivateKey: what the platform holds. */
  get merchantPublicKey(): KeyObject {
    return this.#merchantPublicKey;
  }

  /** Non-secret facts only. */
  describe(): CredentialsDescription {
    return this.#description;
  }

  toJSON(): CredentialsDescription {
    return this.#description;
  }

  toString(): string {
    const d = this.#description;
    return (
      `MerchantKeys(merchantId=${d.merchantId}, platformPublicKey=SHA256:${d.platformPublicKeyFingerprint}, ` +
      `merchantPublicKey=SHA256:${d.merchantPublicKeyFingerprint})`
    );
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** Non-secret facts about a credential set: merchant ID, SHA-256 fingerprints and key sizes. */
export function describeCredentials(keys: MerchantKeys): CredentialsDescription {
  return keys.describe();
}

function requireText(text: MerchantCredentialsText, field: CredentialField): string {
  const value: unknown = (text as unknown as Record<string, unknown> | null | undefined)?.[field];
  if (value === undefined || value === null) {
    throw new InvalidCredentialsError(field, `the ${CREDENTIAL_FIELD_TITLES[field]} is missing.`);
  }
  if (typeof value !== 'string') {
    throw new InvalidCredentialsError(field, `the ${CREDENTIAL_FIELD_TITLES[field]} must be text, not ${describeType(value)}.`);
  }
  const trimmed = value.trim();
  if (trimmed.length === 0) {
    throw new InvalidCredentialsError(field, `the ${CREDENTIAL_FIELD_TITLES[field]} is empty.`);
  }
  return trimmed;
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function parseKey(field: 'platformPublicKey' | 'merchantPrivateKey', text: string): KeyObject {
  const title = CREDENTIAL_FIELD_TITLES[field];
  try {
    return field === 'platformPublicKey' ? parsePublicKey(text, title) : parsePrivateKey(text, title);
  } catch (error) {
    if (error instanceof KeyFormatError) {
      // KeyFormatError messages are "<label>: <detail>" and never contain key text (protocol/keys.ts).
      const detail = error.message.startsWith(`${title}: `) ? error.message.slice(title.length + 2) : error.message;
      throw new InvalidCredentialsError(field, `the ${title} ${detail}`, { cause: error });
    }
    throw new InvalidCredentialsError(field, `the ${title} could not be read.`);
  }
}

/**
 * Validates the four credentials and parses both keys once. Throws InvalidCredentialsError naming the first bad
 * field (in CREDENTIAL_FIELDS order); the message never contains the value.
 */
export function parseCredentials(text: MerchantCredentialsText): MerchantKeys {
  const values = Object.fromEntries(CREDENTIAL_FIELDS.map((field) => [field, requireText(text, field)])) as Record<
    CredentialField,
    string
  >;
  // Every credential set the engine reads passes here: from now on its secret and private key never reach a log.
  registerSecret(values.secret, 'merchantSecret');
  registerSecret(values.merchantPrivateKey, 'merchantPrivateKey');
  // getToken's Authorization header, `auth ` + MD5(merchantId & secret), is a standing credential too.
  const authorization = authorizationHeader(values.merchantId, values.secret);
  registerSecret(authorization, 'authorization');
  registerSecret(authorization.slice(AUTHORIZATION_PREFIX.length), 'authorization');
  if (!MERCHANT_ID_PATTERN.test(values.merchantId)) {
    throw new InvalidCredentialsError(
      'merchantId',
      'the merchant ID must be 1 to 128 visible ASCII characters without spaces (it is sent as the SVC-APP-ID header).',
    );
  }
  if (values.secret.length > SECRET_MAX_LENGTH) {
    throw new InvalidCredentialsError('secret', `the merchant secret is longer than ${SECRET_MAX_LENGTH} characters.`);
  }
  if (CONTROL_CHARACTERS.test(values.secret)) {
    throw new InvalidCredentialsError('secret', 'the merchant secret contains line breaks or other control characters.');
  }
  const platformPublicKey = parseKey('platformPublicKey', values.platformPublicKey);
  const merchantPrivateKey = parseKey('merchantPrivateKey', values.merchantPrivateKey);
  registerSecret(merchantPrivateKey, 'merchantPrivateKey');
  const merchantPublicKey = createPublicKey(merchantPrivateKey);
  if (publicKeyFingerprint(platformPublicKey) === publicKeyFingerprint(merchantPublicKey)) {
    throw new InvalidCredentialsError(
      'platformPublicKey',
      "the platform public key is the public half of the merchant private key: paste the platform's public key here, not your own.",
    );
  }
  return new MerchantKeys(CONSTRUCT, {
    merchantId: values.merchantId,
    secret: values.secret,
    platformPublicKey,
    merchantPrivateKey,
    merchantPublicKey,
  });
}
