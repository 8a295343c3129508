// Simulated chains: addresses and transaction ids in each chain's real format (PROTOCOL §11), from a random source
// that is either the CSPRNG or a deterministic stream derived from a seed (demo data is reproducible).
import { createHash, randomBytes } from 'node:crypto';
import { base58, base64, base64urlnopad } from '@scure/base';
import {
  CHAIN_INFO,
  encodeTonUserFriendly,
  encodeTronAddress,
  TON_HASH_BYTES,
  toEip55,
  TRON_VERSION_BYTE,
  validateAddress,
  type AddressType,
  type Chain,
} from '../chains';

/** Returns `count` random bytes. */
export type RandomSource = (count: number) => Buffer;

export const cryptoRandom: RandomSource = (count) => randomBytes(count);

/** A deterministic byte stream: SHA-256(seed ":" counter) blocks, concatenated. Same seed, same bytes. */
export function seededRandom(seed: string): RandomSource {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return (count) => {
    while (pool.length < count) {
      const block = createHash('sha256').update(`${seed}:${counter}`).digest();
      counter += 1;
      pool = Buffer.concat([pool, block]);
    }
    const out = pool.subarray(0, count);
    pool = pool.subarray(count);
    return Buffer.from(out);
  };
}

/** A uniform integer in [min, max] (inclusive) from the source; fine for simulation, not for cryptography. */
export function randomInt(random: RandomSource, min: number, max: number): number {
  const span = max - min + 1;
  return min + (random(6).readUIntBE(0, 6) % span);
}

export function randomHex(random: RandomSource, bytes: number): string {
  return random(bytes).toString('hex');
}

const EVM_ADDRESS_BYTES = 20;
const SOLANA_ADDRESS_BYTES = 32;
const TXID_HASH_BYTES = 32;
const SOLANA_SIGNATURE_BYTES = 64;

/** A fresh address on `chain` in its canonical text form (§11.1–§11.4). */
export function newChainAddress(chain: Chain, random: RandomSource): string {
  let address: string;
  switch (chain) {
    case 'trx':
      address = encodeTronAddress(Uint8Array.from([TRON_VERSION_BYTE, ...random(EVM_ADDRESS_BYTES)]));
      break;
    case 'eth':
    case 'bnb':
      address = toEip55(randomHex(random, EVM_ADDRESS_BYTES));
      break;
    case 'solana':
      address = base58.encode(random(SOLANA_ADDRESS_BYTES));
      break;
    case 'ton':
      // Deposit wallets are shown non-bounceable and URL-safe ("UQ..."), workchain 0 (§11.4).
      address = encodeTonUserFriendly(
        { workchain: 0, hash: random(TON_HASH_BYTES) },
        { bounceable: false, testnetOnly: false, urlSafe: true },
      );
      break;
    default: {
      const unreachable: never = chain;
      return unreachable;
    }
  }
  const check = validateAddress(chain, address);
  if (!check.valid) throw new Error(`generated an invalid ${chain} address: ${check.reason}`);
  return address;
}

/** A deposit address for createAddress: one `eth_bnb` address serves Ethereum and BNB Smart Chain (§11.5). */
export function newDepositAddress(addressType: AddressType, random: RandomSource): string {
  const chain = (Object.keys(CHAIN_INFO) as Chain[]).find((candidate) => CHAIN_INFO[candidate].addressType === addressType);
  if (!chain) throw new Error(`no chain for address type ${addressType}`);
  return newChainAddress(chain, random);
}

/**
 * A transaction id in the chain's real format: TRON 64 hex; Ethereum/BNB 0x + 64 hex; Solana a base58 signature of
 * 64 bytes; TON a 64-hex transaction hash.
 */
export function newTxid(chain: Chain, random: RandomSource): string {
  switch (chain) {
    case 'trx':
    case 'ton':
      return randomHex(random, TXID_HASH_BYTES);
    case 'eth':
    case 'bnb':
      return `0x${randomHex(random, TXID_HASH_BYTES)}`;
    case 'solana':
      return base58.encode(random(SOLANA_SIGNATURE_BYTES));
    default: {
      const unreachable: never = chain;
      return unreachable;
    }
  }
}

const HEX_HASH = /^[0-9a-fA-F]{64}$/;
const EVM_HASH = /^0x[0-9a-fA-F]{64}$/;
const BASE58_TEXT = /^[1-9A-HJ-NP-Za-km-z]+$/;

function decodesTo(decode: () => Uint8Array, bytes: number): boolean {
  try {
    return decode().length === bytes;
  } catch {
    return false;
  }
}

/** True when `txid` is written in `chain`'s transaction-id format (TON also accepts a base64/base64url hash). */
export function isTxidFormat(chain: Chain, txid: string): boolean {
  switch (chain) {
    case 'trx':
      return HEX_HASH.test(txid);
    case 'eth':
    case 'bnb':
      return EVM_HASH.test(txid);
    case 'solana':
      return BASE58_TEXT.test(txid) && decodesTo(() => base58.decode(txid), SOLANA_SIGNATURE_BYTES);
    case 'ton':
      return (
        HEX_HASH.test(txid) ||
        decodesTo(() => base64.decode(txid), TXID_HASH_BYTES) ||
        decodesTo(() => base64urlnopad.decode(txid), TXID_HASH_BYTES)
      );
    default: {
      const unreachable: never = chain;
      return unreachable;
    }
  }
}

/** Canonical key of a txid for lookups: hex hashes compare case-insensitively, base58/base64 exactly. */
export function txidKey(chain: Chain, txid: string): string {
  return HEX_HASH.test(txid) || (chain !== 'solana' && EVM_HASH.test(txid)) ? txid.toLowerCase() : txid;
}
