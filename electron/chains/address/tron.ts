// TRON address rule (PROTOCOL §11.1): base58check of 25 bytes whose payload starts with version byte 0x41 (text starts with T).
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, createBase58check, hex } from '@scure/base';
import { accept, refuse, type RuleVerdict } from './types';
import { containsForeignCharacters, isBase58Character, offendingCharacters } from './text';

/** base58check as TRON uses it: payload + first 4 bytes of SHA-256(SHA-256(payload)). */
export const tronBase58check = createBase58check(sha256);
export const TRON_VERSION_BYTE = 0x41;
/** Version byte + 20-byte account + 4-byte checksum. */
export const TRON_DECODED_BYTES = 25;
export const TRON_TEXT_LENGTH = 34;

/** The 21-byte hex form (41 + 40 hex digits) that TRON APIs print; §11.1 accepts only the base58 form. */
const TRON_HEX_FORM = /^41[0-9a-fA-F]{40}$/;

/** Base58check text of a 21-byte TRON payload (0x41 + 20 bytes). */
export function encodeTronAddress(payload: Uint8Array): string {
  return tronBase58check.encode(payload);
}

export function checkTron(text: string): RuleVerdict {
  if (TRON_HEX_FORM.test(text)) {
    const base58Form = encodeTronAddress(hex.decode(text.toLowerCase()));
    return refuse('badFormat', `this is the hex form of a TRON address; use its base58 form ${base58Form}`);
  }
  const bad = offendingCharacters(text, isBase58Character);
  if (bad.length > 0) {
    return refuse('badCharacters', `${containsForeignCharacters(bad, 'a TRON address')} (base58 has no 0, O, I or l)`);
  }
  // Every 25-byte payload with version byte 0x41 is exactly 34 base58 characters.
  if (text.length !== TRON_TEXT_LENGTH) {
    return refuse('badLength', `has ${text.length} characters; a TRON address has ${TRON_TEXT_LENGTH}`);
  }
  const decoded = base58.decode(text);
  if (decoded.length !== TRON_DECODED_BYTES) {
    return refuse('badLength', `decodes to ${decoded.length} bytes; a TRON address decodes to ${TRON_DECODED_BYTES}`);
  }
  let payload: Uint8Array;
  try {
    payload = tronBase58check.decode(text);
  } catch {
    return refuse('badChecksum', 'checksum does not match — check for a mistyped character');
  }
  const version = payload[0] ?? -1;
  if (version !== TRON_VERSION_BYTE) {
    const shown = `0x${version.toString(16).padStart(2, '0')}`;
    return refuse(
      'wrongVersion',
      `this is a base58check address of another network (version byte ${shown}); TRON addresses start with T (version byte 0x41)`,
    );
  }
  return accept(text, 'tronBase58check');
}
