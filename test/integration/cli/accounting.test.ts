// `treasury-desk accounting export` against the real sandbox (in process): --period as a calendar month of the
// reporting zone, --from/--to read in --tz, --out naming a folder (the file named with the period and the audit
// head's fingerprint) or a file (replaced whole); the files pass the published column checks; a bad mapping names its
// lines and writes nothing, and bad options are refused before any desk opens (exit 2).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoInZone, type AccountingExport, type DepositAddressView, type DepositView, type WithdrawalView } from '../../../electron/contract';
import { checkImportFile } from '../../support/accounting-import';
import { APPROVER, INITIATOR, as, expectFailure, expectOk, json, openCliDesk, setUpDesk, tronAddress, type CliDesk } from './support';

let desk: CliDesk;
let mapping: string;
let deposit: DepositView;
let withdrawal: WithdrawalView;

/** A wall-clock time in `zone` without its offset, as a person types it. */
function typedIn(ms: number, zone: string): string {
  return isoInZone(ms, zone, { milliseconds: true }).replace(/(Z|[+-]\d{2}:\d{2})$/, '');
}

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  const address = json<DepositAddressView>(expectOk(await desk.cli(['address', 'create', '--type', 'trx', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
  expect((await desk.admin<{ credited: boolean }>('POST', '/transfers', { toAddress: address.address, currency: 'trx.usdt', amount: '70.000007' })).json.credited).toBe(true);
  // The deposit is stored (and the currency table read) before the order exists, so it is first seen before the order is final.
  expectOk(await desk.cli(['sync']));
  withdrawal = json<{ withdrawal: WithdrawalView }>(
    expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '12.5', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
  ).withdrawal;
  expectOk(await desk.cli(['withdraw', 'approve', withdrawal.id, '--as', APPROVER.name], as(APPROVER)));
  expectOk(await desk.cli(['withdraw', 'submit', withdrawal.id, '--as', INITIATOR.name], as(INITIATOR)));
  for (const to of ['pendingTransfer', 'pendingCallback', 'success']) expect((await desk.admin('POST', `/withdrawals/${merchantId}/${withdrawal.userOrder}/advance`, { to })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
  const deposits = json<{ rows: DepositView[] }>(expectOk(await desk.cli(['deposits', 'list', '--json'])));
  deposit = deposits.rows[0] ?? expect.fail('no deposit synced');
  mapping = join(desk.dir, 'mapping.csv');
  writeFileSync(mapping, 'kind,key,account\ncurrency,trx.usdt,Crypto:Tron USDT\nclearing,,Clearing\nfees,,Bank fees\n');
}, 90_000);
afterAll(async () => desk?.close());

describe('treasury-desk accounting export', () => {
  it('--period writes the month of the reporting zone into a folder, the file named with the period and the audit fingerprint', async () => {
    const month = isoInZone(deposit.firstSeenAt, 'UTC').slice(0, 7);
    const folder = join(desk.dir, 'journals');
    mkdirSync(folder);
    const head = json<{ head: { fingerprint: string } | null }>(expectOk(await desk.cli(['audit', 'head', '--json']))).head;
    const run = expectOk(await desk.cli(['accounting', 'export', '--format', 'xero', '--period', month, '--mapping', mapping, '--out', folder]));
    const name = `xero-journals-${month}-${head?.fingerprint ?? 'none'}.csv`;
    expect(readdirSync(folder)).toEqual([name]);
    expect(run.stdout).toMatch(new RegExp(`^wrote \\d+ journals? \\(\\d+ lines, 2 records\\) for Xero to .*${name} \\(dates in UTC\\)$`, 'm'));
    const checked = checkImportFile('xero', readFileSync(join(folder, name), 'utf8'));
    expect(checked.lines.map((line) => line.account)).toEqual(['Crypto:Tron USDT', 'Bank fees', 'Clearing', 'Clearing', 'Crypto:Tron USDT', 'Bank fees', 'Crypto:Tron USDT']);
  });

  it('--from and --to are read in --tz, and --out names the QuickBooks file (replaced whole)', async () => {
    const zone = 'Asia/Kolkata';
    const out = join(desk.dir, 'quickbooks.csv');
    writeFileSync(out, 'an older export\n');
    // The period ends just after the deposit was first seen: the order, final later, is left out.
    const answer = json<AccountingExport>(
      expectOk(await desk.cli(['accounting', 'export', '--format', 'quickbooks', '--from', typedIn(deposit.firstSeenAt, zone), '--to', typedIn(deposit.firstSeenAt + 1, zone), '--tz', zone, '--mapping', mapping, '--out', out, '--json'])),
    );
    expect(answer).toMatchObject({ path: out, format: 'quickbooks', records: 1, journals: 1, lines: 3, timeZone: zone });
    const checked = checkImportFile('quickbooks', readFileSync(out, 'utf8'));
    expect(checked.lines.map((line) => [line.account, line.amount.toFixed()])).toEqual([
      ['Crypto:Tron USDT', '69.500007'],
      ['Bank fees', '0.5'],
      ['Clearing', '-70.000007'],
    ]);
    const day = isoInZone(deposit.firstSeenAt, zone).slice(0, 10).split('-');
    expect(checked.lines[0]?.date).toBe(`${day[1]}/${day[2]}/${day[0]}`);
  });

  it('a bad mapping names its lines and writes nothing; bad options are refused before any desk opens (exit 2)', async () => {
    const bad = join(desk.dir, 'bad-mapping.csv');
    writeFileSync(bad, 'kind,key,account\ncurrency,trx.usdt,1210\nfees,,\nclearing,,1290\n');
    const out = join(desk.dir, 'never.csv');
    const month = isoInZone(deposit.firstSeenAt, 'UTC').slice(0, 7);
    expect(expectFailure(await desk.cli(['accounting', 'export', '--format', 'xero', '--period', month, '--mapping', bad, '--out', out]), 2)).toMatch(/the account mapping is not usable, nothing was exported: line 3: the account is empty/);
    expect(expectFailure(await desk.cli(['accounting', 'export', '--format', 'sage', '--period', month, '--mapping', mapping, '--out', out]), 2)).toMatch(/--format must be xero or quickbooks; got "sage"/);
    expect(expectFailure(await desk.cli(['accounting', 'export', '--format', 'xero', '--period', '2026-13', '--mapping', mapping, '--out', out]), 2)).toMatch(/--period must be a calendar month such as 2026-10/);
    expect(expectFailure(await desk.cli(['accounting', 'export', '--format', 'xero', '--period', month, '--from', '2026-10-01', '--mapping', mapping, '--out', out]), 2)).toMatch(/give --period, or --from and --to, not both/);
    expect(expectFailure(await desk.cli(['accounting', 'export', '--format', 'xero', '--mapping', mapping, '--out', out]), 2)).toMatch(/give the period: --period YYYY-MM/);
    expect(expectFailure(await desk.cli(['accounting', 'export', '--format', 'xero', '--period', month, '--mapping', join(desk.dir, 'missing.csv'), '--out', out]), 2)).toMatch(/account mapping file .*missing\.csv: no such file/);
    expect(existsSync(out)).toBe(false);
  });
});
