// Session tokens (PROTOCOL §6): the getToken request, and a holder that keeps one token, shares one getToken in
// flight among all waiting calls, and drops a token only if it is still the current one. Tokens never enter messages.
import type { HttpTransport } from './http';
import { BUSINESS_REQUEST_CONTENT_TYPE, HEADER, PATHS } from './profile';
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

/**
 * Holds the current token. `get()` returns it or joins the one getToken in flight (single flight, §6.4);
 * `invalidate(token)` forgets it only when it is still current, so N calls failing with `tokenExpired` on the same
 * token cause exactly one refresh.
 */
export class TokenManager {
  private current: string | undefined;
  private inflight: Promise<string> | undefined;
  private generation = 0;

  constructor(private readonly fetchToken: () => Promise<string>) {}

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
          if (generation === this.generation) this.current = token;
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
    this.current = undefined;
    return true;
  }

  /** Forgets everything (on close or credential change); a fetch in flight no longer installs its token. */
  clear(): void {
    this.generation += 1;
    this.current = undefined;
    this.inflight = undefined;
  }

  get hasToken(): boolean {
    return this.current !== undefined;
  }
}
