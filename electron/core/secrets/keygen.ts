// Generates a merchant RSA key pair (PROTOCOL §1.1, 2048-bit by default) for registering with the platform: the
// public key PEM is for export or copy; the private key stays inside, to be stored in the keychain. Invariant: the
// private key never appears in JSON, util.inspect, String() or template literals of the result.
import { createPublicKey } from 'node:crypto';
import { inspect } from 'node:util';
import { generateRsaKeyPair, publicKeyFingerprint } from '../../protocol/keys';
import { RSA_DEFAULT_MODULUS_BITS, RSA_MAX_MODULUS_BITS, RSA_MIN_MODULUS_BITS } from '../../protocol/profile';
import type { MerchantCredentialsText } from './credentials';

/** What may be shown about a generated key pair. */
export interface GeneratedKeyPairDescription {
  readonly publicKeyFingerprint: string;
  readonly bits: number;
}

/** A fresh merchant key pair. Register `publicKeyPem` with the platform; keep the private key for the keychain. */
export class GeneratedMerchantKeyPair {
  /** PEM `PUBLIC KEY` (SPKI): send this to the platform. */
  readonly publicKeyPem: string;
  /** SHA-256 fingerprint of the public key, to compare with what the platform shows. */
  readonly publicKeyFingerprint: string;
  readonly bits: number;
  readonly #privateKeyPem: string;

  constructor(publicKeyPem: string, privateKeyPem: string) {
    const publicKey = createPublicKey(publicKeyPem);
    this.publicKeyPem = publicKeyPem;
    this.publicKeyFingerprint = publicKeyFingerprint(publicKey);
    this.bits = publicKey.asymmetricKeyDetails?.modulusLength ?? 0;
    this.#privateKeyPem = privateKeyPem;
  }

  /** PEM `PRIVATE KEY` (PKCS#8, unencrypted): only for storing in the keychain. Never log it. */
  get privateKeyPem(): string {
    return this.#privateKeyPem;
  }

  /** The four credentials once the platform has issued the other three, ready for `KeychainVault.save`. */
  credentialsWith(issued: Omit<MerchantCredentialsText, 'merchantPrivateKey'>): MerchantCredentialsText {
    return {
      merchantId: issued.merchantId,
      secret: issued.secret,
      platformPublicKey: issued.platformPublicKey,
      merchantPrivateKey: this.#privateKeyPem,
    };
  }

  describe(): GeneratedKeyPairDescription {
    return { publicKeyFingerprint: this.publicKeyFingerprint, bits: this.bits };
  }

  toJSON(): GeneratedKeyPairDescription & { readonly publicKeyPem: string } {
    return { ...this.describe(), publicKeyPem: this.publicKeyPem };
  }

  toString(): string {
    return `GeneratedMerchantKeyPair(${this.bits}-bit, publicKey=SHA256:${this.publicKeyFingerprint})`;
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

/** Generates an RSA merchant key pair; `bits` must be within PROTOCOL §1.1 (2048 to 4096). */
export function generateMerchantKeyPair(bits: number = RSA_DEFAULT_MODULUS_BITS): GeneratedMerchantKeyPair {
  if (!Number.isInteger(bits) || bits < RSA_MIN_MODULUS_BITS || bits > RSA_MAX_MODULUS_BITS || bits % 8 !== 0) {
    throw new RangeError(`key size must be a multiple of 8 from ${RSA_MIN_MODULUS_BITS} to ${RSA_MAX_MODULUS_BITS} bits, got ${bits}`);
  }
  const pair = generateRsaKeyPair(bits);
  return new GeneratedMerchantKeyPair(pair.publicKeyPem, pair.privateKeyPem);
}
