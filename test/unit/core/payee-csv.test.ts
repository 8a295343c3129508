// The payee CSV reader (address-book/payee-csv.ts) on text: grouping by name in any letter case, the note given once,
// and the whole-file refusals shared with batch payouts (header, unreadable CSV, too many lines), plus look-alike names
// inside one file and against the desk's payees, each bad line named and no payee returned.
import { describe, expect, it } from 'vitest';
import { PAYEE_MAX_LINES, readPayeeCsv } from '../../../electron/core/address-book/payee-csv';

const TRX = ['TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8'];
const ETH = '0xa32fa9dc539dcb3469adc96e963ea1f0932a4bb0';
const desk = { names: ['ACME GmbH'], booked: (): boolean => false };

describe('readPayeeCsv', () => {
  it('groups the lines of one payee by name in any letter case, with its note given once, columns in any order', () => {
    const reading = readPayeeCsv(`\uFEFFChain,Address,Name,Note\r\ntrx,${TRX[0]},Payroll,monthly\r\neth,${ETH},PAYROLL,\r\ntrx,${TRX[1]},Bob,\r\n`, desk);
    if (!reading.ok) expect.fail(JSON.stringify(reading));
    expect(reading.payees.map((payee) => [payee.name, payee.note, payee.addresses])).toEqual([
      ['Payroll', 'monthly', [{ chain: 'trx', address: TRX[0] }, { chain: 'eth', address: ETH }]],
      ['Bob', '', [{ chain: 'trx', address: TRX[1] }]],
    ]);
    expect(new Set(reading.payees.map((payee) => payee.id)).size).toBe(2);
  });

  it('refuses the whole file for a bad header, unreadable CSV or too many lines, saying what to do', () => {
    expect(readPayeeCsv(`name,chain,address\ntrx,${TRX[0]},x\n`, desk)).toMatchObject({ ok: false, reason: expect.stringMatching(/the header lacks the column note: the first line must name the columns name, note, chain, address/) });
    expect(readPayeeCsv(`name,note,chain,address\n"Bob,,trx,${TRX[0]}\n`, desk)).toMatchObject({ ok: false, reason: expect.stringMatching(/not readable CSV.*save it again as CSV/) });
    const many = `name,note,chain,address\n${Array.from({ length: PAYEE_MAX_LINES + 1 }, (_, index) => `P${index},,trx,${TRX[0]}`).join('\n')}\n`;
    expect(readPayeeCsv(many, desk)).toMatchObject({ ok: false, reason: expect.stringMatching(/5001 address lines; an import holds at most 5000: split it/) });
    expect(readPayeeCsv('name,note,chain,address\n', desk)).toMatchObject({ ok: false, reason: expect.stringMatching(/a header but no payees/) });
  });

  it('names every bad line: a look-alike of a desk payee or of an earlier name, two notes for one payee, an empty name, a booked address', () => {
    const booked = { names: ['ACME GmbH'], booked: (chain: string): boolean => chain === 'eth' };
    const text = ['name,note,chain,address', `\u0410CME GmbH,,trx,${TRX[0]}`, `Paypal,a,trx,${TRX[1]}`, `Paypa1,,trx,${TRX[0]}`, `Paypal,b,trx,${TRX[0]}`, `,,trx,${TRX[0]}`, `Zed,,eth,${ETH}`].join('\n');
    const reading = readPayeeCsv(text, booked);
    if (reading.ok || !('problems' in reading)) expect.fail(JSON.stringify(reading));
    expect(reading.problems.map((problem) => problem.line)).toEqual([1, 3, 4, 5, 6]);
    expect(reading.problems[0]?.message).toMatch(/looks like the payee "ACME GmbH"/);
    expect(reading.problems[1]?.message).toMatch(/looks like the payee "Paypal"/);
    expect(reading.problems[2]?.message).toMatch(/the note differs/);
    expect(reading.problems[3]?.message).toMatch(/the payee name is empty/);
    expect(reading.problems[4]?.message).toMatch(/already in the address book/);
  });
});
