// Chain-independent address checks: empty and white space, addresses of another chain, chain detection, currencies.
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_PROBLEMS,
  CHAINS,
  detectChains,
  validateAddress,
  validateForCurrency,
  WITHDRAWAL_CURRENCIES,
  type Chain,
} from '../../../electron/chains';

const TRON = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const SOLANA = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TON = 'UQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPuwA';
const TON_RAW = '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e';
const TON_TESTNET = '0QDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPleK';

function reasonOf(chain: Chain, address: string): string {
  const check = validateAddress(chain, address);
  return check.valid ? '(valid)' : `${check.code}: ${check.reason}`;
}

describe('empty and white space', () => {
  it.each(CHAINS)('%s: the empty string is refused as empty', (chain) => {
    expect(validateAddress(chain, '')).toEqual({ valid: false, chain, code: 'empty', reason: 'no address given' });
  });

  it('only spaces is refused as empty', () => {
    expect(reasonOf('trx', ' \t\n')).toBe('empty: the address is blank: only spaces or line breaks');
  });

  it.each([
    ['trx', ` ${TRON}`],
    ['eth', `${EVM} `],
    ['bnb', `${EVM}\n`],
    ['solana', `\t${SOLANA}`],
    ['ton', `${TON}\u00a0`],
  ] as const)('%s: a valid address with spaces around it is refused and the reason says it is otherwise valid', (chain, text) => {
    expect(reasonOf(chain, text)).toMatch(/^whitespace: has spaces at the start or end \(without them it is a valid .+ address\)$/);
  });

  it('an invalid address with spaces around it is refused for the spaces only', () => {
    expect(reasonOf('trx', ' Txyz ')).toBe('whitespace: has spaces at the start or end');
  });

  it('a space inside is refused', () => {
    expect(reasonOf('trx', 'TNPeeaaFB7K9 cmo4uQpcU32zGK8G1NYqeL')).toBe('whitespace: contains spaces or line breaks inside the address');
  });

  it('a zero-width space is not white space but a bad character, shown by its code point', () => {
    expect(reasonOf('trx', `${TRON.slice(0, 10)}\u200b${TRON.slice(10)}`)).toContain('U+200B');
  });
});

describe('an address of another chain', () => {
  it.each([
    ['eth', TRON, 'this is a TRON address, not an Ethereum one'],
    ['bnb', TRON, 'this is a TRON address, not a BNB Smart Chain one'],
    ['trx', EVM, 'this is an Ethereum or BNB Smart Chain address, not a TRON one'],
    ['trx', SOLANA, 'this is a Solana address, not a TRON one'],
    ['solana', TRON, 'this is a TRON address, not a Solana one'],
    ['eth', TON, 'this is a TON address, not an Ethereum one'],
    ['trx', TON_RAW, 'this is a TON address, not a TRON one'],
    ['ton', EVM, 'this is an Ethereum or BNB Smart Chain address, not a TON one'],
    ['solana', TON_TESTNET, 'this is a TON testnet address, not a Solana one'],
  ] as const)('for %s, %s is refused: %s', (chain, address, reason) => {
    expect(validateAddress(chain, address)).toEqual({ valid: false, chain, code: 'otherChain', reason });
  });

  it('one 0x address is valid on both eth and bnb (PROTOCOL §11.5)', () => {
    expect(validateAddress('eth', EVM).valid).toBe(true);
    expect(validateAddress('bnb', EVM).valid).toBe(true);
  });
});

describe('detectChains', () => {
  it.each([
    [TRON, ['trx']],
    [EVM, ['eth', 'bnb']],
    [SOLANA, ['solana']],
    [TON, ['ton']],
    [TON_RAW, ['ton']],
    [TON_TESTNET, []],
    ['', []],
    [` ${TRON}`, []],
    ['hello', []],
  ] as const)('%j satisfies %j', (address, chains) => {
    expect(detectChains(address)).toEqual(chains);
  });
});

describe('validateForCurrency', () => {
  it.each(WITHDRAWAL_CURRENCIES)('%s uses its chain\'s rules', (symbol) => {
    const chain = symbol.split('.')[0] as Chain;
    const sample: Record<Chain, string> = { trx: TRON, eth: EVM, bnb: EVM, solana: SOLANA, ton: TON };
    expect(validateForCurrency(symbol, sample[chain])).toMatchObject({ valid: true, chain });
  });

  it('a TRON address for eth.usdt is refused with the cross-chain reason', () => {
    expect(validateForCurrency('eth.usdt', TRON)).toMatchObject({ valid: false, code: 'otherChain' });
  });
});

describe('problem codes', () => {
  it('every refusal above uses a listed code', () => {
    const texts = ['', ' x', 'a b', TRON, EVM, SOLANA, TON, TON_TESTNET, '0x12', 'T0', '1:ab'];
    for (const chain of CHAINS) {
      for (const text of texts) {
        const check = validateAddress(chain, text);
        if (!check.valid) expect(ADDRESS_PROBLEMS).toContain(check.code);
      }
    }
  });
});
