// Amount syntax and precision per currency (PROTOCOL §9.1, §9.2), exact to the last decimal.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAmount, CURRENCIES, formatForCurrency, formatMoney, Money, parseMoney, WITHDRAWAL_CURRENCIES } from '../../../electron/chains';

describe('checkAmount', () => {
  it.each([
    ['trx', '1', '1'],
    ['trx', '0.000001', '0.000001'],
    ['eth', '0.000000000000000001', '1e-18'],
    ['bnb.usdt', '123456789012345678.123456789012345678', '123456789012345678.123456789012345678'],
  ] as const)('%s accepts %s', (symbol, text, expected) => {
    const check = checkAmount(symbol, text);
    expect(check.ok).toBe(true);
    if (check.ok) expect(check.value.equals(new Money(expected))).toBe(true);
  });

  it.each([
    ['trx', '-1', 'syntax'],
    ['trx', '+1', 'syntax'],
    ['trx', '1e3', 'syntax'],
    ['trx', ' 1', 'syntax'],
    ['trx', '1,5', 'syntax'],
    ['trx', '.5', 'syntax'],
    ['trx', '5.', 'syntax'],
    ['trx', '', 'syntax'],
    ['trx', '0', 'zero'],
    ['trx', '0.000000', 'zero'],
    ['trx', '0.0000001', 'tooManyDecimals'],
    ['eth.usdt', '1.1234567', 'tooManyDecimals'],
    ['solana', '1.1234567891', 'tooManyDecimals'],
  ] as const)('%s refuses %j as %s', (symbol, text, problem) => {
    const check = checkAmount(symbol, text);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problem).toBe(problem);
  });

  it('names spaces for where they are, so the rule agrees with a CSV reader that trims cells (issue 23, item 10)', () => {
    const reason = (text: string): string => {
      const check = checkAmount('trx', text);
      if (check.ok) throw new Error(`${text} was accepted`);
      return check.reason;
    };
    expect(reason(' 1')).toBe('has spaces at the start or end: write the amount without them, e.g. 125.50');
    expect(reason('1 000')).toMatch(/^has spaces inside the amount/);
    expect(reason('1,5')).toMatch(/no sign, commas, exponent or spaces/);
  });

  it('keeps every digit of any amount within the currency precision (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...WITHDRAWAL_CURRENCIES),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        (symbol, units) => {
          const decimals = CURRENCIES[symbol].decimals;
          const digits = units.toString().padStart(decimals + 1, '0');
          const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
          const check = checkAmount(symbol, text);
          expect(check.ok).toBe(true);
          if (check.ok) expect(formatForCurrency(check.value, symbol)).toBe(text);
        },
      ),
    );
  });
});

describe('money formatting', () => {
  it('never uses exponent notation and never loses digits', () => {
    expect(formatMoney(parseMoney('0.000000000000000001'))).toBe('0.000000000000000001');
    expect(formatMoney(parseMoney('100000000000000000000000000000'))).toBe('100000000000000000000000000000');
    expect(formatMoney(parseMoney('0.1').plus(parseMoney('0.2')))).toBe('0.3');
  });

  it('refuses non-decimal strings from the cache or the wire', () => {
    expect(() => parseMoney('1e5')).toThrow(/not a decimal amount/);
    expect(() => parseMoney('NaN')).toThrow(/not a decimal amount/);
  });
});
