// The accounting exports' pure parts (issue 22 item 5): the account mapping refused whole with every bad line named by
// its file line, journals per currency and day of the reporting zone with fees on lines of their own, each balancing
// to the last decimal, and both files checked against the columns Xero and QuickBooks Online publish.
import { describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains/amounts';
import { parseMonth, typedTimeToMs } from '../../../electron/cli/args';
import { DeskError } from '../../../electron/core/kernel/errors';
import { IMPORT_FORMATS } from '../../../electron/core/reports/accounting-formats';
import { buildJournals, journalsCsv, type JournalRecord } from '../../../electron/core/reports/accounting-journal';
import { parseAccountMapping } from '../../../electron/core/reports/accounting-mapping';
import { checkImportFile } from '../../support/accounting-import';

const MAPPING = ['kind,key,account', 'currency,trx.usdt,1210', 'currency,bnb.usdt,1220', 'label,payroll,Wages', 'clearing,,1290', 'fees,,6120', 'taxrate,,No VAT', ''].join('\n');
const HEAD = { seq: 42, fingerprint: 'ABCD-EFGH-JKMN-PQRS' };

function refusal(source: string): string {
  try {
    parseAccountMapping(source);
  } catch (error) {
    expect(error).toBeInstanceOf(DeskError);
    return (error as DeskError).message;
  }
  throw new Error('the mapping was accepted');
}

const deposit = (at: string, amount: string, fee: string, ref: string, label: string | null = null, currency = 'trx.usdt'): JournalRecord => ({ kind: 'deposit', at: Date.parse(at), currency, amount, fee, ref, label });
const withdrawal = (at: string, amount: string, fee: string, ref: string, label: string | null = null, currency = 'trx.usdt'): JournalRecord => ({ kind: 'withdrawal', at: Date.parse(at), currency, amount, fee, ref, label });

describe('the account mapping', () => {
  it('reads currencies, labels (letter case aside), the clearing and fees accounts and the Xero tax rate', () => {
    const mapping = parseAccountMapping(MAPPING);
    expect([...mapping.currencies]).toEqual([['trx.usdt', '1210'], ['bnb.usdt', '1220']]);
    expect([...mapping.labels]).toEqual([['payroll', 'Wages']]);
    expect([mapping.clearing, mapping.fees, mapping.xeroTaxRate]).toEqual(['1290', '6120', 'No VAT']);
    expect(parseAccountMapping('kind,key,account\r\nclearing,,Clearing\r\nfees,,Fees\r\nLABEL,Payroll,Wages:Crypto\r\n').labels.get('payroll')).toBe('Wages:Crypto');
  });

  it('names every bad line with its file line number, and refuses the whole mapping', () => {
    const message = refusal(
      [
        'kind,key,account',
        'currency,trx.usdt,1210',
        'bank,trx.usdt,1210', // line 3: unknown kind
        'currency,,1220', // line 4: no currency
        'label,payroll,', // line 5: no account
        'currency,trx.usdt,1299', // line 6: repeats line 2
        'fees,x,6120', // line 7: a key where none goes
        'clearing,,1290,extra', // line 8: four cells
        'clearing,,1290',
        'fees,,6120',
      ].join('\n'),
    );
    expect(message).toMatch(/^the account mapping is not usable, nothing was exported: /);
    expect(message).toContain('line 3: the kind "bank" is not one of currency, label, clearing, fees, taxrate');
    expect(message).toContain('line 4: the currency is empty');
    expect(message).toContain('line 5: the account is empty');
    expect(message).toContain('line 6: repeats the currency trx.usdt of line 2: keep one');
    expect(message).toContain('line 7: the fees line takes no key: leave the key empty');
    expect(message).toContain('line 8: has 4 cells, expected 3 (kind,key,account)');
    expect(message).not.toMatch(/(: |; )line (2|9|10):/);
  });

  it('needs the header, a clearing and a fees account, and refuses control characters', () => {
    expect(refusal('currency,trx.usdt,1210\nclearing,,1\nfees,,2')).toContain('line 1: the header must be "kind,key,account"');
    expect(refusal('kind,key,account\nfees,,6120')).toContain('no clearing account: add a line "clearing,,<account>"');
    expect(refusal('kind,key,account\nclearing,,1290')).toContain('no fees account: add a line "fees,,<account>"');
    expect(refusal('kind,key,account\nclearing,,12\u202e90\nfees,,6120')).toMatch(/line 2: the account/);
    expect(refusal('')).toContain('the file is empty');
  });
});

describe('the journals', () => {
  const mapping = parseAccountMapping(MAPPING);

  it('puts fees on lines of their own, the label account against the asset, and balances each journal to the last decimal', () => {
    const journals = buildJournals(
      [
        deposit('2026-10-05T09:00:00Z', '69.500007', '0.5', 'D1'),
        withdrawal('2026-10-05T10:00:00Z', '100.000001', '1.000003', 'W1', 'Payroll'),
        deposit('2026-10-05T11:00:00Z', '15.123456789012345678', '0.000000000000000001', 'D2', null, 'bnb.usdt'),
      ],
      mapping,
      'UTC',
    );
    expect(journals.map((journal) => journal.currency)).toEqual(['bnb.usdt', 'trx.usdt']);
    const trx = journals[1];
    expect(trx?.lines.map((line) => [line.account, line.amount.toFixed()])).toEqual([
      ['1210', '69.500007'],
      ['6120', '0.5'],
      ['1290', '-70.000007'],
      ['Wages', '100.000001'],
      ['1210', '-100.000001'],
      ['6120', '1.000003'],
      ['1210', '-1.000003'],
    ]);
    for (const journal of journals) expect(journal.lines.reduce((sum, line) => sum.plus(line.amount), new Money(0)).isZero()).toBe(true);
  });

  it('refuses a period whose records hold a currency the mapping has no account for (nothing exported)', () => {
    expect(() => buildJournals([deposit('2026-10-05T09:00:00Z', '1', '0', 'D1', null, 'ton')], mapping, 'UTC')).toThrow(/no account for ton, which has records in the period; nothing was exported: add "currency,ton,<account>"/);
  });

  it('reads --period 2026-10 in Pacific/Auckland as its midnights, and dates each journal by that zone\'s calendar', () => {
    const month = parseMonth('2026-10', '--period');
    // New Zealand daylight time (+13:00) began on 27 September 2026.
    expect(new Date(typedTimeToMs(month.from, 'Pacific/Auckland')).toISOString()).toBe('2026-09-30T11:00:00.000Z');
    expect(new Date(typedTimeToMs(month.to, 'Pacific/Auckland')).toISOString()).toBe('2026-10-31T11:00:00.000Z');
    expect(new Date(typedTimeToMs(parseMonth('2026-12', '--period').to, 'UTC')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(() => parseMonth('2026-13', '--period')).toThrow(/--period must be a calendar month such as 2026-10/);

    const records = [deposit('2026-09-30T11:00:00Z', '1', '0', 'first'), deposit('2026-10-31T10:59:59Z', '2', '0', 'last')];
    const inAuckland = checkImportFile('xero', journalsCsv('xero', buildJournals(records, mapping, 'Pacific/Auckland'), mapping, HEAD));
    expect([...new Set(inAuckland.lines.map((line) => line.date))]).toEqual(['01/10/2026', '31/10/2026']);
    const inUtc = checkImportFile('xero', journalsCsv('xero', buildJournals(records, mapping, 'UTC'), mapping, HEAD));
    expect([...new Set(inUtc.lines.map((line) => line.date))]).toEqual(['30/09/2026', '31/10/2026']);
  });
});

describe('the files', () => {
  const mapping = parseAccountMapping(MAPPING);
  const journals = buildJournals(
    [deposit('2026-10-05T09:00:00Z', '69.500007', '0.5', 'D1'), withdrawal('2026-10-06T10:00:00Z', '12.5', '1', 'W1', 'payroll')],
    mapping,
    'UTC',
  );

  it('writes Xero\'s manual journal columns, signed amounts, the tax rate and the audit head in each narration', () => {
    const file = journalsCsv('xero', journals, mapping, HEAD);
    const checked = checkImportFile('xero', file);
    expect(checked.header).toEqual(IMPORT_FORMATS.xero.columns.map((column) => column.header));
    expect(file.split('\r\n')[1]).toBe('"Treasury desk trx.usdt 2026-10-05, audit head 42 ABCD-EFGH-JKMN-PQRS",05/10/2026,"Deposit 69.500007 trx.usdt credited, apiOrder D1",1210,No VAT,69.500007,,,,');
    expect(checked.journals.size).toBe(2);
    expect(checked.lines.filter((line) => line.account === '6120').map((line) => line.amount.toFixed())).toEqual(['0.5', '1']);
  });

  it('writes QuickBooks Online\'s journal entry columns, debits and credits apart, one journal number per journal', () => {
    const file = journalsCsv('quickbooks', journals, mapping, HEAD);
    const checked = checkImportFile('quickbooks', file);
    expect(checked.header).toEqual(['Journal No.', 'Journal Date', 'Account Name', 'Description', 'Debits', 'Credits', 'Name']);
    expect([...checked.journals.keys()]).toEqual(['TD20261005-1', 'TD20261006-2']);
    expect(file.split('\r\n')[1]).toBe('TD20261005-1,10/05/2026,1210,"Deposit 69.500007 trx.usdt credited, apiOrder D1; audit head 42 ABCD-EFGH-JKMN-PQRS",69.500007,,');
    expect(checked.lines.find((line) => line.account === 'Wages')?.amount.toFixed()).toBe('12.5');
  });

  it('refuses a Xero file over the 300 lines Xero imports at once', () => {
    const many = Array.from({ length: 101 }, (_, index) => deposit('2026-10-05T09:00:00Z', '1', '0.1', `D${index}`));
    expect(() => journalsCsv('xero', buildJournals(many, mapping, 'UTC'), mapping, HEAD)).toThrow(/303 journal lines; a Xero manual journal import file holds at most 300: export a shorter period/);
    expect(checkImportFile('quickbooks', journalsCsv('quickbooks', buildJournals(many, mapping, 'UTC'), mapping, HEAD)).lines).toHaveLength(303);
  });

  it('the checker itself catches an unbalanced journal, a wrong date and a missing required cell', () => {
    const file = journalsCsv('xero', journals, mapping, HEAD);
    expect(() => checkImportFile('xero', file.replace(',69.500007,', ',69.500008,'))).toThrow(/does not balance: debits 70.000008, credits 70.000007/);
    expect(() => checkImportFile('xero', file.replace('05/10/2026', '2026-10-05'))).toThrow(/is not dd\/mm\/yyyy/);
    expect(() => checkImportFile('xero', file.replace(',No VAT,', ',,'))).toThrow(/required \*TaxRate is empty/);
  });
});
