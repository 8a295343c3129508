// Property tests of the address rules: random payloads round-trip through each chain's encoding, and single-character
// mistakes are caught wherever the chain's checksum can catch them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base58, hex } from '@scure/base';
import {
  encodeTonUserFriendly,
  encodeTronAddress,
  parseTonAddress,
  toEip55,
  tonRawForm,
  validateAddress,
  type TonWorkchain,
} from '../../../electron/chains';

const bytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length });
const HEX = '0123456789abcdefABCDEF';
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE64_ANY = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_';

/** A text with the character at `index` replaced by a different one from `alphabet`. */
const mutation = (text: string, alphabet: string) =>
  fc
    .record({ index: fc.nat({ max: text.length - 1 }), replacement: fc.constantFrom(...alphabet) })
    .filter(({ index, replacement }) => text[index] !== replacement)
    .map(({ index, replacement }) => ({ index, text: `${text.slice(0, index)}${replacement}${text.slice(index + 1)}` }));

function isOneCase(address: string): boolean {
  const body = address.slice(2);
  return body === body.toLowerCase() || body === body.toUpperCase();
}

describe('eth / bnb', () => {
  it('any 20 bytes encoded as EIP-55 validate, and their one-case spellings normalize to the same text', () => {
    fc.assert(
      fc.property(bytes(20), fc.constantFrom('eth' as const, 'bnb' as const), (payload, chain) => {
        const lower = hex.encode(payload);
        const checksummed = toEip55(lower);
        for (const spelling of [checksummed, `0x${lower}`, `0x${lower.toUpperCase()}`]) {
          expect(validateAddress(chain, spelling)).toMatchObject({ valid: true, normalized: checksummed });
        }
      }),
    );
  });

  it('flipping the case of one letter of a mixed-case EIP-55 address is refused, unless that leaves it all one case', () => {
    // The checksum fixes the case of every letter for these 20 bytes, so any case change leaves a text that is not the
    // checksum spelling; only a one-case result escapes, because one-case addresses carry no checksum at all.
    fc.assert(
      fc.property(
        bytes(20)
          .map((payload) => toEip55(hex.encode(payload)))
          .filter((address) => !isOneCase(address))
          .chain((address) =>
            fc.nat({ max: 39 }).filter((i) => /[a-fA-F]/.test(address[i + 2] ?? '')).map((i) => ({ address, i: i + 2 })),
          ),
        ({ address, i }) => {
          const ch = address[i] ?? '';
          const flipped = ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase();
          const mutated = `${address.slice(0, i)}${flipped}${address.slice(i + 1)}`;
          const check = validateAddress('eth', mutated);
          if (isOneCase(mutated)) expect(check.valid).toBe(true);
          else expect(check).toMatchObject({ valid: false, code: 'badChecksum' });
        },
      ),
    );
  });

  it('changing one hex digit of a mixed-case address is refused unless the result is one-case or happens to be its own checksum', () => {
    // A changed digit is a different address whose hash is unrelated; its case pattern matches that hash by chance with
    // probability (13/16)^40 ≈ 0.025 % (EIP-55 "Rationale"). Such a text IS a correct EIP-55 address, so accepting it is right.
    fc.assert(
      fc.property(
        bytes(20)
          .map((payload) => toEip55(hex.encode(payload)))
          .filter((address) => !isOneCase(address))
          .chain((address) => mutation(address.slice(2), HEX).map((m) => ({ address, mutated: `0x${m.text}` })))
          .filter(({ address, mutated }) => mutated.toLowerCase() !== address.toLowerCase()),
        ({ mutated }) => {
          const check = validateAddress('eth', mutated);
          const acceptable = isOneCase(mutated) || toEip55(mutated.slice(2)) === mutated;
          expect(check.valid).toBe(acceptable);
        },
      ),
    );
  });
});

describe('trx', () => {
  it('any 20-byte account with version byte 0x41 gives a 34-character T address that validates', () => {
    fc.assert(
      fc.property(bytes(20), (account) => {
        const text = encodeTronAddress(Uint8Array.of(0x41, ...account));
        expect(text).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
        expect(validateAddress('trx', text)).toMatchObject({ valid: true, normalized: text });
      }),
    );
  });

  it('any single-character change of a TRON address is refused (4-byte checksum)', () => {
    fc.assert(
      fc.property(
        bytes(20).chain((account) => mutation(encodeTronAddress(Uint8Array.of(0x41, ...account)), BASE58)),
        ({ text }) => {
          expect(validateAddress('trx', text).valid).toBe(false);
        },
      ),
    );
  });
});

describe('solana', () => {
  it('any 32 bytes in base58 validate unchanged', () => {
    fc.assert(
      fc.property(bytes(32), (key) => {
        const text = base58.encode(key);
        expect(validateAddress('solana', text)).toMatchObject({ valid: true, normalized: text });
        expect(base58.decode(text)).toEqual(key);
      }),
    );
  });

  it('base58 of any other length from 1 to 64 bytes is refused', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }).filter((b) => b.length !== 32), (data) => {
        expect(validateAddress('solana', base58.encode(data))).toMatchObject({ valid: false, code: 'badLength' });
      }),
    );
  });
});

describe('ton', () => {
  const account = fc.record({ workchain: fc.constantFrom<TonWorkchain>(0, -1), hash: bytes(32) });
  const flags = fc.record({ bounceable: fc.boolean(), testnetOnly: fc.boolean(), urlSafe: fc.boolean() });

  it('any account in all four flag variants (and both alphabets) parses back to the same account and flags', () => {
    fc.assert(
      fc.property(account, flags, (acct, flagSet) => {
        const text = encodeTonUserFriendly(acct, flagSet);
        expect(text).toHaveLength(48);
        const parsed = parseTonAddress(text);
        expect(parsed).toMatchObject({ ok: true, form: 'userFriendly' });
        if (!parsed.ok || parsed.form !== 'userFriendly') return;
        expect(tonRawForm(parsed.account)).toBe(tonRawForm(acct));
        // A text with none of + / - _ reads the same in both alphabets and is reported as URL-safe.
        const ambiguous = !/[+/_-]/.test(text);
        expect(parsed.flags).toEqual({ ...flagSet, urlSafe: flagSet.urlSafe || ambiguous });
      }),
    );
  });

  it('mainnet variants validate to the URL-safe spelling of the same flags; testnet variants are refused', () => {
    fc.assert(
      fc.property(account, flags, (acct, flagSet) => {
        const check = validateAddress('ton', encodeTonUserFriendly(acct, flagSet));
        if (flagSet.testnetOnly) {
          expect(check).toMatchObject({ valid: false, code: 'testnet' });
        } else {
          expect(check).toMatchObject({ valid: true, normalized: encodeTonUserFriendly(acct, { ...flagSet, urlSafe: true }) });
        }
      }),
    );
  });

  it('the raw form of any account validates and normalizes to lowercase', () => {
    fc.assert(
      fc.property(account, fc.boolean(), (acct, upper) => {
        const raw = tonRawForm(acct);
        expect(validateAddress('ton', upper ? raw.toUpperCase() : raw)).toMatchObject({ valid: true, normalized: raw });
      }),
    );
  });

  it('any single-character change of a user-friendly address is refused, except swapping a base64 twin (+ for -, / for _)', () => {
    // CRC16-XMODEM detects every burst of up to 16 bits, and one base64 character spans 6 bits, so no single
    // substitution can yield another valid address. '-' and '+' (and '_' and '/') are the same 6 bits in the two alphabets.
    const twins: Record<string, string> = { '-': '+', '+': '-', _: '/', '/': '_' };
    fc.assert(
      fc.property(
        fc
          .tuple(account, flags.map((f) => ({ ...f, testnetOnly: false })))
          .chain(([acct, flagSet]) => mutation(encodeTonUserFriendly(acct, flagSet), BASE64_ANY).map((m) => ({ ...m, acct, flagSet }))),
        ({ text, index, acct, flagSet }) => {
          const original = encodeTonUserFriendly(acct, flagSet);
          const check = validateAddress('ton', text);
          const isTwin = twins[original[index] ?? ''] === text[index];
          if (!isTwin) {
            expect(check.valid).toBe(false);
            return;
          }
          // A twin swap keeps the bytes: valid if the text still uses one alphabet only.
          const mixed = /[+/]/.test(text) && /[-_]/.test(text);
          expect(check.valid).toBe(!mixed);
        },
      ),
    );
  });
});
