// Ciphertext of PROTOCOL §2: UTF-8 JSON cut into (k - 42)-byte chunks, each RSA-OAEP(SHA-1, MGF1-SHA-1) encrypted,
// blocks concatenated and standard-base64 encoded. Decoding refuses everything §2.4 names with a CipherError.
import { constants, privateDecrypt, publicEncrypt, type KeyObject } from 'node:crypto';
import { CipherError } from './errors';
import { modulusBytes } from './keys';
import { OAEP_HASH, OAEP_OVERHEAD_BYTES } from './profile';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Largest plaintext chunk for a key: k - 42 bytes (§2.2). */
export function chunkBytes(key: KeyObject): number {
  return modulusBytes(key) - OAEP_OVERHEAD_BYTES;
}

/** Encrypts raw bytes per §2.2–§2.3. An empty input still yields one block (used for `{}` at minimum, §2.5). */
export function encryptBytes(plaintext: Uint8Array, publicKey: KeyObject): string {
  const size = chunkBytes(publicKey);
  const blocks: Buffer[] = [];
  for (let offset = 0; offset < plaintext.length || offset === 0; offset += size) {
    blocks.push(encryptBlock(plaintext.subarray(offset, offset + size), publicKey));
    if (plaintext.length === 0) break;
  }
  return Buffer.concat(blocks).toString('base64');
}

export function encryptBlock(chunk: Uint8Array, publicKey: KeyObject): Buffer {
  return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: OAEP_HASH }, chunk);
}

/** Encrypts a JSON value (§2.1: UTF-8, no BOM). */
export function encryptJson(value: unknown, publicKey: KeyObject): string {
  return encryptBytes(Buffer.from(JSON.stringify(value), 'utf8'), publicKey);
}

/**
 * Decodes strict standard base64 (§2.3): canonical alphabet, padding, no line breaks. The empty text is valid base64
 * of zero bytes; §2.4 refuses it as a decoded length of 0 (`badLength`, in splitBlocks).
 */
export function decodeStrictBase64(text: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) {
    throw new CipherError('invalidBase64', 'the ciphertext is not canonical standard base64.');
  }
  return bytes;
}

/** Splits decoded ciphertext into k-byte blocks, refusing a length of 0 or not a multiple of k (§2.4). */
export function splitBlocks(ciphertext: Buffer, blockBytes: number): Buffer[] {
  if (ciphertext.length === 0 || ciphertext.length % blockBytes !== 0) {
    throw new CipherError(
      'badLength',
      `the ciphertext is ${ciphertext.length} bytes, not a positive multiple of the ${blockBytes}-byte RSA block.`,
    );
  }
  const blocks: Buffer[] = [];
  for (let offset = 0; offset < ciphertext.length; offset += blockBytes) {
    blocks.push(ciphertext.subarray(offset, offset + blockBytes));
  }
  return blocks;
}

export function decryptBlock(block: Uint8Array, privateKey: KeyObject): Buffer {
  try {
    return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: OAEP_HASH }, block);
  } catch {
    throw new CipherError('oaepFailed', 'an RSA-OAEP block failed to decrypt: wrong key or damaged ciphertext.');
  }
}

/** Decrypts §2 ciphertext to bytes. */
export function decryptBytes(base64: string, privateKey: KeyObject): Buffer {
  const blocks = splitBlocks(decodeStrictBase64(base64), modulusBytes(privateKey));
  return Buffer.concat(blocks.map((block) => decryptBlock(block, privateKey)));
}

/** Parses decrypted bytes as UTF-8 JSON, refusing invalid UTF-8, a BOM, or non-JSON text (§2.4). */
export function parsePlaintextJson(plaintext: Uint8Array): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(plaintext);
  } catch {
    throw new CipherError('invalidUtf8', 'the decrypted plaintext is not valid UTF-8.');
  }
  if (text.length === 0) throw new CipherError('emptyPlaintext', 'the decrypted plaintext is empty.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CipherError('invalidJson', 'the decrypted plaintext is not JSON.');
  }
}

/** Decrypts §2 ciphertext and parses its JSON. */
export function decryptJson(base64: string, privateKey: KeyObject): unknown {
  return parsePlaintextJson(decryptBytes(base64, privateKey));
}
