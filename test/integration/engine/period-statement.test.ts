// Period statements against the real sandbox seeded with the demo history (issue 13): a period the test drives between
// two syncs (deposits with fees, withdrawals that succeed, are refunded or fail, to the 18th decimal) gives, per
// currency, opening + deposits - withdrawals - fees + refunds = closing exactly, with the closing balance the sandbox's
// own ledger holds; a balance changed behind the desk's back shows as that exact unexplained difference. The CSV holds
// the same figures and the audit head; the HTML prints to a PDF whose text holds the totals and the fingerprint, saved
// (and recorded in the audit log) by the engine, which refuses anything but a PDF.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains/amounts';
import { groupAmount, type PeriodStatement, type PeriodStatementCurrency } from '../../../electron/contract';
import { printHtmlWithChromium } from '../../harness/chromium';
import { APPROVER, INITIATOR, openDesk, tronAddress, type Desk } from './support';

let desk: Desk;
let merchantId: string;
let periodStart: number;
let periodEnd: number;
let statement: PeriodStatement;
const transfers: Record<string, { amount: Money; fee: Money; count: number }> = {};
const orders: Record<string, { id: string; amount: string }[]> = {};

async function transfer(toAddress: string, currency: string, amount: string): Promise<void> {
  const answer = await desk.admin<{ credited: boolean; deposit: { amount: string; fee: string } }>('POST', '/transfers', { toAddress, currency, amount });
  expect(answer.json.credited).toBe(true);
  const sum = (transfers[currency] ??= { amount: new Money(0), fee: new Money(0), count: 0 });
  sum.amount = sum.amount.plus(answer.json.deposit.amount);
  sum.fee = sum.fee.plus(answer.json.deposit.fee);
  sum.count += 1;
}

/** A withdrawal through the desk (request, approve, submit), then moved by the sandbox's admin to `outcome`. */
async function withdraw(currency: string, amount: string, toAddress: string, outcome: string[]): Promise<void> {
  const { withdrawal } = await desk.value('withdrawals/request', { currency, amount, toAddress, as: INITIATOR });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
  expect((await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR })).state).toBe('submitted');
  for (const to of outcome) expect((await desk.admin('POST', `/withdrawals/${merchantId}/${withdrawal.userOrder}/advance`, { to })).status).toBe(200);
  (orders[currency] ??= []).push({ id: withdrawal.id, amount });
}

async function sandboxBalances(): Promise<Map<string, string>> {
  const view = await desk.admin<{ balances: { currency: string; available: string }[] }>('GET', `/merchants/${merchantId}`);
  return new Map(view.json.balances.map((balance) => [balance.currency, balance.available]));
}

function of(currency: string, from: PeriodStatement = statement): PeriodStatementCurrency {
  const found = from.currencies.find((entry) => entry.currency === currency);
  if (found === undefined) throw new Error(`no ${currency} in the statement`);
  return found;
}

/** opening + deposits - withdrawals - fees + refunds, recomputed from the statement's own figures. */
function expectedClosing(currency: PeriodStatementCurrency): Money {
  return new Money(currency.opening?.available ?? '0')
    .plus(currency.deposits.amount)
    .minus(currency.withdrawals.amount)
    .minus(currency.withdrawalFees)
    .plus(currency.refunds.amount);
}

beforeAll(async () => {
  desk = await openDesk({ sandbox: { seed: 'demo' } });
  merchantId = desk.sandbox.credentials.merchantId;
  // The opening reading: the seeded history (hundreds of deposits and orders) is all in it. A sync reads the balances
  // first and the history after, so the first sync stores the seeded deposits after its reading; the next one reads the
  // same balances again, which shows they were in it (as the desk's background sync would).
  await desk.value('sync/run', {});
  await desk.value('sync/run', {});
  periodStart = Date.now();
  const tron = (await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR })).address;
  const evm = (await desk.value('addresses/create', { addressType: 'eth_bnb', as: INITIATOR })).address;
  await transfer(tron, 'trx.usdt', '1234.567891');
  await transfer(tron, 'trx.usdt', '20.000001');
  await transfer(evm, 'bnb.usdt', '15.123456789012345678');
  await withdraw('trx.usdt', '100.000001', tronAddress(), ['pendingTransfer', 'pendingCallback', 'success']);
  await withdraw('trx.usdt', '250.5', tronAddress(), ['WithdrawRefund']);
  await withdraw('bnb.usdt', '5.000000000000000007', `0x${'ab'.repeat(20)}`, ['fail']);
  // The closing reading, and the orders' outcomes.
  await desk.value('sync/run', {});
  periodEnd = Date.now() + 1;
  statement = await desk.value('statements/build', { from: periodStart, to: periodEnd, timeZone: 'Europe/Berlin' });
}, 120_000);
afterAll(async () => desk?.close());

describe('a period statement of the seeded sandbox', () => {
  it('balances every currency to the last decimal: opening + movements = closing, the closing the sandbox holds', async () => {
    // The sandbox's own books hold: its seeded history and the period's traffic conserve every currency.
    expect(desk.sandbox.checkInvariant(merchantId)).toMatchObject({ ok: true, violations: [] });
    const ledger = await sandboxBalances();
    const read = statement.currencies.filter((currency) => currency.opening !== null);
    expect(read.length).toBeGreaterThanOrEqual(10);
    for (const currency of read) {
      expect({ currency: currency.currency, unexplained: currency.unexplained }).toEqual({ currency: currency.currency, unexplained: '0' });
      expect(expectedClosing(currency).equals(currency.closing?.available ?? 'NaN')).toBe(true);
      expect(currency.closing?.available).toBe(ledger.get(currency.currency));
      expect(currency.startsLate).toBe(false);
    }
    expect(statement.timeZone).toBe('Europe/Berlin');
    // The seed leaves no order open, so nothing is unexplained.
    expect(statement.findings.filter((finding) => !finding.explained)).toEqual([]);
    expect(statement.unexplainedFindings).toBe(0);
  });

  it('shows the deposits the sandbox credited, the withdrawals and their fees, and what refunded and failed orders returned', async () => {
    const trxUsdt = of('trx.usdt');
    expect(trxUsdt.deposits).toEqual({ count: 2, amount: transfers['trx.usdt']?.amount.toFixed() });
    expect(trxUsdt.depositFees).toBe(transfers['trx.usdt']?.fee.toFixed());
    expect(trxUsdt.withdrawals).toEqual({ count: 2, amount: '350.500001' });
    const fees = await Promise.all((orders['trx.usdt'] ?? []).map(async (order) => (await desk.value('withdrawals/get', { id: order.id })).fee ?? 'none'));
    expect(trxUsdt.withdrawalFees).toBe(fees.reduce((sum, fee) => sum.plus(fee), new Money(0)).toFixed());
    expect(trxUsdt.refunds).toEqual({ count: 1, amount: new Money('250.5').plus(fees[1] ?? 'NaN').toFixed() });

    const bnbUsdt = of('bnb.usdt');
    expect(bnbUsdt.deposits).toEqual({ count: 1, amount: transfers['bnb.usdt']?.amount.toFixed() });
    expect(bnbUsdt.withdrawals).toEqual({ count: 1, amount: '5.000000000000000007' });
    expect(bnbUsdt.refunds.amount).toBe(new Money('5.000000000000000007').plus(bnbUsdt.withdrawalFees).toFixed());
    // A currency nothing moved in opens and closes the same.
    const ton = of('ton');
    expect([ton.deposits.count, ton.withdrawals.count, ton.refunds.count]).toEqual([0, 0, 0]);
    expect(ton.closing?.available).toBe(ton.opening?.available);
    expect(statement.findings.filter((finding) => finding.kind === 'refund' || finding.kind === 'failedOrder')).toHaveLength(2);
  });

  it('ends with the audit head it was made under', async () => {
    const { head } = await desk.value('audit/head', {});
    expect(head).not.toBeNull();
    expect(statement.auditHead).toEqual(head);
  });

  it('writes the same figures as CSV, times in the zone with their offset, the audit head last', async () => {
    const path = join(desk.dir, 'statement.csv');
    const written = await desk.value('statements/exportCsv', { from: periodStart, to: periodEnd, timeZone: 'Europe/Berlin', path });
    expect(written).toMatchObject({ currencies: statement.currencies.length, path });
    expect(written.statement.currencies).toEqual(statement.currencies);
    const lines = readFileSync(path, 'utf8').trimEnd().split('\r\n');
    const header = (lines[0] ?? '').split(',');
    const cell = (line: string, column: string): string | undefined => line.split(',')[header.indexOf(column)];
    const trx = lines.find((line) => line.startsWith('balance,trx.usdt,')) ?? '';
    expect(cell(trx, 'deposits')).toBe(of('trx.usdt').deposits.amount);
    expect(cell(trx, 'withdrawal_fees')).toBe(of('trx.usdt').withdrawalFees);
    expect(cell(trx, 'closing_available')).toBe(of('trx.usdt').closing?.available);
    expect(cell(trx, 'unexplained_difference')).toBe('0');
    expect(cell(trx, 'opening_at')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0[12]:00$/);
    expect(lines.at(-1)).toContain(`fingerprint ${statement.auditHead?.fingerprint}`);
  });

  it('prints to a PDF that renders, and whose text holds the totals and the audit fingerprint', async () => {
    const { html, statement: printed } = await desk.value('statements/html', { from: periodStart, to: periodEnd, timeZone: 'Europe/Berlin' });
    // The export above is in the audit log since: the page carries the head it was made under.
    expect(printed.auditHead).toEqual((await desk.value('audit/head', {})).head);
    expect(html).not.toMatch(/<script|https?:\/\//i);
    const pdfPath = join(desk.dir, 'statement.pdf');
    const pdf = Buffer.from(await printHtmlWithChromium(html));
    const period = { from: periodStart, to: periodEnd, timeZone: 'Europe/Berlin' };
    expect(await desk.value('statements/savePdf', { ...period, path: pdfPath, pdf: pdf.toString('base64') })).toEqual({ bytes: pdf.length, path: pdfPath });
    expect(readFileSync(pdfPath).equals(pdf)).toBe(true);
    const [exported] = (await desk.value('audit/list', { limit: 1 })).rows;
    expect(exported).toMatchObject({ action: 'statements/export', subject: pdfPath, details: { ...period, format: 'pdf', bytes: pdf.length } });
    // Anything but a PDF is refused, and nothing is written.
    const notPdf = join(desk.dir, 'not.pdf');
    const refused = await desk.call('statements/savePdf', { ...period, path: notPdf, pdf: Buffer.from('<html>').toString('base64') });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalidInput', message: 'the statement to save is not a PDF: print it again from the statement' } });
    expect(existsSync(notPdf)).toBe(false);
    execFileSync('pdftoppm', ['-png', '-r', '40', '-f', '1', '-l', '1', pdfPath, join(desk.dir, 'page')]);
    expect(readFileSync(join(desk.dir, 'page-1.png')).subarray(1, 4).toString('latin1')).toBe('PNG');
    const text = execFileSync('pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    const trx = of('trx.usdt');
    for (const figure of [trx.opening?.available, trx.deposits.amount, trx.withdrawals.amount, trx.withdrawalFees, trx.refunds.amount, trx.closing?.available]) {
      expect(text).toContain(groupAmount(figure ?? 'missing', 'en-US'));
    }
    expect(text).toContain(groupAmount(of('bnb.usdt').deposits.amount, 'en-US'));
    expect(text).toMatch(new RegExp(`fingerprint ${printed.auditHead?.fingerprint ?? 'no head'}\\s+Page \\d+ of \\d+\\s*$`));
    expect(text).toMatch(/Page 1 of \d+/);
  }, 60_000);

  it('shows a balance changed behind the desk’s back as that exact unexplained difference', async () => {
    const from = Date.now();
    const before = (await sandboxBalances()).get('ton') ?? 'NaN';
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { ton: new Money(before).plus('0.000000001').toFixed() } })).status).toBe(200);
    await desk.value('sync/run', {});
    const later = await desk.value('statements/build', { from, to: Date.now() + 1 });
    expect(of('ton', later).unexplained).toBe('0.000000001');
    expect(later.findings.filter((finding) => finding.kind === 'unexplainedBalanceChange').map((finding) => [finding.currency, finding.amount])).toEqual([['ton', '0.000000001']]);
    expect(of('trx.usdt', later).unexplained).toBe('0');
  });

  it('refuses a period that does not start before it ends, saying so', async () => {
    const refused = await desk.call('statements/build', { from: periodEnd, to: periodStart });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalidInput', message: expect.stringContaining('the period must start before it ends') } });
    const badZone = await desk.call('statements/build', { from: periodStart, to: periodEnd, timeZone: '+01:00' });
    expect(badZone).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
  });
});
