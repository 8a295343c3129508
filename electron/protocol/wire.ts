// Timestamps, nonces and the nonce memory of PROTOCOL §4, shared by the client, callback receiver and sandbox.
import { createHash, randomBytes } from 'node:crypto';
import {
  AUTHORIZATION_PREFIX,
  AUTHORIZATION_SEPARATOR,
  CLIENT_NONCE_BYTES,
  NONCE_MEMORY_SECONDS,
  NONCE_PATTERN,
  TIMESTAMP_PATTERN,
  TIMESTAMP_WINDOW_SECONDS,
} from './profile';

/** Seconds since the Unix epoch, whole (§4.1). `clock` returns milliseconds, like Date.now. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

export function unixSeconds(clock: Clock = systemClock): number {
  return Math.floor(clock() / 1000);
}

/** 32 hex characters from a CSPRNG (§4.3). */
export function newNonce(): string {
  return randomBytes(CLIENT_NONCE_BYTES).toString('hex');
}

export function isValidNonce(nonce: string): boolean {
  return NONCE_PATTERN.test(nonce);
}

/** Parses an SVC-TIMESTAMP value (§4.1) into seconds, or undefined when it is not decimal digits. */
export function parseTimestamp(text: string): number | undefined {
  return TIMESTAMP_PATTERN.test(text) ? Number(text) : undefined;
}

/** |now - timestamp| <= 300 s (§4.2). */
export function isWithinWindow(timestampSeconds: number, nowSeconds: number): boolean {
  return Math.abs(nowSeconds - timestampSeconds) <= TIMESTAMP_WINDOW_SECONDS;
}

/** getToken's Authorization header (§6.1). */
export function authorizationHeader(merchantId: string, secret: string): string {
  return AUTHORIZATION_PREFIX + createHash('md5').update(merchantId + AUTHORIZATION_SEPARATOR + secret, 'utf8').digest('hex');
}

/**
 * What answer verification needs of a nonce memory (§4.4): `remember` records a nonce seen at `nowSeconds` for 600 s
 * and returns false when it was already seen inside that time (a replay). NonceMemory below keeps it in this process;
 * the engine keeps it in its database, so it survives restarts and is shared by the app and the CLI.
 */
export interface ReplayMemory {
  remember(nonce: string, nowSeconds: number): boolean;
}

/**
 * Remembers nonces for 600 s (§4.4) and refuses repeats. In memory; the sandbox persists its own per merchant.
 * `remember` returns false for a nonce already seen inside the window.
 *
 * The memory is inclusive: a nonce first seen at t is refused up to and including t + 600 and accepted again from
 * t + 601. An exclusive end would leave a replay hole at the exact edge: a message whose timestamp T was first seen
 * at t = T - 300 (the window's early edge) is still inside the §4.2 window at T + 300 = t + 600.
 */
export class NonceMemory implements ReplayMemory {
  /** nonce -> last second it is still remembered. Insertion order is (for a forward clock) expiry order. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly memorySeconds = NONCE_MEMORY_SECONDS) {}

  has(nonce: string, nowSeconds: number): boolean {
    const expiresAt = this.seen.get(nonce);
    return expiresAt !== undefined && nowSeconds <= expiresAt;
  }

  remember(nonce: string, nowSeconds: number): boolean {
    this.prune(nowSeconds);
    if (this.has(nonce, nowSeconds)) return false;
    // delete first so the entry moves to the end of the insertion order, which prune relies on
    this.seen.delete(nonce);
    this.seen.set(nonce, nowSeconds + this.memorySeconds);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  /**
   * Drops expired entries from the oldest end and stops at the first live one: amortised O(1) per call, where a
   * full scan would cost O(n) per request once many nonces are live. If the clock steps back, some expired entries
   * wait for a later call; `has` checks the expiry itself, so correctness never depends on pruning.
   */
  private prune(nowSeconds: number): void {
    for (const [nonce, expiresAt] of this.seen) {
      if (expiresAt >= nowSeconds) return;
      this.seen.delete(nonce);
    }
  }
}
