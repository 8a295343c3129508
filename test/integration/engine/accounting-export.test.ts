// accounting/export on a real desk (SQLite file, keychain, the sandbox on loopback): deposits credited with their fees
// and orders final with success (a refunded one left out) become Xero and QuickBooks Online files that pass the
// published column checks, balance per journal to the last decimal, carry fees on lines of their own, date each
// journal in the period's zone and name the audit head; the period's end excludes what came after it; a bad mapping
// or an unmapped currency writes nothing and says what to do; each export is recorded in the audit log.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Money } from '../../../electron/chains/amounts';
import { isoInZone, type DepositView } from '../../../electron/contract';
import { checkImportFile } from '../../support/accounting-import';
import { APPROVER, INITIATOR, openDesk, tronAddress, type Desk } from './support';

const ZONE = 'Pacific/Kiritimati'; // +14:00: its calendar day differs from UTC's for most of the day
const MAPPING = ['kind,key,account', 'currency,trx.usdt,1210 Tron USDT', 'label,payroll,Wages', 'clearing,,1290 Clearing', 'fees,,6120 Bank fees', ''].join('\n');

let desk: Desk;
let from: number;
let boundary: number;
let to: number;
let early: DepositView;
let late: DepositView;
let paid: { userOrder: string; fee: string };

async function deposit(toAddress: string, amount: string): Promise<DepositView> {
  const transfer = await desk.admin<{ credited: boolean; deposit: { apiOrder: string } }>('POST', '/transfers', { toAddress, currency: 'trx.usdt', amount });
  expect(transfer.json.credited).toBe(true);
  await desk.value('sync/run', {});
  const found = (await desk.value('deposits/list', { search: transfer.json.deposit.apiOrder })).rows[0];
  if (found === undefined) throw new Error('the deposit was not synced');
  return found;
}

async function withdraw(amount: string, outcome: string[]): Promise<{ userOrder: string; fee: string }> {
  const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount, toAddress: tronAddress(), as: INITIATOR });
  await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
  expect((await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR })).state).toBe('submitted');
  for (const step of outcome) expect((await desk.admin('POST', `/withdrawals/${desk.sandbox.credentials.merchantId}/${withdrawal.userOrder}/advance`, { to: step })).status).toBe(200);
  await desk.value('sync/run', {});
  const final = await desk.value('withdrawals/get', { id: withdrawal.id });
  expect(final.orderStatus).toBe(outcome.at(-1));
  return { userOrder: withdrawal.userOrder, fee: final.fee ?? 'none' };
}

beforeAll(async () => {
  desk = await openDesk();
  expect((await desk.admin('PATCH', `/merchants/${desk.sandbox.credentials.merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  from = Date.now();
  const address = (await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR })).address;
  early = await deposit(address, '70.000007');
  paid = await withdraw('100.000001', ['pendingTransfer', 'pendingCallback', 'success']);
  await desk.value('labels/set', { type: 'withdrawal', ref: paid.userOrder, label: 'Payroll', as: INITIATOR });
  await withdraw('250.5', ['WithdrawRefund']);
  boundary = Date.now() + 1;
  late = await deposit(address, '5');
  to = Date.now() + 1;
  // The boundary falls between the records, as the test needs.
  expect(early.firstSeenAt).toBeLessThan(boundary);
  expect(late.firstSeenAt).toBeGreaterThanOrEqual(boundary);
}, 120_000);
afterAll(async () => desk?.close());

describe('accounting/export', () => {
  it('writes a Xero manual journal file of the period: published columns, balanced journals, fees apart, dates in the zone', async () => {
    const path = join(desk.dir, 'xero.csv');
    // The file names the head the records rest on: the one before the export's own audit row.
    const head = (await desk.value('audit/head', {})).head;
    const answer = await desk.value('accounting/export', { format: 'xero', from, to: boundary, timeZone: ZONE, mapping: MAPPING, path });
    expect(answer).toMatchObject({ path, format: 'xero', records: 2, timeZone: ZONE, auditHead: { seq: head?.seq, fingerprint: head?.fingerprint } });
    const checked = checkImportFile('xero', readFileSync(path, 'utf8'));
    expect(checked.lines).toHaveLength(answer.lines);
    expect(checked.journals.size).toBe(answer.journals);
    // The deposit: 69.500007 credited (the sandbox keeps 0.5), its fee on its own line, 70.000007 received.
    expect(checked.lines.filter((line) => line.description.includes(early.apiOrder)).map((line) => [line.account, line.amount.toFixed()])).toEqual([
      ['1210 Tron USDT', early.amount],
      ['6120 Bank fees', early.fee],
      ['1290 Clearing', `-${new Money(early.amount).plus(early.fee).toFixed()}`],
    ]);
    expect(early.fee).toBe('0.5');
    // The order paid with success, its label's account against the asset, the fee on lines of its own.
    expect(checked.lines.filter((line) => line.description.includes(paid.userOrder)).map((line) => [line.account, line.amount.toFixed()])).toEqual([
      ['Wages', '100.000001'],
      ['1210 Tron USDT', '-100.000001'],
      ['6120 Bank fees', paid.fee],
      ['1210 Tron USDT', `-${paid.fee}`],
    ]);
    // Neither the refunded order nor the deposit after the period's end is in it.
    expect(checked.lines.some((line) => line.description.includes(late.apiOrder) || line.description.includes('250.5'))).toBe(false);
    const day = isoInZone(early.firstSeenAt, ZONE).slice(0, 10).split('-');
    expect(checked.lines[0]?.date).toBe(`${day[2]}/${day[1]}/${day[0]}`);
    for (const journal of checked.journals.keys()) expect(journal).toContain(`audit head ${head?.seq ?? 0} ${head?.fingerprint ?? 'none'}`);
  });

  it('writes the same records for QuickBooks Online, debits and credits apart, and takes the later deposit when the period does', async () => {
    const path = join(desk.dir, 'quickbooks.csv');
    const answer = await desk.value('accounting/export', { format: 'quickbooks', from, to, timeZone: ZONE, mapping: MAPPING, path });
    expect(answer.records).toBe(3);
    const checked = checkImportFile('quickbooks', readFileSync(path, 'utf8'));
    const debits = checked.lines.filter((line) => line.amount.isPositive()).reduce((sum, line) => sum.plus(line.amount), new Money(0));
    // The debits are exactly what came in (each deposit's amount and fee) and what went out (the amount paid and its fee).
    const expected = [early.amount, early.fee, late.amount, late.fee, '100.000001', paid.fee].reduce((sum, amount) => sum.plus(amount), new Money(0));
    expect(debits.toFixed()).toBe(expected.toFixed());
    expect(checked.lines.some((line) => line.description.includes(late.apiOrder))).toBe(true);
    const day = isoInZone(early.firstSeenAt, ZONE).slice(0, 10).split('-');
    expect(checked.lines[0]?.date).toBe(`${day[1]}/${day[2]}/${day[0]}`);
  });

  it('writes nothing for a bad mapping or a currency it has no account for, and says what to fix', async () => {
    const path = join(desk.dir, 'refused.csv');
    const bad = await desk.call('accounting/export', { format: 'xero', from, to, mapping: 'kind,key,account\ncurrency,trx.usdt,1210\nfees,,\n', path });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatchObject({ code: 'invalidInput', message: expect.stringMatching(/^the account mapping is not usable, nothing was exported: line 3: the account is empty/) });
    const unmapped = await desk.call('accounting/export', { format: 'quickbooks', from, to, mapping: 'kind,key,account\nclearing,,1290\nfees,,6120\n', path });
    expect(unmapped.ok).toBe(false);
    if (!unmapped.ok) expect(unmapped.error.message).toMatch(/no account for trx\.usdt, which has records in the period; nothing was exported: add "currency,trx\.usdt,<account>"/);
    const format = await desk.call('accounting/export', { format: 'sage', from, to, mapping: MAPPING, path });
    expect(format.ok).toBe(false);
    expect(existsSync(path)).toBe(false);
  });

  it('records each export in the audit log, in words', async () => {
    const rows = (await desk.value('audit/list', { limit: 50 })).rows.filter((row) => row.action === 'accounting/export');
    expect(rows.map((row) => row.sentence)).toEqual(expect.arrayContaining([expect.stringMatching(/exported \d+ journals? for QuickBooks Online$/), expect.stringMatching(/exported \d+ journals? for Xero$/)]));
  });
});
