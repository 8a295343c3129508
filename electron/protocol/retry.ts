// The retry decision of both clients as one pure function (stripe-node habit): what failed, which attempt, which
// operation -> retry or not, refresh the token or not, how long to wait. Invariant: createWithdrawOrder is never
// resent after an ambiguous failure (ARCHITECTURE house rule 5): the engine reconciles with checkWithdrawOrder.
import { ServiceError, TransportError } from './errors';
import { RETRY_BASE_DELAY_MS, RETRY_MAX_ATTEMPTS, RETRY_MAX_DELAY_MS, TOKEN_EXPIRED_RETRIES } from './profile';

/**
 * How safe it is to send an operation again:
 * - `read`: changes nothing (merchantInfo, getDeposits, checkWithdrawOrder, selfcheck, public reads);
 * - `idempotent`: the service deduplicates it (createAddress by userOrder, getToken only issues another token);
 * - `unsafe`: money moves (createWithdrawOrder): an ambiguous failure must be reconciled, not resent.
 */
export type OperationSafety = 'read' | 'idempotent' | 'unsafe';

export interface OperationTraits {
  readonly safety: OperationSafety;
  /** Business endpoint with SVC-TOKEN: a `tokenExpired` refusal can be cured by a new token (§6.4). */
  readonly usesToken: boolean;
  /** Attempts in total for transport failures; 1 means never resent automatically. */
  readonly maxAttempts: number;
}

export const OPERATIONS = {
  getToken: { safety: 'idempotent', usesToken: false, maxAttempts: RETRY_MAX_ATTEMPTS },
  createAddress: { safety: 'idempotent', usesToken: true, maxAttempts: RETRY_MAX_ATTEMPTS },
  createWithdrawOrder: { safety: 'unsafe', usesToken: true, maxAttempts: RETRY_MAX_ATTEMPTS },
  merchantInfo: { safety: 'read', usesToken: true, maxAttempts: RETRY_MAX_ATTEMPTS },
  getDeposits: { safety: 'read', usesToken: true, maxAttempts: RETRY_MAX_ATTEMPTS },
  checkWithdrawOrder: { safety: 'read', usesToken: true, maxAttempts: RETRY_MAX_ATTEMPTS },
  selfcheck: { safety: 'read', usesToken: true, maxAttempts: RETRY_MAX_ATTEMPTS },
  getCurrencies: { safety: 'read', usesToken: false, maxAttempts: RETRY_MAX_ATTEMPTS },
  isAddress: { safety: 'read', usesToken: false, maxAttempts: RETRY_MAX_ATTEMPTS },
  // Low-frequency and rate-limited (20/min, §12.2): a resend would spend the budget, so the caller decides.
  checkTransfer: { safety: 'read', usesToken: false, maxAttempts: 1 },
  generateAddressQrCode: { safety: 'read', usesToken: false, maxAttempts: RETRY_MAX_ATTEMPTS },
} as const satisfies Record<string, OperationTraits>;

export type OperationName = keyof typeof OPERATIONS;

export interface BackoffPolicy {
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseDelayMs: RETRY_BASE_DELAY_MS, maxDelayMs: RETRY_MAX_DELAY_MS };

export interface RetryInput {
  readonly error: unknown;
  /** 1-based number of the attempt that just failed (token refreshes are not counted here). */
  readonly attempt: number;
  readonly operation: OperationName;
  /** Token refreshes already done for this call; `tokenExpired` is cured at most once (§6.4). */
  readonly tokenRefreshes?: number;
  readonly backoff?: BackoffPolicy;
  /** Uniform [0, 1) source for jitter; injectable for tests. */
  readonly random?: () => number;
}

export type RetryDecision =
  | { readonly retry: false; readonly reason: string }
  | { readonly retry: true; readonly refreshToken: boolean; readonly delayMs: number; readonly reason: string };

/** Exponential backoff with "equal jitter": half the step fixed, half random, capped. */
export function backoffDelayMs(attempt: number, backoff: BackoffPolicy = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const step = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

export function decideRetry(input: RetryInput): RetryDecision {
  const { error, attempt, operation } = input;
  const traits: OperationTraits = OPERATIONS[operation];

  if (error instanceof ServiceError) {
    if (error.reason !== 'tokenExpired') return { retry: false, reason: `the service refused: ${error.reason}` };
    if (!traits.usesToken) return { retry: false, reason: `${operation} does not use a token` };
    if ((input.tokenRefreshes ?? 0) >= TOKEN_EXPIRED_RETRIES) {
      return { retry: false, reason: 'tokenExpired again right after a token refresh' };
    }
    // A definite refusal: the request had no effect, so even createWithdrawOrder may be sent again, once.
    return { retry: true, refreshToken: true, delayMs: 0, reason: 'tokenExpired: refresh the token and retry once' };
  }

  if (error instanceof TransportError) {
    if (error.ambiguous && traits.safety === 'unsafe') {
      return { retry: false, reason: 'ambiguous failure of an operation that moves money: reconcile, never resend' };
    }
    if (attempt >= traits.maxAttempts) return { retry: false, reason: `gave up after ${attempt} attempt(s)` };
    return {
      retry: true,
      refreshToken: false,
      delayMs: backoffDelayMs(attempt, input.backoff ?? DEFAULT_BACKOFF, input.random ?? Math.random),
      reason: error.ambiguous ? `ambiguous transport failure of a ${traits.safety} operation` : 'the request was not sent',
    };
  }

  return { retry: false, reason: 'not a retryable failure' };
}

export interface RetryRunOptions {
  readonly backoff?: BackoffPolicy;
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attemptOnce` until it succeeds or decideRetry says stop, then rethrows the last error unchanged. The attempt
 * function must fetch its token afresh each time (and drop it on tokenExpired): every attempt is a new request with a
 * fresh timestamp, nonce and signature (§6.4).
 */
export async function runWithRetry<T>(
  operation: OperationName,
  attemptOnce: () => Promise<T>,
  options: RetryRunOptions = {},
): Promise<T> {
  let attempt = 1;
  let tokenRefreshes = 0;
  for (;;) {
    try {
      return await attemptOnce();
    } catch (error) {
      const decision = decideRetry({ error, attempt, operation, tokenRefreshes, backoff: options.backoff, random: options.random });
      if (!decision.retry) throw error;
      if (decision.refreshToken) tokenRefreshes += 1;
      else attempt += 1;
      if (decision.delayMs > 0) await (options.sleep ?? realSleep)(decision.delayMs);
    }
  }
}
