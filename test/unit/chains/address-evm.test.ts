// Ethereum / BNB Smart Chain address rule (PROTOCOL §11.2) against the published EIP-55 test cases and every refusal kind.
import { describe, expect, it } from 'vitest';
import { toEip55, validateAddress } from '../../../electron/chains';

// EIP-55 "Test Cases" (ethereum/EIPs, EIPS/eip-55.md): all caps, all lower, and normal (mixed-case) addresses.
const EIP55_ALL_CAPS = ['0x52908400098527886E0F7030069857D2E4169EE7', '0x8617E340B3D01FA5F11F306F4090FD50E238070D'];
const EIP55_ALL_LOWER = ['0xde709f2102306220921060314715629080e2fb77', '0x27b1fdb04752bbc536007a920d24acb045561c26'];
const EIP55_NORMAL = [
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EIP-55 published test cases', () => {
  it.each(EIP55_NORMAL)('%s is its own checksum encoding', (address) => {
    expect(toEip55(address.slice(2))).toBe(address);
  });

  it.each([...EIP55_ALL_CAPS, ...EIP55_ALL_LOWER])('%s (one case) is also its own EIP-55 encoding', (address) => {
    // The EIP's all-caps and all-lower cases happen to be checksum-correct because the hash picks one case throughout.
    expect(toEip55(address.slice(2))).toBe(address);
  });

  it.each(['eth', 'bnb'] as const)('every published case is valid on %s', (chain) => {
    for (const address of [...EIP55_ALL_CAPS, ...EIP55_ALL_LOWER, ...EIP55_NORMAL]) {
      const check = validateAddress(chain, address);
      expect(check).toMatchObject({ valid: true, chain, normalized: address, form: 'evmHex' });
    }
  });

  it('the EIP\'s JavaScript example checksums 0xfb69...d359', () => {
    expect(toEip55('fb6916095ca1df60bb79ce92ce3ea74c37c5d359')).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
  });
});

describe('one-case addresses', () => {
  it('an all-lowercase address is accepted, normalized to EIP-55, with a no-checksum note', () => {
    const check = validateAddress('eth', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed');
    expect(check).toMatchObject({ valid: true, normalized: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' });
    expect(check.valid && check.notes.join(' ')).toContain('no checksum');
  });

  it('an all-uppercase address is accepted and normalized to EIP-55', () => {
    const check = validateAddress('bnb', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED');
    expect(check).toMatchObject({ valid: true, chain: 'bnb', normalized: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' });
  });

  it('an address of digits only has no letters to carry a checksum and is accepted', () => {
    expect(validateAddress('eth', `0x${'1'.repeat(40)}`).valid).toBe(true);
  });

  it('a correct mixed-case address is accepted without notes', () => {
    const check = validateAddress('eth', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
    expect(check.valid && check.notes).toEqual([]);
  });
});

describe('refusals', () => {
  it.each([
    ['one letter with its case flipped', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD', 'badChecksum', 'EIP-55 checksum'],
    ['one digit changed in a mixed-case address', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe0', 'badChecksum', 'mistyped'],
    ['39 hex digits', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe', 'badLength', 'has 39 hex digits after 0x; an Ethereum address has 40'],
    ['41 hex digits', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed0', 'badLength', 'has 41 hex digits'],
    ['a non-hex letter', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg', 'badCharacters', "contains 'g', which is not a hex digit"],
    ['a Cyrillic look-alike letter', '0x5aaeb6053f3e94c9b9a09f33669435e7ef1be\u0430ed', 'badCharacters', 'U+0430'],
    ['no 0x prefix', '5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', 'badFormat', 'missing the 0x prefix'],
    ['an uppercase 0X prefix', '0X5aaeb6053f3e94c9b9a09f33669435e7ef1beaed', 'badFormat', 'lowercase 0x'],
    ['just 0x', '0x', 'badLength', 'has 0 hex digits'],
  ])('%s', (_what, address, code, reason) => {
    const check = validateAddress('eth', address);
    expect(check).toMatchObject({ valid: false, chain: 'eth', code });
    expect(check.valid ? '' : check.reason).toContain(reason);
  });

  it('names the chain that was asked for', () => {
    const check = validateAddress('bnb', '0x1234');
    expect(check.valid ? '' : check.reason).toBe('has 4 hex digits after 0x; a BNB Smart Chain address has 40');
  });
});
