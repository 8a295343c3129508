// The reconciliation CSV of `treasury-desk reconcile --csv` (cli/commands/reconcile.ts): a statement row per currency,
// then one row per finding with what it points at (deposit, withdrawal, the two readings) and its standing (yes,
// pending while an order of the desk is in flight, no), times in the reporting zone
// with its offset, amounts as reported; and the command's input checked before any desk is opened.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reconciliationCsv } from '../../../electron/cli/commands/reconcile';
import type { ReconciliationReport } from '../../../electron/contract';
import { runInProcessPlain } from '../../support/cli';

const T0 = Date.UTC(2026, 4, 1, 12, 0, 0);

const report: ReconciliationReport = {
  profile: 'main',
  from: null,
  to: T0 + 10_000,
  generatedAt: T0 + 10_000,
  ok: false,
  unexplained: 1,
  callbacksSince: T0,
  lastDepositsSyncAt: T0,
  currencies: [
    {
      currency: 'trx.usdt',
      ok: false,
      deposits: { total: { count: 1, amount: '9.5' }, both: { count: 0, amount: '0' }, callbackOnly: { count: 1, amount: '9.5' }, queryOnly: { count: 0, amount: '0' } },
      balance: {
        opening: { available: '100', frozen: '0', observedAt: T0, lastObservedAt: T0 },
        closing: { available: '83.5', frozen: '0', observedAt: T0 + 3_600_000, lastObservedAt: T0 + 3_600_000 },
        startsLate: true,
        change: '-16.5',
        deposits: { count: 1, amount: '9.5' },
        withdrawals: { count: 1, amount: '26' },
        returned: { count: 0, amount: '0' },
        fees: { deposits: '0.5', withdrawals: '1', returned: '0' },
        expectedChange: '-16.5',
        unexplained: '0',
      },
      frozen: { at: T0 + 3_600_000, reported: '0', openOrders: { count: 0, amount: '0' }, difference: '0' },
      findings: [
        { kind: 'callbackOnly', explained: false, currency: 'trx.usdt', amount: '9.5', at: T0, summary: 'Deposit DP1, "quoted"', explanation: 'Ask, please', reference: { kind: 'deposit', apiOrder: 'DP1', txid: 'abc' } },
        { kind: 'feeDiffers', explained: false, currency: 'trx.usdt', amount: '-1', at: T0, summary: '=cheaper', explanation: '', reference: { kind: 'withdrawal', id: '7', userOrder: 'td-7', apiOrder: null } },
        { kind: 'unexplainedBalanceChange', explained: true, currency: 'trx.usdt', amount: '0', at: null, summary: 's', explanation: 'e', reference: { kind: 'balance', fromAt: T0, toAt: T0 + 1 } },
        { kind: 'awaitingOrder', explained: true, currency: 'trx.usdt', amount: '11', at: T0, summary: 'Waiting for order td-8', explanation: 'sync', reference: { kind: 'withdrawal', id: '8', userOrder: 'td-8', apiOrder: 'WD8' } },
      ],
    },
  ],
};

describe('the reconciliation CSV', () => {
  it('writes the statement, then each finding with its reference, in the reporting zone', () => {
    const lines = reconciliationCsv(report, 'Europe/Berlin').split('\r\n');
    expect(lines).toEqual([
      'currency,kind,explained,amount,at,summary,explanation,api_order,txid,request,user_order,reading_from,reading_to',
      'trx.usdt,statement,yes,0,2026-05-01T15:00:00.000+02:00,"available 100 -> 83.5 (change -16.5); deposits +9.5 (1), withdrawals -26 (1), returned 0 (0), expected change -16.5; frozen 0 against open orders 0",,,,,,2026-05-01T14:00:00.000+02:00,2026-05-01T15:00:00.000+02:00',
      'trx.usdt,callbackOnly,no,9.5,2026-05-01T14:00:00.000+02:00,"Deposit DP1, ""quoted""","Ask, please",DP1,abc,,,,',
      "trx.usdt,feeDiffers,no,-1,2026-05-01T14:00:00.000+02:00,'=cheaper,,,,7,td-7,,",
      'trx.usdt,unexplainedBalanceChange,yes,0,,s,e,,,,,2026-05-01T14:00:00.000+02:00,2026-05-01T14:00:00.001+02:00',
      'trx.usdt,awaitingOrder,pending,11,2026-05-01T14:00:00.000+02:00,Waiting for order td-8,sync,WD8,,8,td-8,,',
      '',
    ]);
  });

  it('refuses a bad date before any desk is opened (exit 2)', async () => {
    // A database path under this test's own folder (not /nonexistent, which a machine may have): nothing appears there.
    const dir = mkdtempSync(join(tmpdir(), 'td-reconcile-'));
    try {
      const dbPath = join(dir, 'desk.sqlite');
      const run = await runInProcessPlain(['--db', dbPath, 'reconcile', '--to', 'yesterday']);
      expect(run).toEqual({ code: 2, stdout: '', stderr: 'treasury-desk: --to must be an ISO 8601 date or time such as 2024-05-01 or 2024-05-01T12:00:00Z; got "yesterday".\n' });
      expect(existsSync(dbPath)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
