// Solana address rule (PROTOCOL §11.3): base58 text decoding to exactly 32 bytes. Solana addresses carry no checksum.
import { base58 } from '@scure/base';
import { accept, refuse, type RuleVerdict } from './types';
import { containsForeignCharacters, isBase58Character, offendingCharacters } from './text';

export const SOLANA_DECODED_BYTES = 32;
/** 32 bytes are 32 (all leading zero bytes) to 44 base58 characters. */
export const SOLANA_MIN_TEXT_LENGTH = 32;
export const SOLANA_MAX_TEXT_LENGTH = 44;

export function checkSolana(text: string): RuleVerdict {
  const bad = offendingCharacters(text, isBase58Character);
  if (bad.length > 0) {
    return refuse('badCharacters', `${containsForeignCharacters(bad, 'a Solana address')} (base58 has no 0, O, I or l)`);
  }
  if (text.length < SOLANA_MIN_TEXT_LENGTH || text.length > SOLANA_MAX_TEXT_LENGTH) {
    return refuse(
      'badLength',
      `has ${text.length} characters; a Solana address has ${SOLANA_MIN_TEXT_LENGTH} to ${SOLANA_MAX_TEXT_LENGTH}`,
    );
  }
  const decoded = base58.decode(text);
  if (decoded.length !== SOLANA_DECODED_BYTES) {
    return refuse('badLength', `decodes to ${decoded.length} bytes; a Solana address decodes to exactly ${SOLANA_DECODED_BYTES}`);
  }
  return accept(text, 'solanaBase58', [
    'Solana addresses carry no checksum: a mistyped character would not be noticed, so compare it with the source',
  ]);
}
