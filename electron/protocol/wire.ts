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
 * Remembers nonces for 600 s (§4.4) and refuses repeats. In memory; the sandbox persists its own per merchant.
 * `remember` returns false for a nonce already seen inside the window.
 */
export class NonceMemory {
  private readonly seen = new Map<string, number>();
  private lastPrune = 0;

  constructor(private readonly memorySeconds = NONCE_MEMORY_SECONDS) {}

  has(nonce: string, nowSeconds: number): boolean {
    const expiresAt = this.seen.get(nonce);
    return expiresAt !== undefined && expiresAt > nowSeconds;
  }

  remember(nonce: string, nowSeconds: number): boolean {
    this.prune(nowSeconds);
    if (this.has(nonce, nowSeconds)) return false;
    this.seen.set(nonce, nowSeconds + this.memorySeconds);
    return true;
  }

  get size(): number {
    return this.seen.size;
  }

  private prune(nowSeconds: number): void {
    if (nowSeconds - this.lastPrune < 30 && this.seen.size < 100_000) return;
    this.lastPrune = nowSeconds;
    for (const [nonce, expiresAt] of this.seen) if (expiresAt <= nowSeconds) this.seen.delete(nonce);
  }
}
