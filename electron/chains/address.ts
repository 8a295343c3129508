// Address rules per chain (PROTOCOL §11): validation with readable reasons, chain detection, look-alike helpers.
// Pure code on @noble/hashes, @scure/base and crc: runs in the main process, the CLI and the browser renderer alike.
export { ADDRESS_PROBLEMS } from './address/types';
export type { AddressCheck, AddressForm, AddressProblem, InvalidAddress, ValidAddress } from './address/types';
export { detectChains, validateAddress, validateForCurrency } from './address/validate';
export {
  differingAddressPositions,
  differingPositions,
  LOOKALIKE_EDGE,
  LOOKALIKE_MIN_PER_END,
  lookAlikeReason,
  lookAlikesAmong,
  looksAlike,
  normalizeAddress,
  sameAddress,
  sameAddressFormat,
  sharedEdges,
} from './address/lookalike';
export type { LookAlikeMatch, LookAlikeReason } from './address/lookalike';
export { EVM_HEX_DIGITS, toEip55 } from './address/evm';
export { encodeTronAddress, TRON_DECODED_BYTES, TRON_TEXT_LENGTH, TRON_VERSION_BYTE } from './address/tron';
export { SOLANA_DECODED_BYTES, SOLANA_MAX_TEXT_LENGTH, SOLANA_MIN_TEXT_LENGTH } from './address/solana';
export {
  encodeTonUserFriendly,
  parseTonAddress,
  TON_HASH_BYTES,
  TON_TAG_BOUNCEABLE,
  TON_TAG_NON_BOUNCEABLE,
  TON_TAG_TESTNET_ONLY,
  TON_USER_FRIENDLY_LENGTH,
  TON_WORKCHAINS,
  tonRawForm,
} from './address/ton';
export type { ParsedTonAddress, TonAccount, TonUserFriendlyFlags, TonWorkchain } from './address/ton';
