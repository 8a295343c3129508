// Look-alike helpers: pairs that share the edges people check, and the positions a screen should highlight.
import { describe, expect, it } from 'vitest';
import { differingPositions, looksAlike } from '../../../electron/chains';

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
