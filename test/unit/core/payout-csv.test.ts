// The payout CSV reader: BOM, CRLF and quoted fields are read; the header is checked (any order, case-insensitive,
// userOrder optional); line numbers count payouts from 1 under the header; per-line problems of
// form (a userOrder out of PROTOCOL §8, a memo with a control character) are reported by line; an unreadable file is
// refused whole naming the file line.
import { describe, expect, it } from 'vitest';
import { PAYOUT_MAX_LINES, readPayoutCsv } from '../../../electron/core/payouts/csv';

describe('readPayoutCsv', () => {
  it('reads a spreadsheet CSV: BOM, CRLF, quoted fields with commas and quotes; a memo over two lines is a problem of its line', () => {
    const text = '\uFEFFAmount,currency,toAddress,memo\r\n 12.50 ,trx.usdt,TAddr1,"rent, ""May"""\r\n3,trx,TAddr2,"two\r\nlines"\r\n\r\n';
    const reading = readPayoutCsv(text);
    if (!reading.ok) throw new Error(reading.reason);
    expect(reading.rows).toEqual([
      { line: 1, currency: 'trx.usdt', amount: '12.50', toAddress: 'TAddr1', memo: 'rent, "May"', userOrder: null },
      { line: 2, currency: 'trx', amount: '3', toAddress: 'TAddr2', memo: 'two\r\nlines', userOrder: null },
    ]);
    expect(reading.problems).toEqual([{ line: 2, field: 'memo', message: expect.stringMatching(/U\+000D \(carriage return\)/) }]);
  });

  it('reports a bad userOrder and an unsafe memo by line, and keeps reading', () => {
    const text = 'currency,amount,toAddress,memo,userOrder\ntrx,1,T1,,ok_1\ntrx,1,T2,,has space\ntrx,1,T3,\u202Egnp.exe,\n';
    const reading = readPayoutCsv(text);
    if (!reading.ok) throw new Error(reading.reason);
    expect(reading.rows.map((row) => row.userOrder)).toEqual(['ok_1', 'has space', null]);
    expect(reading.problems.map((problem) => [problem.line, problem.field])).toEqual([
      [2, 'userOrder'],
      [3, 'memo'],
    ]);
  });

  it('refuses a file whose header is wrong, empty, or whose record is malformed, naming the file line', () => {
    expect(readPayoutCsv('')).toMatchObject({ ok: false, reason: expect.stringMatching(/empty/) });
    expect(readPayoutCsv('currency,amount,toAddress\n')).toMatchObject({ ok: false, reason: expect.stringMatching(/lacks the column memo/) });
    expect(readPayoutCsv('currency,amount,toAddress,memo,memo\n')).toMatchObject({ ok: false, reason: expect.stringMatching(/memo twice/) });
    expect(readPayoutCsv('currency,amount,toAddress,memo\n')).toMatchObject({ ok: false, reason: expect.stringMatching(/no payouts/) });
    expect(readPayoutCsv('currency,amount,toAddress,memo\ntrx,1,T,m\ntrx,1,T\n')).toMatchObject({ ok: false, reason: expect.stringMatching(/not readable CSV at file line 3/) });
    expect(readPayoutCsv('currency,amount,toAddress,memo\ntrx,1,"T,m\n')).toMatchObject({ ok: false, reason: expect.stringMatching(/not readable CSV/) });
  });

  it('refuses more payouts than a batch holds', () => {
    const text = `currency,amount,toAddress,memo\n${'trx,1,T,\n'.repeat(PAYOUT_MAX_LINES + 1)}`;
    expect(readPayoutCsv(text)).toMatchObject({ ok: false, reason: expect.stringMatching(/at most 5000/) });
  });
});
