// The stuck-order watchdog from the command line (in process) against the sandbox, with a moved clock (the fake Date
// moves the desk's clock and the in-process sandbox's together): `settings stuck-thresholds` shows the thresholds and an
// admin changes one (others are refused); `withdraw list --stuck` lists the order pending past it with what to do next
// (text and --json) and records it in the audit once; `withdraw status` flags it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Page, WithdrawalView } from '../../../electron/contract';
import { ADMIN, APPROVER, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, setUpDesk, tronAddress, type CliDesk } from './support';

const MINUTE = 60_000;
let desk: CliDesk;
let merchantId: string;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
}, 60_000);
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => desk?.close());

describe('stuck orders on the command line', () => {
  it('shows the thresholds; an admin changes one, anyone else is refused', async () => {
    const shown = expectOk(await desk.cli(['settings', 'stuck-thresholds']));
    expect(shown.stdout).toMatch(/^pendingTransfer +2 h +2 h +waiting for the platform to make the transfer$/m);
    expect(shown.stdout).toMatch(/^pendingFinancialConfirmation +1 d +1 d /m);
    const changed = expectOk(await desk.cli(['settings', 'stuck-thresholds', '--pending-transfer', '45m', '--as', ADMIN.name], as(ADMIN)));
    expect(changed.stdout).toMatch(/^pendingTransfer +45 min +2 h /m);
    expect(changed.stdout).toContain('saved: the watchdog flags orders with these thresholds from now on');
    expect(expectFailure(await desk.cli(['settings', 'stuck-thresholds', '--pending-transfer', '10m', '--as', APPROVER.name], as(APPROVER)), 1)).toMatch(/^treasury-desk: forbidden: /);
    expect(expectFailure(await desk.cli(['settings', 'stuck-thresholds', '--pending-callback', '31d', '--as', ADMIN.name], as(ADMIN)), 2)).toBe(
      'treasury-desk: invalidInput: --pending-callback: at most 30 days',
    );
    expect(json<{ thresholds: { pendingTransfer: number; pendingCallback: number } }>(expectOk(await desk.cli(['settings', 'stuck-thresholds', '--json']))).thresholds).toMatchObject({
      pendingTransfer: 45 * MINUTE,
      pendingCallback: 120 * MINUTE,
    });
  });

  it('lists an order pending past its threshold with what to do next, flags it in its status, audits it once', async () => {
    const requested = json<{ withdrawal: WithdrawalView }>(
      expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '30', '--to', tronAddress(), '--as', INITIATOR.name, '--json'], as(INITIATOR))),
    ).withdrawal;
    expectOk(await desk.cli(['withdraw', 'approve', requested.id, '--as', APPROVER.name], as(APPROVER)));
    const sent = json<WithdrawalView>(expectOk(await desk.cli(['withdraw', 'submit', requested.id, '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    expect((await desk.admin('POST', `/withdrawals/${merchantId}/${sent.userOrder}/advance`, { to: 'pendingTransfer' })).status).toBe(200);
    expectOk(await desk.cli(['sync']));
    expect(expectOk(await desk.cli(['withdraw', 'list', '--stuck'])).stdout).toBe('no withdrawal is stuck\n');

    // 46 minutes later for the desk and the sandbox alike.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 46 * MINUTE, shouldAdvanceTime: true });
    const listed = expectOk(await desk.cli(['withdraw', 'list', '--stuck']));
    expect(listed.stdout).toMatch(new RegExp(`^ *${requested.id} +trx\\.usdt +30 +pendingTransfer +46 min +45 min +\\S+ \\S+ +${sent.apiOrder ?? ''} +-$`, 'm'));
    expect(listed.stdout).toContain(`request ${requested.id}, what to do:\n  - The order is pendingTransfer: waiting for the platform to make the transfer.\n  - Contact the platform with apiOrder ${sent.apiOrder ?? ''} (userOrder ${sent.userOrder}).\n`);
    const asJson = json<Page<WithdrawalView>>(expectOk(await desk.cli(['withdraw', 'list', '--stuck', '--json'])));
    expect(asJson.rows.map((row) => [row.id, row.stuck?.status, row.stuck?.thresholdMs])).toEqual([[requested.id, 'pendingTransfer', 45 * MINUTE]]);

    const status = expectOk(await desk.cli(['withdraw', 'status', requested.id]));
    expect(status.stdout).toMatch(/^STUCK: pendingTransfer for 46 min \(stuck after 45 min\), since \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z; what to do:$/m);
    expect(status.stdout).toContain(`  - Contact the platform with apiOrder ${sent.apiOrder ?? ''}`);

    const exported = join(desk.dir, 'audit.jsonl');
    expectOk(await desk.cli(['audit', 'export', exported]));
    const stuckRows = readFileSync(exported, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse((JSON.parse(line) as { statement: string }).statement) as { subject?: string; body?: { action?: string; details?: { status?: string } } })
      .filter((statement) => statement.body?.action === 'withdrawals/stuck' && statement.subject === sent.userOrder);
    expect(stuckRows.map((statement) => statement.body?.details?.status)).toEqual(['pendingTransfer']);
  });
});
