// `treasury-desk statement` and `withdraw export` against the real sandbox (in process): a period with a deposit and a
// withdrawal between two syncs printed in the --tz zone and balancing to zero; --csv holds the same figures and the
// audit head; --pdf prints with the Chromium on PATH, and without one says to install it or use the app, writing
// nothing; bad input (both files, a zone that is not IANA, a period that ends before it starts) is exit 2; the
// withdrawal's line names its payee from the signed book as it stands (none, the payee, none once the address is removed).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepositAddressView, PayeesView, PeriodStatement, PeriodStatementWithdrawal, WithdrawalView } from '../../../electron/contract';
import { APPROVER, INITIATOR, as, expectFailure, expectOk, json, openCliDesk, setUpDesk, tronAddress, type CliDesk } from './support';

let desk: CliDesk;
let from: string;
let to: string;
let withdrawal: WithdrawalView;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
  expectOk(await desk.cli(['sync']));
  from = new Date().toISOString();
  const address = json<DepositAddressView>(expectOk(await desk.cli(['address', 'create', '--type', 'trx', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
  expect((await desk.admin<{ credited: boolean }>('POST', '/transfers', { toAddress: address.address, currency: 'trx.usdt', amount: '70.000007' })).json.credited).toBe(true);
  withdrawal = json<{ withdrawal: WithdrawalView }>(
    expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '12.5', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
  ).withdrawal;
  expectOk(await desk.cli(['withdraw', 'approve', withdrawal.id, '--as', APPROVER.name], as(APPROVER)));
  expectOk(await desk.cli(['withdraw', 'submit', withdrawal.id, '--as', INITIATOR.name], as(INITIATOR)));
  expectOk(await desk.cli(['sync']));
  to = new Date(Date.now() + 1000).toISOString();
}, 90_000);
afterAll(async () => desk?.close());

describe('treasury-desk statement', () => {
  it('prints the period in the --tz zone, each currency balancing, and the audit head', async () => {
    const run = expectOk(await desk.cli(['statement', '--from', from, '--to', to, '--tz', 'asia/kolkata']));
    expect(run.stdout).toMatch(/^statement of profile main, \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+05:30 to .*\(times in Asia\/Kolkata\)$/m);
    // The sandbox keeps a deposit fee of 0.5: 69.500007 is credited.
    expect(run.stdout).toMatch(/^trx\.usdt +5000 +69\.500007 +12\.5 +\S+ +0 +\S+ +0$/m);
    expect(run.stdout).toMatch(/^audit head \d+, fingerprint [A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/m);
    const statement = json<PeriodStatement>(expectOk(await desk.cli(['statement', '--from', from, '--to', to, '--json'])));
    const trx = statement.currencies.find((currency) => currency.currency === 'trx.usdt');
    expect(trx).toMatchObject({ unexplained: '0', deposits: { count: 1, amount: '69.500007' }, depositFees: '0.5', withdrawals: { count: 1, amount: '12.5' }, refunds: { count: 0 } });
  });

  it('--csv writes the statement with the audit head last', async () => {
    const csv = join(desk.dir, 'statement.csv');
    const run = expectOk(await desk.cli(['statement', '--from', from, '--to', to, '--tz', 'Europe/Berlin', '--csv', csv]));
    expect(run.stdout).toContain(`wrote the statement to ${csv}`);
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^record,currency,opening_at,opening_available,/);
    expect(lines[1]).toMatch(/^period,,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0[12]:00,/);
    expect(lines.find((line) => line.startsWith('balance,trx.usdt,'))).toMatch(/^balance,trx\.usdt,[^,]+,5000,0,1,69\.500007,0\.5,1,12\.5,[^,]+,0,0,/);
    expect(lines.at(-1)).toMatch(/^audit_head,,+"audit head \d+, fingerprint [A-Z0-9-]{19}"$/);
  });

  it('--pdf prints with the Chromium on PATH; without one it says what to do and writes nothing', async () => {
    const pdf = join(desk.dir, 'statement.pdf');
    const run = expectOk(await desk.cli(['statement', '--from', from, '--to', to, '--pdf', pdf], { env: { PATH: process.env['PATH'] } }));
    expect(run.stdout).toContain(`wrote the statement to ${pdf}`);
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('69.500007');
    const fingerprint = /fingerprint ([A-Z0-9-]{19})$/m.exec(run.stdout)?.[1] ?? 'none';
    // The audit head ends the page; the page margin numbers it.
    expect(text).toMatch(new RegExp(`fingerprint ${fingerprint}\\s+Page 1 of 1\\s*$`));

    const missing = join(desk.dir, 'not-written.pdf');
    const refused = expectFailure(await desk.cli(['statement', '--from', from, '--to', to, '--pdf', missing], { env: { PATH: join(desk.dir, 'empty') } }), 2);
    expect(refused).toMatch(/printing a PDF needs Chromium, and none of chromium, .* is on PATH: install it \(Debian and Ubuntu: apt-get install chromium\), or save the PDF from the app's Statements screen/);
    expect(existsSync(missing)).toBe(false);
  }, 60_000);

  it('refuses both files at once, a zone that is not IANA and a period that ends before it starts (exit 2)', async () => {
    expect(expectFailure(await desk.cli(['statement', '--from', from, '--to', to, '--csv', 'a.csv', '--pdf', 'a.pdf']), 2)).toMatch(/give --csv or --pdf, not both/);
    expect(expectFailure(await desk.cli(['statement', '--from', from, '--to', to, '--tz', '+01:00']), 2)).toMatch(/--tz: "\+01:00" is not an IANA time zone name/);
    expect(expectFailure(await desk.cli(['statement', '--from', to, '--to', from]), 2)).toMatch(/the period must start before it ends/);
    expect(expectFailure(await desk.cli(['statement', '--to', to]), 2)).toMatch(/--from/);
  });

  it('names the payee of each withdrawal line from the signed book as it stands: none, then the payee, none again once the address is removed', async () => {
    const lineOf = async (): Promise<PeriodStatementWithdrawal | undefined> =>
      json<PeriodStatement>(expectOk(await desk.cli(['statement', '--from', from, '--to', to, '--json']))).withdrawals.find((line) => line.request === withdrawal.id);
    expect(await lineOf()).toMatchObject({ currency: 'trx.usdt', amount: '12.5', toAddress: withdrawal.toAddress, payee: null });

    const added = json<PayeesView>(expectOk(await desk.cli(['payees', 'add', 'Statement Payee Ltd', '--address', `trx:${withdrawal.toAddress}`, '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    expectOk(await desk.cli(['payees', 'approve', (added.pending[0]?.proposal ?? '').slice(0, 12), '--as', APPROVER.name], as(APPROVER)));
    expect((await lineOf())?.payee).toBe('Statement Payee Ltd');
    expect(expectOk(await desk.cli(['statement', '--from', from, '--to', to])).stdout).toMatch(new RegExp(`^ *${withdrawal.id} +trx\\.usdt .* 12\\.5 .* ${withdrawal.toAddress} \\(payee Statement Payee Ltd\\)`, 'm'));
    const csv = join(desk.dir, 'statement-payee.csv');
    expectOk(await desk.cli(['statement', '--from', from, '--to', to, '--csv', csv]));
    const row = readFileSync(csv, 'utf8').split('\r\n').find((line) => line.startsWith('withdrawal,trx.usdt,'));
    expect(row).toContain(`,12.5,${withdrawal.id},${withdrawal.toAddress},Statement Payee Ltd,`);

    expectOk(await desk.cli(['payees', 'remove-address', withdrawal.toAddress, '--chain', 'trx', '--as', INITIATOR.name], as(INITIATOR)));
    expect(await lineOf()).toMatchObject({ toAddress: withdrawal.toAddress, payee: null });
  });
});

describe('treasury-desk withdraw export', () => {
  it('writes every request as CSV, one state on demand', async () => {
    const csv = join(desk.dir, 'withdrawals.csv');
    expect(expectOk(await desk.cli(['withdraw', 'export', '--csv', csv])).stdout).toContain(`wrote 1 withdrawal request to ${csv}`);
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('created,request,currency,amount,fee,state,order_status,order_status_at,to_address,payee,memo,withdraw_type,user_order,api_order,txid,initiator,fingerprint,updated');
    expect(lines[1]).toContain(`,${withdrawal.id},trx.usdt,12.5,`);
    expect(lines[1]).toContain(`,${withdrawal.userOrder},`);
    expect(expectOk(await desk.cli(['withdraw', 'export', '--state', 'rejected', '--csv', csv])).stdout).toContain('wrote 0 withdrawal requests');
    expect(readFileSync(csv, 'utf8')).toBe(`${lines[0]}\r\n`);
    expect(expectFailure(await desk.cli(['withdraw', 'export', '--state', 'nonsense', '--csv', csv]), 2)).toMatch(/--state/);
  });
});
