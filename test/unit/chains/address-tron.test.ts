// TRON address rule (PROTOCOL §11.1) against documented TRON addresses and every refusal kind.
import { describe, expect, it } from 'vitest';
import { hex } from '@scure/base';
import { encodeTronAddress, toEip55, validateAddress } from '../../../electron/chains';

// Documented base58 / hex pairs:
// - TRON developer docs, "Account" (developers.tron.network/docs/account): TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL <-> 418840E6C55B9ADA326D211D818C34A994AECED808.
// - Dune docs, "Tron address functions": THHRK1bA7YRPZBcLnTP1SZy9ipUpsRwpo6 <-> 0x503aa4ad108bd3a89ba0310e23b49fb654cd6986 (without 41).
// - TRON wallet-cli docs, "encoding convert": TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp <-> 4112e94f...6d29 <-> EVM 0x12E94f...7a6D29.
const DOCUMENTED_PAIRS: readonly (readonly [string, string])[] = [
  ['TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL', '418840E6C55B9ADA326D211D818C34A994AECED808'],
  ['THHRK1bA7YRPZBcLnTP1SZy9ipUpsRwpo6', '41503aa4ad108bd3a89ba0310e23b49fb654cd6986'],
  ['TBhCfAytTEh52WFL6HYr64i2nmc3u3TCUp', '4112e94f5a3c88b17d2f6e0b9a45cd310f8e7a6d29'],
];
// Widely used in TRON tooling examples (checksums verified by these tests): TJRabP... and the USDT TRC-20 contract.
const WELL_KNOWN = ['TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'];

describe('documented TRON addresses', () => {
  it.each(DOCUMENTED_PAIRS)('%s is valid and encodes the documented hex %s', (base58Form, hexForm) => {
    expect(validateAddress('trx', base58Form)).toMatchObject({ valid: true, chain: 'trx', normalized: base58Form, notes: [] });
    expect(encodeTronAddress(hex.decode(hexForm.toLowerCase()))).toBe(base58Form);
  });

  it.each(WELL_KNOWN)('%s is valid', (address) => {
    expect(validateAddress('trx', address).valid).toBe(true);
  });

  it('the wallet-cli example shares its 20 bytes with the documented EIP-55 EVM form', () => {
    expect(toEip55('12e94f5a3c88b17d2f6e0b9a45cd310f8e7a6d29')).toBe('0x12E94f5a3c88b17d2F6E0b9a45Cd310f8E7a6D29');
  });
});

describe('refusals', () => {
  it.each([
    ['last character changed', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeM', 'badChecksum', 'checksum does not match — check for a mistyped character'],
    ['two neighbours swapped', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYeqL', 'badChecksum', 'checksum does not match'],
    ['a zero (not in base58)', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqe0', 'badCharacters', "contains '0', which never appears in a TRON address"],
    ['O and l (not in base58)', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYOl', 'badCharacters', "contains 'O' and 'l', which never appear"],
    ['one character short', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqe', 'badLength', 'has 33 characters; a TRON address has 34'],
    ['one character extra', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeLL', 'badLength', 'has 35 characters'],
    ['the hex form', '418840E6C55B9ADA326D211D818C34A994AECED808', 'badFormat', 'use its base58 form TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'],
    // Bitcoin's genesis address: valid base58check, 25 bytes, but version byte 0x00.
    ['a Bitcoin address', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'wrongVersion', 'version byte 0x00'],
  ])('%s', (_what, address, code, reason) => {
    const check = validateAddress('trx', address);
    expect(check).toMatchObject({ valid: false, chain: 'trx', code });
    expect(check.valid ? '' : check.reason).toContain(reason);
  });

  it('a checksum-correct 34-character text starting with T but with version byte 0x42 is refused as another network', () => {
    const text = encodeTronAddress(hex.decode('42' + '8840e6c55b9ada326d211d818c34a994aeced808'));
    expect(text).toMatch(/^T.{33}$/);
    const check = validateAddress('trx', text);
    expect(check).toMatchObject({ valid: false, code: 'wrongVersion' });
    expect(check.valid ? '' : check.reason).toContain('version byte 0x42');
  });

  it('a 35-character base58check text (version byte 0xa0, the old TRON testnet) is refused for its length', () => {
    const text = encodeTronAddress(hex.decode('a0' + '8840e6c55b9ada326d211d818c34a994aeced808'));
    expect(validateAddress('trx', text)).toMatchObject({ valid: false, code: 'badLength' });
  });
});
