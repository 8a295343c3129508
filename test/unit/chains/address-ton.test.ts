// TON address rule (PROTOCOL §11.4) against TEP-2 and the TON documentation: every form of one account agrees.
import { describe, expect, it } from 'vitest';
import { base64url, utf8 } from '@scure/base';
import crc16xmodem from 'crc/calculators/crc16xmodem';
import { encodeTonUserFriendly, parseTonAddress, tonRawForm, validateAddress } from '../../../electron/chains';

// TON docs, "Smart contract addresses" (ton-community/ton-docs, .../ton-blockchain/smart-contract-addresses): one basechain
// account in raw form and every user-friendly variant ("urlSafe" there is in fact the standard base64 spelling with '+').
const DOCS_RAW = '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e';
const DOCS_BOUNCEABLE = 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF';
const DOCS_BOUNCEABLE_BASE64 = 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff+W72r5gqPrHF';
const DOCS_NON_BOUNCEABLE = 'UQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPuwA';
const DOCS_TESTNET_BOUNCEABLE = 'kQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPgpP';
const DOCS_TESTNET_NON_BOUNCEABLE = '0QDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPleK';

// TEP-2 (ton-blockchain/TEPs, text/0002-address.md): the masterchain "root dns" contract.
const TEP2_RAW = '-1:e56754f83426f69b09267bd876ac97c44821345b7e266bd956a7bfbfb98df35c';
const TEP2_BOUNCEABLE = 'Ef_lZ1T4NCb2mwkme9h2rJfESCE0W34ma9lWp7-_uY3zXDvq';
const TEP2_NON_BOUNCEABLE = 'Uf_lZ1T4NCb2mwkme9h2rJfESCE0W34ma9lWp7-_uY3zXGYv';

function rawOf(text: string): string {
  const parsed = parseTonAddress(text);
  if (!parsed.ok) throw new Error(`${text}: ${parsed.reason}`);
  return tonRawForm(parsed.account);
}

describe('published TON vectors', () => {
  it('the CRC16-XMODEM package gives the catalogued check value 0x31C3 for "123456789"', () => {
    // Reveng CRC catalogue, CRC-16/XMODEM: width 16, poly 0x1021, init 0, no reflection, xorout 0, check 0x31c3.
    expect(crc16xmodem(utf8.decode('123456789'))).toBe(0x31c3);
  });

  it('all six documented spellings decode to the same basechain account', () => {
    for (const text of [DOCS_BOUNCEABLE, DOCS_BOUNCEABLE_BASE64, DOCS_NON_BOUNCEABLE, DOCS_TESTNET_BOUNCEABLE, DOCS_TESTNET_NON_BOUNCEABLE, DOCS_RAW]) {
      expect(rawOf(text)).toBe(DOCS_RAW);
    }
  });

  it('the documented flags are read as TEP-2 defines them', () => {
    const flagsOf = (text: string) => {
      const parsed = parseTonAddress(text);
      return parsed.ok && parsed.form === 'userFriendly' ? parsed.flags : null;
    };
    expect(flagsOf(DOCS_BOUNCEABLE)).toEqual({ bounceable: true, testnetOnly: false, urlSafe: true });
    expect(flagsOf(DOCS_BOUNCEABLE_BASE64)).toEqual({ bounceable: true, testnetOnly: false, urlSafe: false });
    expect(flagsOf(DOCS_NON_BOUNCEABLE)).toEqual({ bounceable: false, testnetOnly: false, urlSafe: true });
    expect(flagsOf(DOCS_TESTNET_BOUNCEABLE)).toEqual({ bounceable: true, testnetOnly: true, urlSafe: true });
    expect(flagsOf(DOCS_TESTNET_NON_BOUNCEABLE)).toEqual({ bounceable: false, testnetOnly: true, urlSafe: true });
  });

  it('encoding the account with each flag set reproduces the documented strings exactly', () => {
    const parsed = parseTonAddress(DOCS_RAW);
    if (!parsed.ok) throw new Error(parsed.reason);
    const encode = (bounceable: boolean, testnetOnly: boolean, urlSafe = true) =>
      encodeTonUserFriendly(parsed.account, { bounceable, testnetOnly, urlSafe });
    expect(encode(true, false)).toBe(DOCS_BOUNCEABLE);
    expect(encode(true, false, false)).toBe(DOCS_BOUNCEABLE_BASE64);
    expect(encode(false, false)).toBe(DOCS_NON_BOUNCEABLE);
    expect(encode(true, true)).toBe(DOCS_TESTNET_BOUNCEABLE);
    expect(encode(false, true)).toBe(DOCS_TESTNET_NON_BOUNCEABLE);
  });

  it('TEP-2 root dns: raw, bounceable and non-bounceable forms are one masterchain account', () => {
    expect(rawOf(TEP2_BOUNCEABLE)).toBe(TEP2_RAW);
    expect(rawOf(TEP2_NON_BOUNCEABLE)).toBe(TEP2_RAW);
    // TEP-2: "uppercase Latin letters 'A'..'F' may be used instead of 'a'..'f'" in the raw form.
    expect(rawOf(TEP2_RAW.toUpperCase())).toBe(TEP2_RAW);
  });

  it.each([DOCS_BOUNCEABLE, DOCS_NON_BOUNCEABLE, TEP2_BOUNCEABLE, TEP2_NON_BOUNCEABLE, DOCS_RAW, TEP2_RAW])('%s is valid for ton', (text) => {
    expect(validateAddress('ton', text)).toMatchObject({ valid: true, chain: 'ton', normalized: text });
  });

  it('the standard base64 spelling is valid and normalized to base64url', () => {
    const check = validateAddress('ton', DOCS_BOUNCEABLE_BASE64);
    expect(check).toMatchObject({ valid: true, normalized: DOCS_BOUNCEABLE, form: 'tonUserFriendly' });
  });

  it('the raw form is normalized to lowercase hex and carries a no-checksum note', () => {
    const check = validateAddress('ton', DOCS_RAW.toUpperCase());
    expect(check).toMatchObject({ valid: true, normalized: DOCS_RAW, form: 'tonRaw' });
    expect(check.valid && check.notes.join(' ')).toContain('no checksum');
  });
});

describe('refusals', () => {
  it.each([DOCS_TESTNET_BOUNCEABLE, DOCS_TESTNET_NON_BOUNCEABLE])('testnet-only %s', (text) => {
    expect(validateAddress('ton', text)).toEqual({
      valid: false,
      chain: 'ton',
      code: 'testnet',
      reason: 'testnet address: the platform only pays to mainnet addresses',
    });
  });

  it.each([
    ['last character changed', 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHG', 'badChecksum', 'checksum does not match'],
    ['a middle character changed', 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqQrHF', 'badChecksum', 'mistyped character'],
    ['one character short', 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrH', 'badLength', 'has 47 characters; a TON address has 48'],
    ['base64 and base64url mixed', 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff+W72r5gqPr_F', 'badCharacters', 'mixes base64'],
    ['a character outside base64', 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff.W72r5gqPrHF', 'badCharacters', "contains '.'"],
    ['a raw form with workchain 1', '1:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e', 'badWorkchain', 'workchain 1'],
    ['a raw form with 63 hex digits', '0:ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3', 'badLength', 'has 63 hex digits'],
    ['a raw form with a non-hex digit', '0:ga6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e', 'badCharacters', "contains 'g'"],
    ['a raw form without a workchain', ':ca6e321c7cce9ecedf0a8ca2492ec8592494aa5fb5ce0387dff96ef6af982a3e', 'badFormat', 'workchain (0 or -1)'],
  ])('%s', (_what, text, code, reason) => {
    const check = validateAddress('ton', text);
    expect(check).toMatchObject({ valid: false, chain: 'ton', code });
    expect(check.valid ? '' : check.reason).toContain(reason);
  });

  it('a correctly checksummed user-friendly address of an unknown workchain is refused', () => {
    const parsed = parseTonAddress(DOCS_RAW);
    if (!parsed.ok) throw new Error(parsed.reason);
    const bytes = base64url.decode(encodeTonUserFriendly(parsed.account, { bounceable: true, testnetOnly: false, urlSafe: true }));
    bytes[1] = 0x01;
    const text = reencodeWithFreshChecksum(bytes);
    expect(validateAddress('ton', text)).toMatchObject({ valid: false, code: 'badWorkchain' });
  });

  it('a correctly checksummed 36-byte text with another tag (a TEP-2 armored public key style tag) is refused', () => {
    const parsed = parseTonAddress(DOCS_RAW);
    if (!parsed.ok) throw new Error(parsed.reason);
    const bytes = base64url.decode(encodeTonUserFriendly(parsed.account, { bounceable: true, testnetOnly: false, urlSafe: true }));
    bytes[0] = 0x3e;
    expect(validateAddress('ton', reencodeWithFreshChecksum(bytes))).toMatchObject({ valid: false, code: 'wrongVersion' });
  });
});

/** Base64url of 36 bytes after recomputing their CRC16-XMODEM over the first 34 (TEP-2), as a valid encoder would. */
function reencodeWithFreshChecksum(bytes: Uint8Array): string {
  const out = bytes.slice();
  const crc = crc16xmodem(out.subarray(0, 34)) & 0xffff;
  out[34] = crc >> 8;
  out[35] = crc & 0xff;
  return base64url.encode(out);
}
