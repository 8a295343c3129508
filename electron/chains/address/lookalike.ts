// Look-alike helpers for screens and checks that compare addresses: poisoning attacks copy the first and last
// characters a person checks and change the middle, so the desk warns on such pairs and highlights the differing
// characters. Comparisons run on normalized forms: an EVM address is one account whatever its letter case, and its
// `0x` is no part of what a person checks (so it never uses up the "first 4" characters).
import { CHAIN_INFO, type Chain, isChain } from '../currencies';

/** How many characters at each end people usually check. */
export const LOOKALIKE_EDGE = 4;
/** How far into each end the similarity measure looks: poisoning vanity addresses match 3 to 6 characters per end. */
export const LOOKALIKE_SIMILARITY_EDGE = 6;
/** The least characters that must match at each end, and at both ends together, for the similarity measure to warn. */
export const LOOKALIKE_MIN_PER_END = 3;
export const LOOKALIKE_MIN_TOTAL = 7;

const EVM_CHAINS: ReadonlySet<Chain> = new Set(['eth', 'bnb']);
const EVM_TEXT = /^0x[0-9a-fA-F]{40}$/;

/**
 * The form addresses are compared in: for EVM chains (or, without a chain, text shaped like an EVM address) lower
 * case without `0x`; every other chain's address as given (base58 and base64 are case-sensitive: another case is
 * another address).
 */
export function normalizeAddress(address: string, chain?: Chain): string {
  const evm = chain === undefined ? EVM_TEXT.test(address) : EVM_CHAINS.has(chain);
  if (!evm) return address;
  const lower = address.toLowerCase();
  return lower.startsWith('0x') ? lower.slice(2) : lower;
}

/** Whether two texts name the same address of the chain (EVM: in any letter case). */
export function sameAddress(a: string, b: string, chain?: Chain): boolean {
  return normalizeAddress(a, chain) === normalizeAddress(b, chain);
}

/** Why a candidate looks like a known address; null when it does not (or when it is the same address). */
export type LookAlikeReason = 'caseChanged' | 'sameEdges' | 'similarEdges';

function commonPrefixLength(a: string, b: string, limit: number): number {
  let length = 0;
  while (length < limit && length < a.length && length < b.length && a[length] === b[length]) length += 1;
  return length;
}

function commonSuffixLength(a: string, b: string, limit: number): number {
  let length = 0;
  while (length < limit && length < a.length && length < b.length && a[a.length - 1 - length] === b[b.length - 1 - length]) length += 1;
  return length;
}

/**
 * The shared edges of two normalized addresses, compared case-insensitively (a person glancing at the ends does not
 * tell `k` from `K`): how many leading and trailing characters agree, up to LOOKALIKE_SIMILARITY_EDGE each.
 */
export function sharedEdges(a: string, b: string): { readonly prefix: number; readonly suffix: number } {
  const left = a.toLowerCase();
  const right = b.toLowerCase();
  return { prefix: commonPrefixLength(left, right, LOOKALIKE_SIMILARITY_EDGE), suffix: commonSuffixLength(left, right, LOOKALIKE_SIMILARITY_EDGE) };
}

/**
 * Why `candidate` looks like `known` on this chain, or null: the same letters in another case on a case-sensitive
 * chain ("caseChanged"), the same first and last LOOKALIKE_EDGE characters ("sameEdges"), or ends that agree on at
 * least LOOKALIKE_MIN_PER_END characters each and LOOKALIKE_MIN_TOTAL together ("similarEdges", e.g. 3 + 5).
 */
export function lookAlikeReason(known: string, candidate: string, chain?: Chain): LookAlikeReason | null {
  const a = normalizeAddress(known, chain);
  const b = normalizeAddress(candidate, chain);
  if (a === b) return null;
  if (a.toLowerCase() === b.toLowerCase()) return 'caseChanged';
  if (a.length < LOOKALIKE_EDGE * 2 || b.length < LOOKALIKE_EDGE * 2) return null;
  const edges = sharedEdges(a, b);
  if (edges.prefix >= LOOKALIKE_EDGE && edges.suffix >= LOOKALIKE_EDGE) return 'sameEdges';
  if (edges.prefix >= LOOKALIKE_MIN_PER_END && edges.suffix >= LOOKALIKE_MIN_PER_END && edges.prefix + edges.suffix >= LOOKALIKE_MIN_TOTAL) return 'similarEdges';
  return null;
}

/** True when `a` and `b` are different addresses that a person checking the ends could take for each other. */
export function looksAlike(a: string, b: string, chain?: Chain): boolean {
  return lookAlikeReason(a, b, chain) !== null;
}

/** Indexes (UTF-16 code units) where the texts differ; positions past the shorter text count as differing. */
export function differingPositions(a: string, b: string): number[] {
  const positions: number[] = [];
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i += 1) if (a[i] !== b[i]) positions.push(i);
  return positions;
}

/**
 * Where two addresses of the chain differ, compared in their normalized form (an EVM address's letter case and `0x`
 * are no difference), as indexes into `shown` as written (its `0x` counted), which is what screens mark.
 */
export function differingAddressPositions(known: string, shown: string, chain: Chain): number[] {
  const a = normalizeAddress(known, chain);
  const b = normalizeAddress(shown, chain);
  const offset = b === shown || !shown.toLowerCase().startsWith('0x') ? 0 : 2;
  return differingPositions(a, b).map((position) => position + offset);
}

/** Whether addresses of the two chains share one format (eth and bnb: one EVM address for both, PROTOCOL §11.5). */
export function sameAddressFormat(a: string, b: Chain): boolean {
  return isChain(a) && CHAIN_INFO[a].addressType === CHAIN_INFO[b].addressType;
}

/** A known address that a candidate looks like, with where the two differ (what screens highlight). */
export interface LookAlikeMatch {
  readonly knownAddress: string;
  readonly label: string | null;
  readonly differingPositions: readonly number[];
}

/**
 * The known addresses (the book, its pending additions, addresses paid or labelled) that `candidate`, an address of
 * `chain`, looks like: those of every chain whose addresses share its format (a bnb payout to a poisoning variant of an
 * eth entry is flagged), compared in the normalized form.
 */
export function lookAlikesAmong(
  known: readonly { readonly address: string; readonly label: string | null; readonly chain: string }[],
  candidate: string,
  chain: Chain,
): LookAlikeMatch[] {
  return known
    .filter((entry) => sameAddressFormat(entry.chain, chain) && lookAlikeReason(entry.address, candidate, chain) !== null)
    .map((entry) => ({ knownAddress: entry.address, label: entry.label, differingPositions: differingAddressPositions(entry.address, candidate, chain) }));
}
