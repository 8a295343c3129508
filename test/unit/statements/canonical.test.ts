// The canonical encoding of signed statements (core/statements/canonical.ts): sorted keys at every depth, no white
// space, NFC strings, integers only, no undefined; parseCanonical accepts exactly the text encodeCanonical writes.
import { describe, expect, it } from 'vitest';
import { CanonicalEncodingError, encodeCanonical, parseCanonical } from '../../../electron/core/statements/canonical';

describe('encodeCanonical', () => {
  it('sorts object keys at every depth (by UTF-16 code unit) and writes no insignificant white space', () => {
    const value = { b: 1, a: { z: [3, { y: true, x: null }], m: 'text' }, B: false, '': 'empty key' };
    expect(encodeCanonical(value)).toBe('{"":"empty key","B":false,"a":{"m":"text","z":[3,{"x":null,"y":true}]},"b":1}');
    // Insertion order does not matter: equal meaning, equal bytes.
    expect(encodeCanonical({ B: false, '': 'empty key', b: 1, a: { m: 'text', z: [3, { x: null, y: true }] } })).toBe(encodeCanonical(value));
    // Arrays keep their order.
    expect(encodeCanonical([2, 1])).not.toBe(encodeCanonical([1, 2]));
    // Code unit order, neither locale nor code point order: upper case first, and U+1F600 before U+FFFD (its surrogates are lower).
    expect(encodeCanonical({ é: 1, z: 2, Z: 3, '\u{1F600}': 4, '\uFFFD': 5 })).toBe('{"Z":3,"z":2,"é":1,"\u{1F600}":4,"\uFFFD":5}');
  });

  it('writes every string and key in Unicode NFC', () => {
    const decomposed = 'cafe\u0301';
    const composed = 'caf\u00e9';
    expect(encodeCanonical(decomposed)).toBe(`"${composed}"`);
    expect(encodeCanonical({ [decomposed]: decomposed })).toBe(`{"${composed}":"${composed}"}`);
    expect(encodeCanonical({ memo: decomposed })).toBe(encodeCanonical({ memo: composed }));
  });

  it('sorts keys by their NFC form, and refuses two keys that are the same text in NFC', () => {
    // 'e' + U+0301 sorts before 'f' as typed, but its NFC form 'é' (U+00E9) sorts after it.
    expect(encodeCanonical({ 'e\u0301': 1, f: 2 })).toBe('{"f":2,"é":1}');
    expect(parseCanonical(encodeCanonical({ 'e\u0301': 1, f: 2 }))).toEqual({ f: 2, é: 1 });
    expect(() => encodeCanonical({ 'caf\u00e9': 1, 'cafe\u0301': 2 })).toThrow(CanonicalEncodingError);
  });

  it('writes safe integers as integers and escapes strings as JSON does', () => {
    expect(encodeCanonical(0)).toBe('0');
    expect(encodeCanonical(-42)).toBe('-42');
    expect(encodeCanonical(Number.MAX_SAFE_INTEGER)).toBe('9007199254740991');
    expect(encodeCanonical('quote " backslash \\ newline \n tab \t')).toBe('"quote \\" backslash \\\\ newline \\n tab \\t"');
    expect(encodeCanonical('\u0000\u001f')).toBe('"\\u0000\\u001f"');
  });

  it('refuses floats, non-finite and unsafe numbers: money is a decimal string', () => {
    for (const bad of [1.5, 0.1, -0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 53, -(2 ** 53), 1e21]) {
      expect(() => encodeCanonical(bad), String(bad)).toThrow(CanonicalEncodingError);
      expect(() => encodeCanonical({ amount: bad }), String(bad)).toThrow(/only safe integers may be signed/);
    }
    expect(() => encodeCanonical({ deep: [{ amount: 12.5 }] })).toThrow(/\$\.deep\[0\]\.amount/);
  });

  it('refuses undefined (use null), and values that have no JSON form', () => {
    expect(() => encodeCanonical({ memo: undefined })).toThrow(/\$\.memo is undefined: use null/);
    expect(() => encodeCanonical(undefined)).toThrow(CanonicalEncodingError);
    expect(() => encodeCanonical([1, undefined])).toThrow(CanonicalEncodingError);
    expect(() => encodeCanonical({ big: 10n })).toThrow(/bigint cannot be signed/);
    expect(() => encodeCanonical({ f: () => 1 })).toThrow(/function cannot be signed/);
    expect(() => encodeCanonical({ s: Symbol('x') })).toThrow(/symbol cannot be signed/);
    expect(encodeCanonical({ memo: null })).toBe('{"memo":null}');
  });
});

describe('parseCanonical', () => {
  it('returns the value of canonical text', () => {
    const text = encodeCanonical({ kind: 'approve', body: { fingerprint: 'ABCD-EFGH-IJKL-MNOP', n: 3 }, list: [true, null, 'x'] });
    expect(parseCanonical(text)).toEqual({ kind: 'approve', body: { fingerprint: 'ABCD-EFGH-IJKL-MNOP', n: 3 }, list: [true, null, 'x'] });
    expect(encodeCanonical(parseCanonical(text))).toBe(text);
    for (const scalar of ['true', '0', '-7', '"text"', '[]', '{}']) expect(parseCanonical(scalar), scalar).not.toBeNull();
  });

  it('rejects text that is not exactly canonical: white space, key order, NFD, number forms, escapes, duplicates', () => {
    const rejected = [
      '{"a":1, "b":2}',
      '{ "a":1}',
      '{"a":1}\n',
      '{"b":1,"a":2}',
      '{"a":{"d":1,"c":2}}',
      '"cafe\u0301"',
      '{"cafe\u0301":1}',
      '1.5',
      '1.0',
      '1e3',
      '-0',
      '01',
      '"\\u0041"',
      '"\\/"',
      '{"a":1,"a":2}',
      '9007199254740993',
      '',
      'not json',
      '{"a":1',
      "{'a':1}",
    ];
    for (const text of rejected) expect(parseCanonical(text), JSON.stringify(text)).toBeNull();
  });
});
