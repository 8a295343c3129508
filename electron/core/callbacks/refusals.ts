// What the callback listener does with requests it refuses (issue 23, item 2): they are counted, and only a bounded
// sample is audited (the first few of each minute, then one summary row with the count and the reasons seen), so a
// flood of unauthenticated POSTs cannot write a signed row each (on a team desk, shared-chain rows); and each source
// address gets a token bucket, so a flood is turned away before any verification work; and the most recent refusals
// are kept in memory for the faces (issue 22, part 2: RefusalLog, at most CALLBACK_REFUSALS_KEPT, never persisted), each
// with the check that refused it as a stable code. Pure bookkeeping: the caller writes the rows and answers the requests.
import {
  CALLBACK_REFUSAL_CODES,
  CALLBACK_REFUSAL_REASON_MAX_CHARS,
  CALLBACK_REFUSALS_KEPT,
  type CallbackRefusalCode,
  type CallbackRefusalsView,
  type CallbackRefusalView,
} from '../../contract';
import { ResponseVerificationError, type ProtocolError, type VerificationFailure } from '../../protocol';

/** Refusals audited one by one in each window; the rest of the window is one summary row. */
export const REFUSALS_SAMPLED_PER_WINDOW = 3;
export const REFUSAL_WINDOW_MS = 60_000;
/** Per source address: a burst of this many requests, then this many per second. */
export const SOURCE_BURST = 60;
export const SOURCE_PER_SECOND = 20;
/** Sources remembered at most (the oldest forgotten first), so the bookkeeping itself stays bounded. */
const SOURCES_KEPT = 1024;
/** Distinct reasons named in a summary. */
const REASONS_KEPT = 5;

export interface RefusalSummary {
  readonly from: number;
  readonly to: number;
  readonly notAudited: number;
  readonly reasons: readonly string[];
}

/** Counts refusals per window: `sample` says whether this one is audited on its own; a finished window's summary comes back once. */
export class RefusalSampler {
  #windowStart: number | null = null;
  #sampled = 0;
  #notAudited = 0;
  #reasons = new Set<string>();

  /** Records a refusal at `now`: whether to audit it, and the summary of a window that just ended with unaudited refusals. */
  record(now: number, reason: string): { readonly audit: boolean; readonly summary: RefusalSummary | null } {
    let summary: RefusalSummary | null = null;
    if (this.#windowStart === null || now - this.#windowStart >= REFUSAL_WINDOW_MS) {
      summary = this.flush(now);
      this.#windowStart = now;
    }
    if (this.#sampled < REFUSALS_SAMPLED_PER_WINDOW) {
      this.#sampled += 1;
      return { audit: true, summary };
    }
    this.#notAudited += 1;
    if (this.#reasons.size < REASONS_KEPT) this.#reasons.add(reason.slice(0, 200));
    return { audit: false, summary };
  }

  /** The summary of the current window when some refusals in it were not audited (then the window starts over), else null. */
  flush(now: number): RefusalSummary | null {
    const summary =
      this.#notAudited > 0 && this.#windowStart !== null ? { from: this.#windowStart, to: now, notAudited: this.#notAudited, reasons: [...this.#reasons] } : null;
    this.#windowStart = null;
    this.#sampled = 0;
    this.#notAudited = 0;
    this.#reasons = new Set();
    return summary;
  }
}

/** A token bucket per source address. */
export class SourceRateLimit {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  /** Whether a request from `source` at `now` may be looked at; takes a token when it may. */
  allow(source: string, now: number): boolean {
    const bucket = this.#buckets.get(source) ?? { tokens: SOURCE_BURST, at: now };
    bucket.tokens = Math.min(SOURCE_BURST, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * SOURCE_PER_SECOND);
    bucket.at = now;
    this.#buckets.delete(source);
    this.#buckets.set(source, bucket);
    if (this.#buckets.size > SOURCES_KEPT) {
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

/** Whether a listen address stays on this machine: a loopback address or `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)) return true;
  return name === '::1' || name === '0:0:0:0:0:0:0:1';
}

/** Which check refused a callback, from the verifier's error: a ResponseVerificationError names its failure. */
export function refusalCodeOf(error: ProtocolError): CallbackRefusalCode {
  if (!(error instanceof ResponseVerificationError)) return 'other';
  const failure: VerificationFailure = error.failure;
  switch (failure) {
    case 'unexpectedResponse':
      return 'notSuccess';
    case 'malformedEnvelope':
    case 'missingHeaders':
    case 'badTimestamp':
    case 'staleTimestamp':
    case 'badNonce':
    case 'replayedNonce':
    case 'badSignature':
    case 'decryptFailed':
    case 'schemaMismatch':
    case 'wrongAppId':
      return failure;
    default: {
      const unknown: never = failure;
      return unknown;
    }
  }
}

/**
 * The most recent refusals, newest first, at most CALLBACK_REFUSALS_KEPT (the oldest forgotten first), each reason cut
 * to CALLBACK_REFUSAL_REASON_MAX_CHARS; counts per code since this process started. Memory stays bounded under a flood.
 */
export class RefusalLog {
  readonly #kept: CallbackRefusalView[] = [];
  readonly #counts = new Map<CallbackRefusalCode, number>();
  #total = 0;

  record(refusal: CallbackRefusalView): void {
    this.#kept.push({ ...refusal, reason: refusal.reason.slice(0, CALLBACK_REFUSAL_REASON_MAX_CHARS) });
    if (this.#kept.length > CALLBACK_REFUSALS_KEPT) this.#kept.shift();
    this.#counts.set(refusal.code, (this.#counts.get(refusal.code) ?? 0) + 1);
    this.#total += 1;
  }

  view(): CallbackRefusalsView {
    return {
      refusals: this.#kept.toReversed(),
      counts: CALLBACK_REFUSAL_CODES.flatMap((code) => {
        const count = this.#counts.get(code) ?? 0;
        return count === 0 ? [] : [{ code, count }];
      }),
      total: this.#total,
      kept: CALLBACK_REFUSALS_KEPT,
    };
  }
}
