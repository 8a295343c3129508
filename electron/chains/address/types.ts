// Types of the address rules (PROTOCOL §11): one verdict per address, typed problem codes, the accepted forms.
import type { Chain } from '../currencies';

/** Every reason an address can be refused, as a stable code for UIs, logs and tests. */
export const ADDRESS_PROBLEMS = [
  'empty',
  'whitespace',
  'badCharacters',
  'badFormat',
  'badLength',
  'badChecksum',
  'wrongVersion',
  'badWorkchain',
  'testnet',
  'otherChain',
] as const;
export type AddressProblem = (typeof ADDRESS_PROBLEMS)[number];

/** The written form an accepted address came in. */
export type AddressForm = 'tronBase58check' | 'evmHex' | 'solanaBase58' | 'tonUserFriendly' | 'tonRaw';

export interface ValidAddress {
  readonly valid: true;
  readonly chain: Chain;
  /** Canonical text: EIP-55 case for eth/bnb, URL-safe user-friendly or lowercase raw for TON, unchanged otherwise. */
  readonly normalized: string;
  readonly form: AddressForm;
  /** Things a person should know about an accepted address (no checksum, bounceable form, ...). */
  readonly notes: readonly string[];
}

export interface InvalidAddress {
  readonly valid: false;
  readonly chain: Chain;
  readonly code: AddressProblem;
  /** One lowercase sentence fragment without a final period, e.g. "checksum does not match — ...". */
  readonly reason: string;
}

export type AddressCheck = ValidAddress | InvalidAddress;

/** What one chain's rule says about a text that has already passed the chain-independent checks. */
export type RuleVerdict =
  | { readonly ok: true; readonly normalized: string; readonly form: AddressForm; readonly notes: readonly string[] }
  | { readonly ok: false; readonly code: AddressProblem; readonly reason: string };

export function refuse(code: AddressProblem, reason: string): RuleVerdict {
  return { ok: false, code, reason };
}

export function accept(normalized: string, form: AddressForm, notes: readonly string[] = []): RuleVerdict {
  return { ok: true, normalized, form, notes };
}
