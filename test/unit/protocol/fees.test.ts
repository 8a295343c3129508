// Fee arithmetic of PROTOCOL §9.3–§9.4: clamp, "0" max means unbounded, half-up rounding at the currency's decimals.
import { describe, expect, it } from 'vitest';
import { CURRENCIES, Money } from '../../../electron/chains';
import { computeFee, minimumAmount, type FeeSchedule } from '../../../electron/protocol/fees';

const schedule: FeeSchedule = {
  deposit_fixed_fee: '0',
  deposit_percent_fee: '0.5',
  deposit_min_fee: '0.1',
  deposit_max_fee: '0',
  withdraw_fixed_fee: '1',
  withdraw_percent_fee: '0.1',
  withdraw_min_fee: '1.5',
  withdraw_max_fee: '20',
  deposit_min: '1',
  withdraw_min: '10',
};

describe('computeFee', () => {
  it('adds the fixed fee to the percentage of the amount', () => {
    expect(computeFee(schedule, 'withdraw', new Money('1000'), CURRENCIES['trx.usdt'].decimals).toFixed()).toBe('2');
  });
  it('clamps to the minimum fee', () => {
    expect(computeFee(schedule, 'withdraw', new Money('10'), CURRENCIES['trx.usdt'].decimals).toFixed()).toBe('1.5');
  });
  it('clamps to the maximum fee', () => {
    expect(computeFee(schedule, 'withdraw', new Money('1000000'), CURRENCIES['trx.usdt'].decimals).toFixed()).toBe('20');
  });
  it('treats a max fee of "0" as no upper bound', () => {
    expect(computeFee(schedule, 'deposit', new Money('1000000'), CURRENCIES['trx.usdt'].decimals).toFixed()).toBe('5000');
  });
  it('rounds half-up at the currency decimals', () => {
    // 0.5 % of 100.0001 = 0.5000005 → 0.500001 at 6 decimals (half-up)
    expect(computeFee(schedule, 'deposit', new Money('100.0001'), CURRENCIES['trx.usdt'].decimals).toFixed()).toBe('0.500001');
    // 0.5 % of 100.0000009 (eth.usdt has 6 decimals) = 0.5000000045 → 0.5
    expect(computeFee(schedule, 'deposit', new Money('100.0000009'), CURRENCIES['eth.usdt'].decimals).toFixed()).toBe('0.5');
  });
  it('is exact where floating point is not', () => {
    const exact: FeeSchedule = { ...schedule, withdraw_fixed_fee: '0.1', withdraw_percent_fee: '0', withdraw_min_fee: '0', withdraw_max_fee: '0' };
    expect(computeFee(exact, 'withdraw', new Money('0.2'), CURRENCIES.eth.decimals).plus('0.2').toFixed()).toBe('0.3');
  });
  it('reads minimums', () => {
    expect(minimumAmount(schedule, 'withdraw').toFixed()).toBe('10');
    expect(minimumAmount(schedule, 'deposit').toFixed()).toBe('1');
  });
});
