// Unit tests of the token holder (§6.4): one getToken in flight shared by all callers, and invalidation that drops
// a token only while it is current, so N concurrent tokenExpired failures cause exactly one refresh; and the token's
// lifetime (§6.3): issued at, last accepted at, and the expiry estimate min(last use + 8 h, issue + 24 h).
import { describe, expect, it } from 'vitest';
import { estimatedTokenExpiry, TokenManager } from '../../../electron/protocol/token-manager';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A fetcher that hands out token-1, token-2, ... and counts calls; each call can be held open. */
function countingFetcher(hold = false) {
  const pending: Array<ReturnType<typeof deferred<string>>> = [];
  const state = { calls: 0 };
  const fetch = () => {
    state.calls += 1;
    const token = `token-${state.calls}`;
    if (!hold) return Promise.resolve(token);
    const gate = deferred<string>();
    pending.push(gate);
    return gate.promise.then(() => token);
  };
  return { fetch, state, pending };
}

describe('TokenManager', () => {
  it('fetches once and reuses the token', async () => {
    const fetcher = countingFetcher();
    const tokens = new TokenManager(fetcher.fetch);
    expect(await tokens.get()).toBe('token-1');
    expect(await tokens.get()).toBe('token-1');
    expect(fetcher.state.calls).toBe(1);
    expect(tokens.hasToken).toBe(true);
  });

  it('single flight: 10 concurrent callers share one getToken', async () => {
    const fetcher = countingFetcher(true);
    const tokens = new TokenManager(fetcher.fetch);
    const waiting = Array.from({ length: 10 }, () => tokens.get());
    expect(fetcher.state.calls).toBe(1);
    fetcher.pending[0]?.resolve('go');
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['token-1']));
    expect(fetcher.state.calls).toBe(1);
  });

  it('10 concurrent tokenExpired failures on the same token cause exactly one refresh', async () => {
    const fetcher = countingFetcher();
    const tokens = new TokenManager(fetcher.fetch);
    const stale = await tokens.get();
    // Each failing call drops the token it used, then asks again; some after the refresh already finished.
    const first = Array.from({ length: 5 }, async () => {
      tokens.invalidate(stale);
      return tokens.get();
    });
    const firstTokens = await Promise.all(first);
    const late = Array.from({ length: 5 }, async () => {
      tokens.invalidate(stale);
      return tokens.get();
    });
    const lateTokens = await Promise.all(late);
    expect(fetcher.state.calls).toBe(2);
    expect(new Set([...firstTokens, ...lateTokens])).toEqual(new Set(['token-2']));
  });

  it('invalidate ignores a token that is no longer current', async () => {
    const fetcher = countingFetcher();
    const tokens = new TokenManager(fetcher.fetch);
    const first = await tokens.get();
    expect(tokens.invalidate(first)).toBe(true);
    const second = await tokens.get();
    expect(tokens.invalidate(first)).toBe(false);
    expect(await tokens.get()).toBe(second);
    expect(tokens.invalidate('never-issued')).toBe(false);
  });

  it('a failed getToken rejects every waiter, and the next call tries again', async () => {
    let calls = 0;
    const tokens = new TokenManager(async () => {
      calls += 1;
      if (calls === 1) throw new Error('authFailed');
      return 'token-ok';
    });
    const results = await Promise.allSettled([tokens.get(), tokens.get(), tokens.get()]);
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(calls).toBe(1);
    expect(await tokens.get()).toBe('token-ok');
    expect(calls).toBe(2);
  });

  it('refresh() forces a new token but still joins one in flight', async () => {
    const fetcher = countingFetcher(true);
    const tokens = new TokenManager(fetcher.fetch);
    const a = tokens.refresh();
    const b = tokens.refresh();
    expect(fetcher.state.calls).toBe(1);
    fetcher.pending[0]?.resolve('go');
    expect(await a).toBe('token-1');
    expect(await b).toBe('token-1');
    const c = tokens.refresh();
    fetcher.pending[1]?.resolve('go');
    expect(await c).toBe('token-2');
    expect(await tokens.get()).toBe('token-2');
  });

  it('clear() forgets the token, and a fetch in flight no longer installs its result', async () => {
    const fetcher = countingFetcher(true);
    const tokens = new TokenManager(fetcher.fetch);
    const inflight = tokens.get();
    tokens.clear();
    fetcher.pending[0]?.resolve('go');
    expect(await inflight).toBe('token-1');
    expect(tokens.hasToken).toBe(false);
  });

  it('knows when its token was issued and last accepted, and estimates the expiry from §6.3', async () => {
    const hour = 3_600_000;
    let now = 1_000_000;
    const fetcher = countingFetcher();
    const tokens = new TokenManager(fetcher.fetch, () => now);
    expect(tokens.lifetime).toBeNull();
    const first = await tokens.get();
    expect(tokens.lifetime).toEqual({ issuedAt: 1_000_000, lastAcceptedAt: null, expiresAt: 1_000_000 + 8 * hour });
    now += 7 * hour;
    tokens.accepted(first);
    expect(tokens.lifetime).toEqual({ issuedAt: 1_000_000, lastAcceptedAt: now, expiresAt: now + 8 * hour });
    // Used all day: the 24 h cap wins over the sliding 8 h.
    now = 1_000_000 + 20 * hour;
    tokens.accepted(first);
    expect(tokens.lifetime?.expiresAt).toBe(1_000_000 + 24 * hour);
    // A stale token's success moves nothing; a refresh starts a new lifetime; invalidation forgets it.
    tokens.invalidate(first);
    expect(tokens.lifetime).toBeNull();
    const second = await tokens.get();
    tokens.accepted(first);
    expect(tokens.lifetime).toEqual({ issuedAt: now, lastAcceptedAt: null, expiresAt: now + 8 * hour });
    tokens.accepted(second);
    expect(tokens.lifetime?.lastAcceptedAt).toBe(now);
    tokens.clear();
    expect(tokens.lifetime).toBeNull();
    expect(estimatedTokenExpiry(0, 23 * hour)).toBe(24 * hour);
    expect(estimatedTokenExpiry(0, null)).toBe(8 * hour);
  });
});
