// Look-alike helpers: pairs that share the edges people check, and the positions a screen should highlight.
import { describe, expect, it } from 'vitest';
import { differingAddressPositions, differingPositions, lookAlikeReason, lookAlikesAmong, looksAlike, normalizeAddress, sameAddress, sharedEdges } from '../../../electron/chains';

const REAL = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const POISON = 'TNPeXXXXXXXXXXXXXXXXXXXXXXXXXXYqeL';

describe('looksAlike', () => {
  it('same first 4 and last 4 characters with a different middle', () => {
    expect(looksAlike(REAL, POISON)).toBe(true);
  });

  it('identical texts are not look-alikes', () => {
    expect(looksAlike(REAL, REAL)).toBe(false);
  });

  it('a different start or end is not a look-alike', () => {
    expect(looksAlike(REAL, `X${REAL.slice(1)}`)).toBe(false);
    expect(looksAlike(REAL, `${REAL.slice(0, -1)}X`)).toBe(false);
  });

  it('texts of different lengths with the same edges are look-alikes', () => {
    expect(looksAlike(REAL, `${REAL.slice(0, 10)}${REAL.slice(11)}`)).toBe(true);
  });

  it('texts shorter than 8 characters are never look-alikes', () => {
    expect(looksAlike('abcdefg', 'abcdXefg'.slice(0, 7))).toBe(false);
  });
});

describe('differingPositions', () => {
  it('lists the indexes of differing characters', () => {
    expect(differingPositions('abcdef', 'abXdeY')).toEqual([2, 5]);
  });

  it('positions past the shorter text differ', () => {
    expect(differingPositions('abc', 'abcde')).toEqual([3, 4]);
  });

  it('identical texts have none', () => {
    expect(differingPositions(REAL, REAL)).toEqual([]);
  });

  it('finds the middle of a poisoned address', () => {
    expect(differingPositions(REAL, POISON)).toEqual(
      [...REAL].flatMap((ch, i) => (ch === POISON[i] ? [] : [i])),
    );
  });
});

// Real address-poisoning patterns (issue 13): the May 2024 WBTC theft (victim's intended address and the poisoned
// one the attacker generated), a case-changed EVM address, a same-prefix/same-suffix vanity address, and a case flip
// on a chain whose addresses are case-sensitive.
const WBTC_INTENDED = '0xd9A1b0B1e1aE382DbDc898Ea68012FfcB2853a91';
const WBTC_POISONED = '0xd9A1C3788D81257612E2581A6ea0aDa244853a91';

describe('normalized comparison (issue 13)', () => {
  it('an EVM address is compared without 0x and in lower case', () => {
    expect(normalizeAddress(WBTC_INTENDED, 'eth')).toBe('d9a1b0b1e1ae382dbdc898ea68012ffcb2853a91');
    expect(normalizeAddress(WBTC_INTENDED)).toBe('d9a1b0b1e1ae382dbdc898ea68012ffcb2853a91');
    expect(normalizeAddress(REAL, 'trx')).toBe(REAL);
  });

  it('a case-changed EVM address is the same address, not a new one and not a look-alike', () => {
    expect(sameAddress(WBTC_INTENDED, WBTC_INTENDED.toLowerCase(), 'eth')).toBe(true);
    expect(sameAddress(WBTC_INTENDED, WBTC_INTENDED.toUpperCase().replace('0X', '0x'), 'bnb')).toBe(true);
    expect(lookAlikeReason(WBTC_INTENDED, WBTC_INTENDED.toLowerCase(), 'eth')).toBeNull();
  });

  it('catches the WBTC poisoning: the first 4 after 0x and the last 4 agree (the old rule spent 2 of 4 on 0x)', () => {
    expect(lookAlikeReason(WBTC_INTENDED, WBTC_POISONED, 'eth')).toBe('sameEdges');
    expect(lookAlikeReason(WBTC_INTENDED.toLowerCase(), WBTC_POISONED, 'eth')).toBe('sameEdges');
  });

  it('an 0x address sharing only "0x" and the last 4 is no longer a look-alike', () => {
    const other = `0x99${WBTC_INTENDED.slice(4, -4)}3a91`.replace(/.{4}(?=3a91$)/, 'ffff');
    expect(looksAlike(WBTC_INTENDED, other, 'eth')).toBe(false);
  });

  it('the similarity measure catches 3 + 5 and 5 + 3 edges that the exact 4 + 4 rule misses', () => {
    const threeFive = `TNPx${REAL.slice(4, -5)}NYqeL`.replace(/^(.{4})(.)/, '$1Z');
    expect(sharedEdges(REAL, threeFive)).toMatchObject({ prefix: 3 });
    expect(lookAlikeReason(REAL, threeFive, 'trx')).toBe('similarEdges');
    const fiveThree = `TNPee${'Q'.repeat(REAL.length - 8)}qeL`;
    expect(lookAlikeReason(REAL, fiveThree, 'trx')).toBe('similarEdges');
  });

  it('3 + 3 edges, or 6 at one end only, are not enough', () => {
    expect(looksAlike(REAL, `TNP${'Q'.repeat(REAL.length - 6)}qeL`, 'trx')).toBe(false);
    expect(looksAlike(REAL, `TNPeea${'Q'.repeat(REAL.length - 6)}`, 'trx')).toBe(false);
  });

  it('a case flip on a case-sensitive chain (Solana base58) is another address that looks the same', () => {
    const usdcMint = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
    const flipped = usdcMint.replace('Aufq', 'AUfq');
    expect(sameAddress(usdcMint, flipped, 'solana')).toBe(false);
    expect(lookAlikeReason(usdcMint, flipped, 'solana')).toBe('caseChanged');
  });
});

describe('lookAlikesAmong (the preflight and the Address book screen)', () => {
  const book = [
    { address: WBTC_INTENDED, label: 'Cold wallet', chain: 'eth' },
    { address: '0x1111111111111111111111111111111111111111', label: null, chain: 'eth' },
  ];

  it('names every known address the candidate looks like, with its label and the differing positions', () => {
    expect(lookAlikesAmong(book, WBTC_POISONED, 'eth')).toEqual([
      { knownAddress: WBTC_INTENDED, label: 'Cold wallet', differingPositions: differingAddressPositions(WBTC_INTENDED, WBTC_POISONED, 'eth') },
    ]);
  });

  it('names none for the same EVM address in another letter case, or for an unrelated address', () => {
    expect(lookAlikesAmong(book, WBTC_INTENDED.toLowerCase(), 'eth')).toEqual([]);
    expect(lookAlikesAmong(book, '0x2222222222222222222222222222222222222222', 'eth')).toEqual([]);
  });

  it('compares across chains of one address format: a bnb payout to a variant of an eth entry is flagged, a TRON one is not compared', () => {
    expect(lookAlikesAmong(book, WBTC_POISONED, 'bnb').map((match) => match.knownAddress)).toEqual([WBTC_INTENDED]);
    expect(lookAlikesAmong([{ address: 'TKzxdSv2FZKQrEqkKVgp5DcwEXBEKMg2Ax', label: null, chain: 'trx' }], WBTC_POISONED, 'eth')).toEqual([]);
  });
});

describe('differingAddressPositions (on the normalized form, as indexes into the address shown)', () => {
  it('counts no EVM letter case as a difference, and marks the real ones where the shown address has them', () => {
    const known = '0xAbCd000000000000000000000000000000001234';
    const shown = '0xabcd000000000000000000000000000000FF1234';
    expect(differingAddressPositions(known, shown, 'eth')).toEqual([36, 37]);
    expect(shown.slice(36, 38)).toBe('FF');
    expect(differingAddressPositions(known, known.toLowerCase(), 'eth')).toEqual([]);
    // The raw comparison would have counted the letter case too.
    expect(differingPositions(known, shown)).toEqual([2, 4, 36, 37]);
  });

  it('on a case-sensitive chain, letter case is a difference', () => {
    expect(differingAddressPositions('TKzxdSv2FZKQrEqkKVgp5DcwEXBEKMg2Ax', 'TKzxdSv2FZKQrEqkKVgp5DcwEXBEKmg2Ax', 'trx')).toEqual([29]);
  });
});
