// A cache of verified statement signatures in the main process's memory (issue 20's benchmark; the roster's replay and the chain's signer rules use it too): a row's Ed25519 check is done once per (signing key, row hash, signature, statement text); a row whose text, signature or key differs is a miss and is verified afresh, so a tampered row is never served from it.
//
// What is cached is only "this key made this signature over this text", which no change of rows or roster can make
// untrue; whether the key was the signer's at that row, active and allowed, is judged afresh by the caller (signer in
// verify.ts) from the roster each time. Nothing persists: a restart starts empty.
import { importPublicKey } from './keys';
import { parseStatement, verifyStatementText } from './statement';

/** The most entries kept; past it the cache starts over (a bound on memory, never on correctness). */
export const SIGNATURE_CACHE_LIMIT = 250_000;

/** key text + row hash + signature → the statement text that verified under them. */
const verified = new Map<string, string>();
let hits = 0;
let misses = 0;

/** Whether `publicKeyText` made `signature` over `text` (the row's statement), from the cache when the very same text verified before. */
export function signatureHolds(publicKeyText: string, row: { readonly hash: string; readonly text: string; readonly signature: string }): boolean {
  const cacheKey = `${publicKeyText}\u0000${row.hash}\u0000${row.signature}`;
  const seen = verified.get(cacheKey);
  if (seen !== undefined && seen === row.text) {
    hits += 1;
    return true;
  }
  misses += 1;
  const key = importPublicKey(publicKeyText);
  const holds = key !== null && verifyStatementText(key, row.text, row.signature);
  if (holds) {
    if (verified.size >= SIGNATURE_CACHE_LIMIT) verified.clear();
    verified.set(cacheKey, row.text);
  }
  return holds;
}

/** row hash → the statement text and what parseStatement made of it (parsing is pure in the text, so the same text gives the same answer). */
const parsed = new Map<string, { readonly text: string; readonly statement: ReturnType<typeof parseStatement> }>();

/** parseStatement of a row's text, from the cache when this very text was parsed before under the row's hash. */
export function parsedStatement(row: { readonly hash: string; readonly text: string }): ReturnType<typeof parseStatement> {
  const seen = parsed.get(row.hash);
  if (seen !== undefined && seen.text === row.text) return seen.statement;
  const statement = parseStatement(row.text);
  if (parsed.size >= SIGNATURE_CACHE_LIMIT) parsed.clear();
  parsed.set(row.hash, { text: row.text, statement });
  return statement;
}

/** Hits and misses since the start or the last reset (tests and the benchmark read them). */
export function signatureCacheStats(): { readonly hits: number; readonly misses: number; readonly size: number } {
  return { hits, misses, size: verified.size };
}

/** Empties the cache (tests and the benchmark's cold runs). */
export function resetSignatureCache(): void {
  verified.clear();
  parsed.clear();
  hits = 0;
  misses = 0;
}
