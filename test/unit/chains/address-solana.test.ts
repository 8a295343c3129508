// Solana address rule (PROTOCOL §11.3) against well-known program and mint addresses and every refusal kind.
import { describe, expect, it } from 'vitest';
import { base58 } from '@scure/base';
import { validateAddress } from '../../../electron/chains';

// Well-known addresses, as published in @solana/spl-token's constants.js and Solana's docs:
// System Program, SPL Token, Token-2022, Associated Token Account program, wrapped SOL mint, Compute Budget program.
const WELL_KNOWN = [
  '11111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  'So11111111111111111111111111111111111111112',
  'ComputeBudget111111111111111111111111111111',
];

describe('well-known Solana addresses', () => {
  it.each(WELL_KNOWN)('%s is valid and unchanged by normalization', (address) => {
    const check = validateAddress('solana', address);
    expect(check).toMatchObject({ valid: true, chain: 'solana', normalized: address, form: 'solanaBase58' });
    expect(check.valid && check.notes.join(' ')).toContain('no checksum');
  });

  it('the System Program is 32 zero bytes', () => {
    expect(base58.decode('11111111111111111111111111111111')).toEqual(new Uint8Array(32));
  });
});

/** Two zero bytes, 0x01 and 30 bytes of 0xff: 33 bytes written in 44 characters, the longest a Solana address can be. */
const THIRTY_THREE_BYTES_IN_44 = base58.encode(new Uint8Array([0, 0, 1, ...new Uint8Array(30).fill(0xff)]));

describe('refusals', () => {
  it('the 33-byte sample really is 44 characters long', () => {
    expect(THIRTY_THREE_BYTES_IN_44).toHaveLength(44);
  });

  it.each([
    // A plausible misremembering of the SPL Token program id: base58, but 49 characters.
    ['a 49-character base58 text', 'TokenkegQfeZyiNwAJbNbGMKPxSWAgpq9uHMMsXtvFSYEU5Gx', 'badLength', 'has 49 characters; a Solana address has 32 to 44'],
    ['31 ones', '1111111111111111111111111111111', 'badLength', 'has 31 characters'],
    ['42 characters decoding to 31 bytes', base58.encode(new Uint8Array(31).fill(0xff)), 'badLength', 'decodes to 31 bytes; a Solana address decodes to exactly 32'],
    ['44 characters decoding to 33 bytes', THIRTY_THREE_BYTES_IN_44, 'badLength', 'decodes to 33 bytes'],
    ['a zero', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0', 'badCharacters', "contains '0'"],
    ['capital I and O', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5IO', 'badCharacters', "contains 'I' and 'O', which never appear in a Solana address"],
  ])('%s', (_what, address, code, reason) => {
    const check = validateAddress('solana', address);
    expect(check).toMatchObject({ valid: false, chain: 'solana', code });
    expect(check.valid ? '' : check.reason).toContain(reason);
  });
});
