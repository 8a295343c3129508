// Unit tests of the retry decision (one pure function): tokenExpired once, reads retried with backoff, and
// createWithdrawOrder never resent after an ambiguous failure (house rule 5). Also the small retry loop.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  NotWhitelistedError,
  RequestTooLargeError,
  ResponseVerificationError,
  ServiceError,
  TransportError,
} from '../../../electron/protocol/errors';
import { RETRY_MAX_ATTEMPTS, TOKEN_EXPIRED_RETRIES } from '../../../electron/protocol/profile';
import {
  backoffDelayMs,
  decideRetry,
  DEFAULT_BACKOFF,
  OPERATIONS,
  runWithRetry,
  type OperationName,
} from '../../../electron/protocol/retry';

const tokenExpired = new ServiceError('tokenExpired', 'merchantInfo', { code: 9999, data: '', message: 'tokenExpired' }, 200);
const ambiguous = new TransportError('x', true, 'reset');
const notSent = new TransportError('x', false, 'refused');
const http503 = new TransportError('x', true, 'HTTP 503', 503);
const operations = Object.keys(OPERATIONS) as OperationName[];
const reads: OperationName[] = ['merchantInfo', 'getDeposits', 'checkWithdrawOrder', 'selfcheck', 'getCurrencies', 'isAddress', 'generateAddressQrCode'];
const fixedRandom = () => 0.5;

describe('decideRetry: tokenExpired (§6.4)', () => {
  it.each(['merchantInfo', 'createAddress', 'createWithdrawOrder', 'getDeposits', 'checkWithdrawOrder', 'selfcheck'] as const)(
    '%s: refresh the token and retry once, immediately',
    (operation) => {
      expect(decideRetry({ error: tokenExpired, attempt: 1, operation, tokenRefreshes: 0 })).toMatchObject({
        retry: true,
        refreshToken: true,
        delayMs: 0,
      });
    },
  );

  it('a second tokenExpired right after a refresh is surfaced, not looped', () => {
    expect(decideRetry({ error: tokenExpired, attempt: 1, operation: 'merchantInfo', tokenRefreshes: TOKEN_EXPIRED_RETRIES })).toMatchObject({
      retry: false,
    });
  });

  it('endpoints without a token never refresh', () => {
    for (const operation of ['getToken', 'getCurrencies', 'checkTransfer'] as const) {
      expect(decideRetry({ error: tokenExpired, attempt: 1, operation }).retry).toBe(false);
    }
  });
});

describe('decideRetry: transport failures', () => {
  it.each(reads)('%s (read): retries ambiguous and unsent failures and 5xx up to the attempt limit', (operation) => {
    for (const error of [ambiguous, notSent, http503]) {
      for (let attempt = 1; attempt < RETRY_MAX_ATTEMPTS; attempt += 1) {
        expect(decideRetry({ error, attempt, operation, random: fixedRandom })).toMatchObject({ retry: true, refreshToken: false });
      }
      expect(decideRetry({ error, attempt: RETRY_MAX_ATTEMPTS, operation }).retry).toBe(false);
    }
  });

  it('createAddress is idempotent by userOrder: ambiguous failures are retried', () => {
    expect(decideRetry({ error: ambiguous, attempt: 1, operation: 'createAddress' }).retry).toBe(true);
  });

  it('createWithdrawOrder: never resent after an ambiguous failure, whatever the attempt (house rule 5)', () => {
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect(decideRetry({ error: ambiguous, attempt, operation: 'createWithdrawOrder' })).toMatchObject({ retry: false });
      expect(decideRetry({ error: http503, attempt, operation: 'createWithdrawOrder' }).retry).toBe(false);
    }
  });

  it('createWithdrawOrder: a failure that surely did not send may be resent (same userOrder)', () => {
    expect(decideRetry({ error: notSent, attempt: 1, operation: 'createWithdrawOrder', random: fixedRandom })).toMatchObject({ retry: true });
    expect(decideRetry({ error: notSent, attempt: RETRY_MAX_ATTEMPTS, operation: 'createWithdrawOrder' }).retry).toBe(false);
  });

  it('checkTransfer is never resent automatically (20/min budget, §12.2)', () => {
    expect(decideRetry({ error: notSent, attempt: 1, operation: 'checkTransfer' }).retry).toBe(false);
  });
});

describe('decideRetry: everything else is final', () => {
  it.each([
    ['another service refusal', new ServiceError('insufficientBalance', 'createWithdrawOrder', undefined, 200)],
    ['signatureFailed', new ServiceError('signatureFailed', 'merchantInfo', undefined, 200)],
    ['a refused response', new ResponseVerificationError('badSignature', 'merchantInfo', 'x')],
    ['not whitelisted', new NotWhitelistedError('merchantInfo')],
    ['too large', new RequestTooLargeError('selfcheck', 200_000, 131072)],
    ['a bad argument', new InvalidArgumentError('limit', 'x')],
    ['a plain Error', new Error('boom')],
  ])('%s', (_label, error) => {
    for (const operation of operations) expect(decideRetry({ error, attempt: 1, operation }).retry).toBe(false);
  });
});

describe('backoff with jitter', () => {
  it('grows exponentially, is capped, and stays within [step/2, step]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (attempt, random) => {
        const step = Math.min(DEFAULT_BACKOFF.maxDelayMs, DEFAULT_BACKOFF.baseDelayMs * 2 ** (attempt - 1));
        const delay = backoffDelayMs(attempt, DEFAULT_BACKOFF, () => random);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(step / 2));
        expect(delay).toBeLessThanOrEqual(step);
      }),
    );
    expect(backoffDelayMs(1, { baseDelayMs: 100, maxDelayMs: 1000 }, () => 0)).toBe(50);
    expect(backoffDelayMs(3, { baseDelayMs: 100, maxDelayMs: 1000 }, () => 0)).toBe(200);
    expect(backoffDelayMs(10, { baseDelayMs: 100, maxDelayMs: 1000 }, () => 0)).toBe(500);
  });

  it('property: no decision ever resends createWithdrawOrder after an ambiguous failure', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 0, max: 3 }), fc.option(fc.integer({ min: 500, max: 599 })), (attempt, refreshes, status) => {
        const error = new TransportError('createWithdrawOrder', true, 'x', status ?? undefined);
        expect(decideRetry({ error, attempt, operation: 'createWithdrawOrder', tokenRefreshes: refreshes }).retry).toBe(false);
      }),
    );
  });
});

describe('runWithRetry', () => {
  const noSleep = { sleep: async () => undefined, random: fixedRandom };

  it('retries a read until it succeeds and waits the decided delays', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await runWithRetry(
      'merchantInfo',
      async () => {
        calls += 1;
        if (calls < 3) throw ambiguous;
        return 'ok';
      },
      { sleep: async (ms) => void delays.push(ms), random: () => 0, backoff: { baseDelayMs: 10, maxDelayMs: 100 } },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(3);
    expect(delays).toEqual([5, 10]);
  });

  it('rethrows the last error unchanged when giving up', async () => {
    let calls = 0;
    await expect(
      runWithRetry(
        'getDeposits',
        async () => {
          calls += 1;
          throw ambiguous;
        },
        noSleep,
      ),
    ).rejects.toBe(ambiguous);
    expect(calls).toBe(RETRY_MAX_ATTEMPTS);
  });

  it('tokenExpired twice: two attempts, then the refusal surfaces', async () => {
    let calls = 0;
    await expect(
      runWithRetry(
        'createWithdrawOrder',
        async () => {
          calls += 1;
          throw tokenExpired;
        },
        noSleep,
      ),
    ).rejects.toBe(tokenExpired);
    expect(calls).toBe(2);
  });

  it('createWithdrawOrder: one attempt on an ambiguous failure', async () => {
    let calls = 0;
    await expect(
      runWithRetry(
        'createWithdrawOrder',
        async () => {
          calls += 1;
          throw ambiguous;
        },
        noSleep,
      ),
    ).rejects.toMatchObject({ ambiguous: true });
    expect(calls).toBe(1);
  });
});
