// `treasury-desk reconcile` against the real sandbox (in process): exit 0 when everything adds up; a balance changed
// through the admin API without a record exits 1 after printing the report and writing the CSV, the amount exact, times
// in the reporting time zone with its offset; --json is one document either way; a bad date, a period that ends before
// it starts, an unknown currency and an unwritable CSV path are usage errors (exit 2) that change nothing.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, Money } from '../../../electron/chains/amounts';
import type { ReconciliationReport } from '../../../electron/contract';
import { ADMIN, as, expectFailure, expectOk, json, openCliDesk, setUpDesk, type CliDesk } from './support';

let desk: CliDesk;
let merchantId: string;

async function sandboxAvailable(): Promise<Money> {
  const balances = (await desk.admin<{ balances: { currency: string; available: string }[] }>('GET', `/merchants/${merchantId}`)).json.balances;
  return new Money(balances.find((balance) => balance.currency === 'trx.usdt')?.available ?? '0');
}

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  expectOk(await desk.cli(['settings', 'timezone', 'Asia/Kolkata', '--as', ADMIN.name], as(ADMIN)));
  expectOk(await desk.cli(['sync']));
}, 60_000);
afterAll(async () => desk?.close());

describe('treasury-desk reconcile', () => {
  it('exits 0 when every difference is explained, with the period and the statement', async () => {
    const run = expectOk(await desk.cli(['reconcile']));
    expect(run.stdout).toMatch(/^reconciliation of profile main, the beginning of the records to \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+05:30 \(times in Asia\/Kolkata\)$/m);
    expect(run.stdout).toMatch(/^trx\.usdt +0 \(0\) .* ok$/m);
    const report = json<ReconciliationReport>(expectOk(await desk.cli(['reconcile', '--json'])));
    expect(report).toMatchObject({ ok: true, unexplained: 0, profile: 'main', from: null });
  });

  it('a balance changed without a record: the report, the CSV, then exit 1', async () => {
    const before = await sandboxAvailable();
    const after = formatMoney(before.plus('0.000314'));
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': after } })).status).toBe(200);
    expectOk(await desk.cli(['sync']));
    const csv = join(desk.dir, 'reconciliation.csv');
    const run = await desk.cli(['reconcile', '--currency', 'trx.usdt', '--from', '2020-01-01', '--csv', csv]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('treasury-desk: 1 difference is unexplained: see the findings marked UNEXPLAINED\n');
    expect(run.stdout).toContain(`UNEXPLAINED  trx.usdt`);
    expect(run.stdout).toContain(`0.000314  The available balance went from ${formatMoney(before)} trx.usdt to ${after} trx.usdt (+0.000314) between two readings`);
    expect(run.stdout).toMatch(/^reconciliation of profile main, 2020-01-01 00:00:00\+05:30 to /m);
    expect(run.stdout).toContain(`wrote the statement and 1 finding to ${csv}`);
    const lines = readFileSync(csv, 'utf8').split('\r\n');
    expect(lines[0]).toBe('currency,kind,explained,amount,at,summary,explanation,api_order,txid,request,user_order,reading_from,reading_to');
    expect(lines[1]).toMatch(/^trx\.usdt,statement,no,0\.000314,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+05:30,"available 5000 -> /);
    expect(lines[2]).toMatch(/^trx\.usdt,unexplainedBalanceChange,no,0\.000314,\d{4}-[^,]+\+05:30,/);
    expect(lines[2]).toMatch(/,\d{4}-\d{2}-\d{2}T[^,]+\+05:30,\d{4}-\d{2}-\d{2}T[^,]+\+05:30$/);
    expect(lines.at(-1)).toBe('');

    const asJson = await desk.cli(['reconcile', '--json']);
    expect(asJson.code).toBe(1);
    expect(json<ReconciliationReport>(asJson)).toMatchObject({ ok: false, unexplained: 1 });
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { code: 'conflict', message: expect.stringMatching(/^1 difference is unexplained/) } });
  });

  it('refuses a bad date, a period ending before it starts, an unknown currency and an unwritable CSV (exit 2), writing nothing', async () => {
    expect(expectFailure(await desk.cli(['reconcile', '--from', '2024-13-01']), 2)).toMatch(/--from: "2024-13-01" is not a real date/);
    expect(expectFailure(await desk.cli(['reconcile', '--from', '2024-06-01', '--to', '2024-05-01']), 2)).toMatch(/^treasury-desk: invalidInput: the period must start before it ends/);
    expect(expectFailure(await desk.cli(['reconcile', '--currency', 'trx.usdc']), 2)).toMatch(/trx\.usdc is not a currency this desk knows or the service lists/);
    const folder = join(desk.dir, 'a-folder');
    mkdirSync(folder);
    expect(expectFailure(await desk.cli(['reconcile', '--csv', folder]), 2)).toMatch(/^treasury-desk: the CSV file .*a-folder: /);
  });
});
