// The contract's request parsing, callMethod and dispatch: bad input is answered as invalidInput, never thrown.
import { afterEach, describe, expect, it } from 'vitest';
import { callMethod, CONTRACT, DESKTOP_METHOD_NAMES, dispatch, filePath, METHOD_NAMES, parseRequest, WINDOW_PATH_FIELDS, type TreasuryHandlers } from '../../../electron/contract';

const answering = new Proxy({} as TreasuryHandlers, {
  get: (_target, method) => async (request: unknown) => ({ ok: true, value: { method, request } }),
});

describe('parseRequest', () => {
  it('accepts a well-formed request', () => {
    const parsed = parseRequest('deposits/list', { currency: 'trx.usdt', limit: 50 });
    expect(parsed).toEqual({ ok: true, value: { currency: 'trx.usdt', limit: 50 } });
  });

  it('refuses unknown fields, wrong types and unknown enum values with per-field messages', () => {
    const parsed = parseRequest('deposits/list', { currency: 'TRX USDC', limit: '50', extra: 1 });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.code).toBe('invalidInput');
      expect(Object.keys(parsed.error.fields ?? {}).sort()).toEqual(['(request)', 'currency', 'limit']);
    }
  });

  it('takes any well-formed currency symbol where the service may list it, and only the 13 for withdrawals, saying why', () => {
    // A currency the service added later: its deposits can be filtered and a withdrawal preflighted (the engine says why not).
    expect(parseRequest('deposits/list', { currency: 'ton.usdc' }).ok).toBe(true);
    expect(parseRequest('withdrawals/preflight', { currency: 'ton.usdc', amount: '1', toAddress: 'x' }).ok).toBe(true);
    const request = parseRequest('withdrawals/request', { currency: 'ton.usdc', amount: '1', toAddress: 'x', as: { operator: 'ann', passphrase: 'x' } });
    expect(request.ok).toBe(false);
    if (!request.ok) expect(request.error.fields?.['currency']).toMatch(/^this desk has no address rules for "ton\.usdc", so it cannot withdraw in it: it withdraws in trx, /);
    const odd = parseRequest('withdrawals/preflight', { currency: 'ton..usdc', amount: '1', toAddress: 'x' });
    expect(odd.ok ? 'accepted' : odd.error.fields?.['currency']).toMatch(/a currency symbol looks like "trx\.usdt"/);
  });

  it('checks userOrder per PROTOCOL §8', () => {
    const parsed = parseRequest('addresses/create', { addressType: 'trx', userOrder: 'bad order!', as: { operator: 'ann', passphrase: 'x' } });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.fields?.['userOrder']).toMatch(/PROTOCOL §8/);
  });

  it('refuses btc as an address type (reserved)', () => {
    expect(parseRequest('addresses/create', { addressType: 'btc', as: { operator: 'a', passphrase: 'b' } }).ok).toBe(false);
  });
});

describe('callMethod', () => {
  it('calls the handler with the parsed request, and answers bad input itself without calling it', async () => {
    const received: unknown[] = [];
    const recording = new Proxy({} as TreasuryHandlers, {
      get: () => async (request: unknown) => {
        received.push(request);
        return { ok: true, value: 'answered' };
      },
    });
    expect(await callMethod(recording, 'deposits/list', { currency: 'trx.usdt', limit: 50 })).toEqual({ ok: true, value: 'answered' });
    expect(received).toEqual([{ currency: 'trx.usdt', limit: 50 }]);
    const refused = await callMethod(recording, 'deposits/list', { limit: '50' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalidInput', fields: { limit: expect.any(String) } } });
    expect(received).toHaveLength(1);
  });

  it("answers the handler's own refusal as it is", async () => {
    const refusing = new Proxy({} as TreasuryHandlers, {
      get: () => async () => ({ ok: false, error: { code: 'notFound', message: 'no such request' } }),
    });
    expect(await callMethod(refusing, 'withdrawals/get', { id: 'W-1' })).toEqual({ ok: false, error: { code: 'notFound', message: 'no such request' } });
  });
});

describe('dispatch', () => {
  const reported: unknown[] = [];
  const unreported = (method: string, error: unknown): void => void reported.push([method, error]);
  afterEach(() => {
    expect(reported).toEqual([]);
  });

  it('routes a parsed request to its handler', async () => {
    expect(await dispatch(answering, 'sync/run', { full: true }, unreported)).toEqual({ ok: true, value: { method: 'sync/run', request: { full: true } } });
  });

  it('answers an unknown method instead of throwing', async () => {
    const result = await dispatch(answering, '__proto__', {}, unreported);
    expect(result).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect(await dispatch(answering, 42, {}, unreported)).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });

  it('turns a throwing handler into an internal error without its message, reports the error and says where the log is', async () => {
    const thrown = new Error('secret-ish internal detail');
    const throwing = new Proxy({} as TreasuryHandlers, {
      get: () => async () => {
        throw thrown;
      },
    });
    const reported: unknown[] = [];
    const result = await dispatch(throwing, 'balances/list', {}, (method, error) => reported.push([method, error]));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('internal');
      expect(result.error.message).not.toContain('secret-ish');
      expect(result.error.message).toContain('logs/treasury-desk.log in the Treasury Desk data folder');
    }
    expect(reported).toEqual([['balances/list', thrown]]);
  });

  it('still answers when the reporter itself throws', async () => {
    const throwing = new Proxy({} as TreasuryHandlers, {
      get: () => async () => {
        throw new Error('bug');
      },
    });
    const result = await dispatch(throwing, 'balances/list', {}, () => {
      throw new Error('the log is gone');
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('names every method domain/verb', () => {
    for (const name of METHOD_NAMES) expect(name).toMatch(/^[a-z]+\/[a-zA-Z]+$/);
  });
});

describe('paths in the contract', () => {
  it('lists every engine request field that names a file in WINDOW_PATH_FIELDS, so a window can never name one', () => {
    const named: string[] = [];
    for (const method of METHOD_NAMES) {
      const shape = (CONTRACT[method].request as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      for (const [field, schema] of Object.entries(shape)) {
        const inner = (schema as { unwrap?: () => unknown }).unwrap?.() ?? schema;
        if (inner === filePath) named.push(`${method}.${field}`);
      }
    }
    expect(named.length).toBeGreaterThanOrEqual(5);
    expect(named.sort()).toEqual(Object.entries(WINDOW_PATH_FIELDS).map(([method, rule]) => `${method}.${rule?.field}`).sort());
    for (const rule of Object.values(WINDOW_PATH_FIELDS)) expect(DESKTOP_METHOD_NAMES).toContain(rule?.instead);
  });
});
