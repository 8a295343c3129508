// TON address rule (PROTOCOL §11.4, TEP-2): 48-character user-friendly form (tag, workchain, 32-byte hash, CRC16-XMODEM)
// in base64 or base64url, or raw `0:` / `-1:` + 64 hex. Testnet-only (tag + 0x80) addresses are refused.
import { base64, base64url, hex } from '@scure/base';
import crc16xmodem from 'crc/calculators/crc16xmodem';
import { accept, refuse, type AddressProblem, type RuleVerdict } from './types';
import { containsForeignCharacters, listCharacters, offendingCharacters } from './text';

export const TON_TAG_BOUNCEABLE = 0x11;
export const TON_TAG_NON_BOUNCEABLE = 0x51;
export const TON_TAG_TESTNET_ONLY = 0x80;
export const TON_USER_FRIENDLY_LENGTH = 48;
export const TON_USER_FRIENDLY_BYTES = 36;
export const TON_HASH_BYTES = 32;
/** Workchains the platform knows: the basechain (0) and the masterchain (-1). */
export const TON_WORKCHAINS = [0, -1] as const;
export type TonWorkchain = (typeof TON_WORKCHAINS)[number];

export interface TonAccount {
  readonly workchain: TonWorkchain;
  /** The 32-byte account id inside the workchain. */
  readonly hash: Uint8Array;
}

export interface TonUserFriendlyFlags {
  readonly bounceable: boolean;
  readonly testnetOnly: boolean;
  /** base64url (`-` `_`) when true, standard base64 (`+` `/`) when false. */
  readonly urlSafe: boolean;
}

export type ParsedTonAddress =
  | { readonly ok: true; readonly form: 'raw'; readonly account: TonAccount }
  | { readonly ok: true; readonly form: 'userFriendly'; readonly account: TonAccount; readonly flags: TonUserFriendlyFlags }
  | { readonly ok: false; readonly code: AddressProblem; readonly reason: string };

const USER_FRIENDLY_CHARACTER = /^[A-Za-z0-9+/_-]$/;

/** CRC16-XMODEM (poly 0x1021, init 0) as TEP-2 uses it, big-endian, over the first 34 bytes. */
function tonChecksum(first34: Uint8Array): number {
  return crc16xmodem(first34) & 0xffff;
}

/** The raw form `0:<64 lowercase hex>` / `-1:<...>`: one spelling per account, good for comparing. */
export function tonRawForm(account: TonAccount): string {
  return `${account.workchain}:${hex.encode(account.hash)}`;
}

/** The 48-character user-friendly form of TEP-2 with the given flags. */
export function encodeTonUserFriendly(account: TonAccount, flags: TonUserFriendlyFlags): string {
  if (account.hash.length !== TON_HASH_BYTES) throw new RangeError(`a TON account hash has ${TON_HASH_BYTES} bytes`);
  const bytes = new Uint8Array(TON_USER_FRIENDLY_BYTES);
  bytes[0] = (flags.bounceable ? TON_TAG_BOUNCEABLE : TON_TAG_NON_BOUNCEABLE) | (flags.testnetOnly ? TON_TAG_TESTNET_ONLY : 0);
  bytes[1] = account.workchain & 0xff;
  bytes.set(account.hash, 2);
  const crc = tonChecksum(bytes.subarray(0, 34));
  bytes[34] = crc >> 8;
  bytes[35] = crc & 0xff;
  return (flags.urlSafe ? base64url : base64).encode(bytes);
}

/** Parses either TON form; refusals carry the same codes and reasons as validation. Testnet-only addresses parse. */
export function parseTonAddress(text: string): ParsedTonAddress {
  return text.includes(':') ? parseRaw(text) : parseUserFriendly(text);
}

function fail(code: AddressProblem, reason: string): ParsedTonAddress {
  return { ok: false, code, reason };
}

function parseRaw(text: string): ParsedTonAddress {
  const colon = text.indexOf(':');
  const workchainText = text.slice(0, colon);
  const hashText = text.slice(colon + 1);
  if (!/^-?[0-9]+$/.test(workchainText)) {
    return fail('badFormat', 'a raw TON address is the workchain (0 or -1), a colon and 64 hex digits');
  }
  if (workchainText !== '0' && workchainText !== '-1') {
    return fail('badWorkchain', `workchain ${workchainText} is not one the platform knows (0 or -1)`);
  }
  const bad = offendingCharacters(hashText, (ch) => /^[0-9a-fA-F]$/.test(ch));
  if (bad.length > 0) return fail('badCharacters', `contains ${listCharacters(bad)} after the colon, where only hex digits belong`);
  if (hashText.length !== TON_HASH_BYTES * 2) {
    return fail('badLength', `has ${hashText.length} hex digits after the colon; a raw TON address has ${TON_HASH_BYTES * 2}`);
  }
  const workchain: TonWorkchain = workchainText === '0' ? 0 : -1;
  return { ok: true, form: 'raw', account: { workchain, hash: hex.decode(hashText.toLowerCase()) } };
}

function parseUserFriendly(text: string): ParsedTonAddress {
  const bad = offendingCharacters(text, (ch) => USER_FRIENDLY_CHARACTER.test(ch));
  if (bad.length > 0) return fail('badCharacters', containsForeignCharacters(bad, 'a TON address'));
  if (text.length !== TON_USER_FRIENDLY_LENGTH) {
    return fail(
      'badLength',
      `has ${text.length} characters; a TON address has ${TON_USER_FRIENDLY_LENGTH} (or is written raw as 0:<64 hex digits>)`,
    );
  }
  const standard = /[+/]/.test(text);
  const urlSafe = /[-_]/.test(text);
  if (standard && urlSafe) return fail('badCharacters', 'mixes base64 (+ /) and base64url (- _) characters');
  let bytes: Uint8Array;
  try {
    bytes = (standard ? base64 : base64url).decode(text);
  } catch {
    return fail('badCharacters', 'is not valid base64 text');
  }
  if (bytes.length !== TON_USER_FRIENDLY_BYTES) {
    return fail('badLength', `decodes to ${bytes.length} bytes; a TON address decodes to ${TON_USER_FRIENDLY_BYTES}`);
  }
  const expected = tonChecksum(bytes.subarray(0, 34));
  const given = ((bytes[34] ?? 0) << 8) | (bytes[35] ?? 0);
  if (expected !== given) return fail('badChecksum', 'checksum does not match — check for a mistyped character');
  const tag = bytes[0] ?? 0;
  const baseTag = tag & ~TON_TAG_TESTNET_ONLY & 0xff;
  if (baseTag !== TON_TAG_BOUNCEABLE && baseTag !== TON_TAG_NON_BOUNCEABLE) {
    return fail('wrongVersion', `tag byte 0x${tag.toString(16).padStart(2, '0')} is not a TON account address (EQ…/UQ… on mainnet)`);
  }
  const workchainByte = bytes[1] ?? 0;
  if (workchainByte !== 0x00 && workchainByte !== 0xff) {
    const signed = workchainByte > 0x7f ? workchainByte - 0x100 : workchainByte;
    return fail('badWorkchain', `workchain ${signed} is not one the platform knows (0 or -1)`);
  }
  return {
    ok: true,
    form: 'userFriendly',
    account: { workchain: workchainByte === 0 ? 0 : -1, hash: bytes.slice(2, 34) },
    flags: { bounceable: baseTag === TON_TAG_BOUNCEABLE, testnetOnly: (tag & TON_TAG_TESTNET_ONLY) !== 0, urlSafe: !standard },
  };
}

export function checkTon(text: string): RuleVerdict {
  const parsed = parseTonAddress(text);
  if (!parsed.ok) return refuse(parsed.code, parsed.reason);
  const notes: string[] = [];
  if (parsed.account.workchain === -1) notes.push('masterchain (-1) address: wallets and most services live on the basechain (0)');
  if (parsed.form === 'raw') {
    notes.push('raw form carries no checksum: a mistyped character would not be noticed');
    return accept(tonRawForm(parsed.account), 'tonRaw', notes);
  }
  if (parsed.flags.testnetOnly) return refuse('testnet', 'testnet address: the platform only pays to mainnet addresses');
  if (!parsed.flags.urlSafe) notes.push('written in standard base64 (+ /); shown here in the URL-safe form (- _)');
  if (parsed.flags.bounceable) {
    notes.push('bounceable form: a transfer to a wallet that is not deployed yet can bounce back; wallets show the non-bounceable UQ… form');
  }
  const normalized = encodeTonUserFriendly(parsed.account, { ...parsed.flags, urlSafe: true });
  return accept(normalized, 'tonUserFriendly', notes);
}
