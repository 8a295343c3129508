// Names under UTS #39 confusable skeletons (core/ledger/confusable-names.ts, issue 23 item 8; the refusal text: core/operators/confusable-names.ts).
import { describe, expect, it } from 'vitest';
import { confusableName, nameSkeleton } from '../../../electron/core/ledger/confusable-names';
import { confusableNameProblem } from '../../../electron/core/operators/confusable-names';

describe('operator name skeletons', () => {
  it('gives look-alikes one skeleton: Cyrillic а, Greek ο, digit one, full-width letters, case', () => {
    for (const lookAlike of ['\u0430lice', 'a1ice', 'aIice', 'al\u0456ce', '\uFF41lice']) expect(nameSkeleton(lookAlike), lookAlike).toBe(nameSkeleton('alice'));
    expect(nameSkeleton('b\u03BFb')).toBe(nameSkeleton('bob'));
    expect(nameSkeleton('bob')).not.toBe(nameSkeleton('rob'));
  });

  it('names the operator a new name can be mistaken for, but not the same name again, and not a different one', () => {
    expect(confusableName('\u0430lice', ['bob', 'alice'])).toBe('alice');
    expect(confusableName('Alice', ['alice'])).toBeNull();
    expect(confusableName('\u0410LICE', ['alice'])).toBe('alice');
    expect(confusableName('alicia', ['alice', 'bob'])).toBeNull();
    expect(confusableNameProblem('\u0430lice', 'alice')).toBe(
      'the name \u0430lice (U+0430 at position 1) looks like the operator alice: their letters are Unicode look-alikes (UTS #39); choose a name nobody can mistake for theirs',
    );
  });
});
