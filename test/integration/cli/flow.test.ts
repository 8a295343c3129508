// The CLI end to end as real processes (node --import tsx electron/cli/index.ts) against the real sandbox,
// keychain and SQLite: import → operators → selfcheck → sync → deposit address → deposit → withdrawal request →
// approval → submit → platform advances it → sync → status shows success → the audit chain verifies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DepositAddressView, DepositView, Page, SelfcheckReport, WithdrawalPreflight, WithdrawalView } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, json, openCliDesk, tronAddress, type Captured, type CliDesk } from './support';

let desk: CliDesk;

beforeAll(async () => {
  desk = await openCliDesk();
});
afterAll(async () => desk?.close());

function ok(run: Captured): Captured {
  expect(run.stderr, run.stderr).toBe('');
  expect(run.code).toBe(0);
  return run;
}

describe('treasury-desk as real processes', () => {
  it('runs the whole desk flow and every step exits 0', async () => {
    const imported = ok(await desk.spawn(['profile', 'import', desk.sandbox.credentialsPath, '--name', 'main']));
    expect(imported.stdout).toContain('imported profile main');
    expect(imported.stdout).not.toContain(desk.sandbox.credentials.secret);

    ok(await desk.spawn(['operator', 'add', '--name', ADMIN.name, '--role', 'admin'], { TREASURY_DESK_NEW_PASSPHRASE: ADMIN.passphrase }));
    for (const operator of [APPROVER, INITIATOR]) {
      ok(
        await desk.spawn(['operator', 'add', '--name', operator.name, '--role', operator.role, '--as', ADMIN.name], {
          TREASURY_DESK_PASSPHRASE: ADMIN.passphrase,
          TREASURY_DESK_NEW_PASSPHRASE: operator.passphrase,
        }),
      );
    }

    const selfcheck = json<SelfcheckReport>(ok(await desk.spawn(['selfcheck', '--json'])));
    expect(selfcheck.ok).toBe(true);
    expect(selfcheck.steps.map((step) => step.step)).toEqual(['token', 'request', 'response', 'echo', 'clock', 'version']);

    const merchantId = desk.sandbox.credentials.merchantId;
    expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000', trx: '100' } })).status).toBe(200);
    expect(ok(await desk.spawn(['sync'])).stdout).toMatch(/^synced 13 currencies, /);

    const address = json<DepositAddressView>(
      ok(await desk.spawn(['address', 'create', '--type', 'trx', '--as', INITIATOR.name, '--json'], { TREASURY_DESK_PASSPHRASE: INITIATOR.passphrase })),
    );
    const transfer = await desk.admin<{ credited: boolean; deposit: { txid: string; amount: string; fee: string } }>('POST', '/transfers', {
      toAddress: address.address,
      currency: 'trx.usdt',
      amount: '250.5',
    });
    expect(transfer.json.credited).toBe(true);
    ok(await desk.spawn(['sync']));
    const deposits = json<Page<DepositView>>(ok(await desk.spawn(['deposits', 'list', '--json'])));
    expect(deposits.rows).toHaveLength(1);
    expect(deposits.rows[0]).toMatchObject({
      txid: transfer.json.deposit.txid,
      amount: transfer.json.deposit.amount,
      fee: transfer.json.deposit.fee,
      currency: 'trx.usdt',
      address: address.address,
    });

    const toAddress = tronAddress();
    const requested = json<{ withdrawal: WithdrawalView; preflight: WithdrawalPreflight }>(
      ok(
        await desk.spawn(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '100', '--to', toAddress, '--as', INITIATOR.name, '--json'], {
          TREASURY_DESK_PASSPHRASE: INITIATOR.passphrase,
        }),
      ),
    );
    const id = requested.withdrawal.id;
    expect(requested.withdrawal.state).toBe('awaitingApproval');
    expect(requested.preflight).toMatchObject({ ok: true, requiredApprovals: 1, newDestination: true });

    const approved = ok(await desk.spawn(['withdraw', 'approve', id, '--as', APPROVER.name], { TREASURY_DESK_PASSPHRASE: APPROVER.passphrase }));
    expect(approved.stdout).toContain(`request ${id}: approved`);
    const submitted = ok(await desk.spawn(['withdraw', 'submit', id]));
    expect(submitted.stdout).toContain(`request ${id}: submitted (pendingConfirm)`);

    for (const to of ['pendingTransfer', 'pendingCallback', 'success']) {
      expect((await desk.admin('POST', `/withdrawals/${merchantId}/${requested.withdrawal.userOrder}/advance`, { to })).status).toBe(200);
    }
    expect(ok(await desk.spawn(['sync'])).stdout).toContain('1 withdrawal checked (1 advanced)');

    const status = ok(await desk.spawn(['withdraw', 'status', id]));
    expect(status.stdout).toMatch(/^state\s+completed \(success\)$/m);
    expect(status.stdout).toMatch(/requested by carol\n.*approved by bob\n.*pendingConfirm \(from create\)\n.*success \(from query\)\n$/);

    const verified = ok(await desk.spawn(['audit', 'verify']));
    expect(verified.stdout).toMatch(/^the audit chain is intact: \d+ rows verified\n$/);
  }, 120_000);
});
