// Session tokens (PROTOCOL §6): the getToken request, and a holder that keeps one token, shares one getToken in
// flight among all waiting calls, drops a token only if it is still the current one, and knows when its token was
// issued and last accepted (so its expiry can be estimated, §6.3). Tokens never enter messages or that estimate.
import type { HttpTransport } from './http';
import { BUSINESS_REQUEST_CONTENT_TYPE, HEADER, PATHS, TOKEN_ABSOLUTE_SECONDS, TOKEN_SLIDING_SECONDS } from './profile';
import { tokenResponseSchema } from './schemas';
import { readBusinessResponse, type VerifyContext } from './verify';
import { authorizationHeader } from './wire';

export interface TokenRequestDeps {
  readonly http: HttpTransport;
  readonly merchantId: string;
  readonly secret: string;
  readonly verify: VerifyContext;
}

/**
 * One getToken call (§6.1–§6.2): SVC-APP-ID and the MD5 Authorization header, empty body; the answer is an envelope
 * verified and decrypted like any other. Resolves to the token text.
 */
export async function requestToken(deps: TokenRequestDeps): Promise<string> {
  const response = await deps.http.request({
    method: 'POST',
    path: PATHS.getToken,
    endpoint: 'getToken',
    headers: {
      'content-type': BUSINESS_REQUEST_CONTENT_TYPE,
      [HEADER.appId]: deps.merchantId,
      [HEADER.authorization]: authorizationHeader(deps.merchantId, deps.secret),
    },
    body: '',
  });
  const { token } = await readBusinessResponse('getToken', response, tokenResponseSchema, deps.verify);
  return token;
}

/** When the current token was issued and last accepted, and the expiry that follows from §6.3 (ms since the epoch). */
export interface TokenLifetime {
  readonly issuedAt: number;
  /** The last successful authenticated request with it; null before the first. */
  readonly lastAcceptedAt: number | null;
  /** min(last acceptance (or issue) + 8 h, issue + 24 h): an estimate, since the service does not say. */
  readonly expiresAt: number;
}

/** The expiry §6.3 implies for a token issued at `issuedAt` and last accepted at `lastAcceptedAt` (ms). */
export function estimatedTokenExpiry(issuedAt: number, lastAcceptedAt: number | null): number {
  return Math.min((lastAcceptedAt ?? issuedAt) + TOKEN_SLIDING_SECONDS * 1000, issuedAt + TOKEN_ABSOLUTE_SECONDS * 1000);
}

/**
 * Holds the current token. `get()` returns it or joins the one getToken in flight (single flight, §6.4);
 * `invalidate(token)` forgets it only when it is still current, so N calls failing with `tokenExpired` on the same
 * token cause exactly one refresh.
 */
export class TokenManager {
  private current: string | undefined;
  private inflight: Promise<string> | undefined;
  private generation = 0;
  private issuedAt: number | null = null;
  private lastAcceptedAt: number | null = null;

  /** `clock` (ms) stamps issue and acceptance times; the default is the system clock. */
  constructor(
    private readonly fetchToken: () => Promise<string>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The current token, fetching one (shared with concurrent callers) when there is none. */
  get(): Promise<string> {
    return this.current !== undefined ? Promise.resolve(this.current) : this.refresh();
  }

  /** Fetches a new token now, or joins the fetch already in flight. */
  refresh(): Promise<string> {
    if (this.inflight === undefined) {
      const generation = this.generation;
      this.inflight = this.fetchToken()
        .then((token) => {
          if (generation === this.generation) {
            this.current = token;
            this.issuedAt = this.clock();
            this.lastAcceptedAt = null;
          }
          return token;
        })
        .finally(() => {
          if (generation === this.generation) this.inflight = undefined;
        });
    }
    return this.inflight;
  }

  /** Forgets `token` if it is still the current one; returns whether it was. A stale token never drops a newer one. */
  invalidate(token: string): boolean {
    if (this.current !== token) return false;
    this.forgetCurrent();
    return true;
  }

  /** A request with `token` succeeded: the service moved its expiry (§6.3). A stale token changes nothing. */
  accepted(token: string): void {
    if (this.current === token) this.lastAcceptedAt = this.clock();
  }

  /** The current token's issue and acceptance times and estimated expiry; null when there is no token. */
  get lifetime(): TokenLifetime | null {
    if (this.current === undefined || this.issuedAt === null) return null;
    return { issuedAt: this.issuedAt, lastAcceptedAt: this.lastAcceptedAt, expiresAt: estimatedTokenExpiry(this.issuedAt, this.lastAcceptedAt) };
  }

  /** Forgets everything (on close or credential change); a fetch in flight no longer installs its token. */
  clear(): void {
    this.generation += 1;
    this.forgetCurrent();
    this.inflight = undefined;
  }

  private forgetCurrent(): void {
    this.current = undefined;
    this.issuedAt = null;
    this.lastAcceptedAt = null;
  }

  get hasToken(): boolean {
    return this.current !== undefined;
  }
}
