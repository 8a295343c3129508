// Ethereum / BNB Smart Chain address rule (PROTOCOL §11.2): 0x + 40 hex; one-case accepted, mixed case must match EIP-55.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { CHAIN_INFO } from '../currencies';
import { accept, refuse, type RuleVerdict } from './types';
import { isHexCharacter, listCharacters, offendingCharacters, withArticle } from './text';

export const EVM_HEX_DIGITS = 40;

/**
 * EIP-55 mixed-case checksum of 40 hex digits (any case): digit i is upper-cased when nibble i of
 * keccak-256(lowercase hex as ASCII) is 8 or more. Returns the text with its 0x prefix.
 */
export function toEip55(hexDigits: string): string {
  const lower = hexDigits.toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i += 1) {
    const ch = lower[i] ?? '';
    out += parseInt(hash[i] ?? '0', 16) >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

export function checkEvm(text: string, chain: 'eth' | 'bnb'): RuleVerdict {
  const name = CHAIN_INFO[chain].displayName;
  if (!text.startsWith('0x')) {
    if (/^[0-9a-fA-F]{40}$/.test(text)) {
      return refuse('badFormat', `is missing the 0x prefix: ${withArticle(name)} address is 0x followed by ${EVM_HEX_DIGITS} hex digits`);
    }
    if (text.startsWith('0X')) return refuse('badFormat', 'starts with 0X; it must start with a lowercase 0x');
    return refuse('badFormat', `must start with 0x followed by ${EVM_HEX_DIGITS} hex digits`);
  }
  const body = text.slice(2);
  const bad = offendingCharacters(body, isHexCharacter);
  if (bad.length > 0) return refuse('badCharacters', `contains ${listCharacters(bad)}, which ${bad.length === 1 ? 'is not a hex digit' : 'are not hex digits'}`);
  if (body.length !== EVM_HEX_DIGITS) {
    return refuse('badLength', `has ${body.length} hex digits after 0x; ${withArticle(name)} address has ${EVM_HEX_DIGITS}`);
  }
  const checksummed = toEip55(body);
  const oneCase = body === body.toLowerCase() || body === body.toUpperCase();
  if (oneCase) {
    return accept(checksummed, 'evmHex', [
      'written in one case, so it carries no checksum: a mistyped character would not be noticed',
    ]);
  }
  if (text !== checksummed) {
    return refuse('badChecksum', 'upper/lower case does not match its EIP-55 checksum — check for a mistyped character');
  }
  return accept(checksummed, 'evmHex');
}
