// Unit tests of the protocol schemas: decimal strings only, unknown fields kept, pending states open, request guards.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressTypeSchema,
  amountProblem,
  callbackRecordSchema,
  createdAddressSchema,
  currencyListSchema,
  currencySymbolSchema,
  decimalStringSchema,
  depositPageSchema,
  depositRecordSchema,
  depositsLimitSchema,
  describeIssues,
  isFinalOrderStatus,
  isKnownPendingOrderStatus,
  isReservedAddressType,
  merchantInfoSchema,
  publicEnvelopeSchema,
  qrAddressTypeSchema,
  remarkSchema,
  selfcheckResultSchema,
  tokenResponseSchema,
  userOrderSchema,
  withdrawTypeSchema,
  withdrawalOrderRecordSchema,
} from '../../../electron/protocol/schemas';

const deposit = {
  businessType: 'deposit',
  txid: '0xabc',
  address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
  addressType: 'trx',
  fromAddress: 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj',
  amount: '99.5',
  currency: 'trx.usdt',
  fee: '0.5',
  apiOrder: 'D1',
  userOrder: 'addr-1',
};

const withdrawal = {
  businessType: 'withdraw',
  toAddress: '0x52908400098527886E0F7030069857D2E4169EE7',
  amount: '10',
  currency: 'eth.usdt',
  fee: '1.5',
  apiOrder: 'W1',
  userOrder: 'wd-1',
  withdrawType: 'normal',
  message: '',
  txid: '',
  orderStatus: 'pendingConfirm',
};

const currencyRecord = {
  name: 'USDT on TRON',
  symbol: 'trx.usdt',
  deposit_fixed_fee: '0',
  deposit_percent_fee: '0.5',
  withdraw_fixed_fee: '1',
  withdraw_percent_fee: '0.1',
  deposit_min_fee: '0.1',
  deposit_max_fee: '50',
  withdraw_min_fee: '1',
  withdraw_max_fee: '0',
  deposit_min: '1',
  withdraw_min: '10',
};

describe('decimal strings (§9.1)', () => {
  it.each(['0', '1', '12.5', '0.000000000000000001', '1000000000000000000000000'])('accepts %s', (value) => {
    expect(decimalStringSchema.safeParse(value).success).toBe(true);
  });

  it.each(['', '-1', '+1', '1e5', '1.', '.5', ' 1', '1 ', '1,5', '0x10', 'NaN', 'Infinity', '1.2.3'])('refuses %j', (value) => {
    expect(decimalStringSchema.safeParse(value).success).toBe(false);
  });

  it('refuses JavaScript numbers for money', () => {
    expect(decimalStringSchema.safeParse(1.5).success).toBe(false);
    expect(depositRecordSchema.safeParse({ ...deposit, amount: 99.5 }).success).toBe(false);
    expect(withdrawalOrderRecordSchema.safeParse({ ...withdrawal, fee: 1 }).success).toBe(false);
  });

  it('accepts any digits with an optional fraction (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,30}$/), fc.option(fc.stringMatching(/^[0-9]{1,20}$/)), (whole, fraction) => {
        const text = fraction === null ? whole : `${whole}.${fraction}`;
        expect(decimalStringSchema.safeParse(text).success).toBe(true);
      }),
    );
  });
});

describe('records keep unknown fields (§8)', () => {
  it('keeps unknown fields of a deposit record', () => {
    const parsed = depositRecordSchema.parse({ ...deposit, confirmations: 12, memo: { tag: 'x' } });
    expect(parsed).toMatchObject({ confirmations: 12, memo: { tag: 'x' } });
  });

  it('keeps unknown fields of merchantInfo, nested balances included', () => {
    const parsed = merchantInfoSchema.parse({
      merchantId: 'M1',
      merchantName: 'Shop',
      apiVersion: 2,
      withdrawTypes: ['normal'],
      auditorMessengerBound: false,
      balances: [{ currency: 'trx', available: '0', frozen: '0', locked: '0' }],
      tier: 'gold',
    });
    expect(parsed.tier).toBe('gold');
    expect(parsed.balances[0]).toMatchObject({ locked: '0' });
  });

  it('reads a merchantInfo naming a withdrawal type or a currency this desk does not know yet, and keeps them', () => {
    const parsed = merchantInfoSchema.parse({
      merchantId: 'M1',
      merchantName: 'Shop',
      apiVersion: 2,
      withdrawTypes: ['normal', 'instantPayout'],
      auditorMessengerBound: true,
      balances: [{ currency: 'ton.usdc', available: '1.5', frozen: '0' }],
    });
    expect(parsed.withdrawTypes).toEqual(['normal', 'instantPayout']);
    expect(parsed.balances[0]?.currency).toBe('ton.usdc');
    expect(merchantInfoSchema.safeParse({ ...parsed, withdrawTypes: [''] }).success).toBe(false);
  });

  it('keeps unknown fields of the created address, selfcheck, token and currency records', () => {
    expect(createdAddressSchema.parse({ address: 'T1', addressType: 'trx', userOrder: 'a', memo: 'm' }).memo).toBe('m');
    expect(selfcheckResultSchema.parse({ pong: true, apiVersion: 2, serverTime: 1, echo: null, node: 'n1' }).node).toBe('n1');
    expect(tokenResponseSchema.parse({ token: 'abc', ttl: 3 }).ttl).toBe(3);
    expect(currencyListSchema.parse([{ ...currencyRecord, network: 'TRC20' }])[0]?.network).toBe('TRC20');
  });
});

describe('withdrawal order records', () => {
  it('accepts the final and known pending states, and unknown pending names (spec rule 1)', () => {
    for (const status of ['success', 'WithdrawRefund', 'fail', 'pendingConfirm', 'pendingReview2027']) {
      expect(withdrawalOrderRecordSchema.parse({ ...withdrawal, orderStatus: status }).orderStatus).toBe(status);
    }
    expect(withdrawalOrderRecordSchema.safeParse({ ...withdrawal, orderStatus: '' }).success).toBe(false);
    expect(withdrawalOrderRecordSchema.safeParse({ ...withdrawal, orderStatus: 3 }).success).toBe(false);
  });

  it('decides finality only from success, WithdrawRefund and fail', () => {
    expect(['success', 'WithdrawRefund', 'fail'].every(isFinalOrderStatus)).toBe(true);
    expect(isFinalOrderStatus('pendingCallback')).toBe(false);
    expect(isFinalOrderStatus('Success')).toBe(false);
    expect(isKnownPendingOrderStatus('pendingTransfer')).toBe(true);
    expect(isKnownPendingOrderStatus('pendingSomethingNew')).toBe(false);
  });

  it('requires the documented fields and the withdraw business type', () => {
    const { apiOrder: _apiOrder, ...missing } = withdrawal;
    expect(withdrawalOrderRecordSchema.safeParse(missing).success).toBe(false);
    expect(withdrawalOrderRecordSchema.safeParse({ ...withdrawal, businessType: 'deposit' }).success).toBe(false);
    expect(withdrawalOrderRecordSchema.safeParse({ ...withdrawal, withdrawType: 'express' }).success).toBe(false);
  });
});

describe('callback records', () => {
  it('tells deposits and withdrawals apart by businessType', () => {
    expect(callbackRecordSchema.parse(deposit).businessType).toBe('deposit');
    expect(callbackRecordSchema.parse(withdrawal).businessType).toBe('withdraw');
    expect(callbackRecordSchema.safeParse({ ...deposit, businessType: 'refund' }).success).toBe(false);
  });
});

describe('other response shapes', () => {
  it('selfcheck: pong true, apiVersion 2, integer serverTime, echo present', () => {
    const ok = { pong: true, apiVersion: 2, serverTime: 1_800_000_000, echo: { a: [1] } };
    expect(selfcheckResultSchema.safeParse(ok).success).toBe(true);
    expect(selfcheckResultSchema.safeParse({ ...ok, pong: false }).success).toBe(false);
    expect(selfcheckResultSchema.safeParse({ ...ok, apiVersion: 1 }).success).toBe(false);
    expect(selfcheckResultSchema.safeParse({ ...ok, serverTime: '1800000000' }).success).toBe(false);
    expect(selfcheckResultSchema.safeParse({ ...ok, serverTime: 1.5 }).success).toBe(false);
    const { echo: _echo, ...withoutEcho } = ok;
    expect(selfcheckResultSchema.safeParse(withoutEcho).success).toBe(false);
  });

  it('token: visible ASCII only (it goes into a header)', () => {
    expect(tokenResponseSchema.safeParse({ token: 'a'.repeat(43) }).success).toBe(true);
    expect(tokenResponseSchema.safeParse({ token: '' }).success).toBe(false);
    expect(tokenResponseSchema.safeParse({ token: 'abc\r\nX-Evil: 1' }).success).toBe(false);
  });

  it('currency records: fee fields must be decimal strings (§9.3)', () => {
    expect(currencyListSchema.safeParse([currencyRecord]).success).toBe(true);
    expect(currencyListSchema.safeParse([{ ...currencyRecord, withdraw_fixed_fee: 1 }]).success).toBe(false);
    expect(currencyListSchema.safeParse([{ ...currencyRecord, deposit_percent_fee: '0.5%' }]).success).toBe(false);
  });

  it('deposit pages are arrays of deposit records; a symbol added later does not break the page', () => {
    expect(depositPageSchema.parse([deposit, { ...deposit, apiOrder: 'D2', currency: 'sui.usdt', addressType: 'sui' }])).toHaveLength(2);
    expect(depositPageSchema.safeParse([{ ...deposit, currency: 'TRX USDT' }]).success).toBe(false);
  });

  it('public envelopes need an integer code and a string message', () => {
    expect(publicEnvelopeSchema.safeParse({ code: 10000, data: [], message: 'ok' }).success).toBe(true);
    expect(publicEnvelopeSchema.safeParse({ code: '10000', data: [], message: 'ok' }).success).toBe(false);
  });

  it('describes issues by path without echoing values', () => {
    const result = depositRecordSchema.safeParse({ ...deposit, amount: 'SECRET-VALUE' });
    expect(result.success).toBe(false);
    if (!result.success) {
      const text = describeIssues(result.error);
      expect(text).toContain('amount');
      expect(text).not.toContain('SECRET-VALUE');
    }
  });
});

describe('request validators', () => {
  it('userOrder: 1-64 of [A-Za-z0-9_-] (§8)', () => {
    expect(userOrderSchema.safeParse('a').success).toBe(true);
    expect(userOrderSchema.safeParse('A-z_09'.padEnd(64, 'x')).success).toBe(true);
    for (const bad of ['', 'x'.repeat(65), 'a b', 'a/b', 'ä', 'a.b']) expect(userOrderSchema.safeParse(bad).success).toBe(false);
  });

  it('currency enum: the 13 withdrawal symbols, not trx.usdc or btc', () => {
    expect(currencySymbolSchema.options).toHaveLength(13);
    expect(currencySymbolSchema.safeParse('ton.usdt').success).toBe(true);
    expect(currencySymbolSchema.safeParse('trx.usdc').success).toBe(false);
    expect(currencySymbolSchema.safeParse('btc').success).toBe(false);
  });

  it('addressType excludes the reserved btc; QR types include eth and bnb', () => {
    expect(addressTypeSchema.safeParse('btc').success).toBe(false);
    expect(isReservedAddressType('btc')).toBe(true);
    expect(addressTypeSchema.safeParse('eth_bnb').success).toBe(true);
    expect(qrAddressTypeSchema.safeParse('bnb').success).toBe(true);
    expect(qrAddressTypeSchema.safeParse('btc').success).toBe(false);
  });

  it('withdrawType, remark and limit', () => {
    expect(withdrawTypeSchema.safeParse('financialConfirmation').success).toBe(true);
    expect(withdrawTypeSchema.safeParse('fast').success).toBe(false);
    expect(remarkSchema.safeParse('r'.repeat(255)).success).toBe(true);
    expect(remarkSchema.safeParse('r'.repeat(256)).success).toBe(false);
    expect(depositsLimitSchema.safeParse(1).success).toBe(true);
    expect(depositsLimitSchema.safeParse(100).success).toBe(true);
    for (const bad of [0, 101, 1.5, -1]) expect(depositsLimitSchema.safeParse(bad).success).toBe(false);
  });

  it('amountProblem: syntax, zero, and decimals per currency (§9.1, §9.2)', () => {
    expect(amountProblem('10', 'trx.usdt')).toBeUndefined();
    expect(amountProblem('0.000001', 'trx.usdt')).toBeUndefined();
    expect(amountProblem('0.0000001', 'trx.usdt')).toMatch(/7 decimal places.*at most 6/);
    expect(amountProblem('0.000000000000000001', 'eth')).toBeUndefined();
    expect(amountProblem('0', 'eth')).toMatch(/greater than zero/);
    expect(amountProblem('0.000', 'eth')).toMatch(/greater than zero/);
    expect(amountProblem('1e3', 'eth')).toMatch(/decimal string/);
    expect(amountProblem('-5', 'eth')).toMatch(/decimal string/);
  });
});
