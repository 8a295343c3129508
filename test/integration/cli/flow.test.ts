// The CLI end to end as real processes (its entry bundled once, test/support/cli.ts) against the real sandbox,
// keychain and SQLite: import → found the desk with two admins → invite, accept and confirm operators → selfcheck →
// sync → deposit address → deposit → withdrawal request (with its fingerprint) → approval → submit → platform
// advances it → sync → status shows success → the audit chain verifies, also against a checkpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { DepositAddressView, DepositView, InvitationView, Page, RosterView, SelfcheckReport, WithdrawalPreflight, WithdrawalView } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, json, openCliDesk, SECOND_ADMIN, tronAddress, type Captured, type CliDesk } from './support';

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

    const founded = ok(
      await desk.spawn(['operator', 'found', '--admin', ADMIN.name, '--admin', SECOND_ADMIN.name], {
        TREASURY_DESK_NEW_PASSPHRASE: ADMIN.passphrase,
        TREASURY_DESK_NEW_PASSPHRASE_2: SECOND_ADMIN.passphrase,
      }),
    );
    expect(founded.stdout).toMatch(/^founded the desk: alice \(admin, key [A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}\), frank \(admin, key /);
    for (const operator of [APPROVER, INITIATOR]) {
      const invited = json<InvitationView>(
        ok(await desk.spawn(['operator', 'invite', operator.name, '--role', operator.role, '--as', ADMIN.name, '--json'], { TREASURY_DESK_PASSPHRASE: ADMIN.passphrase })),
      );
      expect(invited.needsConfirmation).toBe(true);
      const accepted = ok(
        await desk.spawn(['operator', 'accept', operator.name], { TREASURY_DESK_INVITATION_CODE: invited.code, TREASURY_DESK_NEW_PASSPHRASE: operator.passphrase }),
      );
      expect(accepted.stdout).toMatch(new RegExp(`^${operator.name} accepted: new key fingerprint [A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}\n`));
      ok(await desk.spawn(['operator', 'confirm', invited.proposal.slice(0, 8), '--as', SECOND_ADMIN.name], { TREASURY_DESK_PASSPHRASE: SECOND_ADMIN.passphrase }));
    }
    const roster = json<RosterView>(ok(await desk.spawn(['operator', 'list', '--json'])));
    expect(roster).toMatchObject({ founded: true, fourEyes: true, notice: null, proposals: [] });
    expect(roster.operators.map((entry) => `${entry.name}:${entry.role}:${entry.status}:${entry.party.join('+')}`)).toEqual([
      'alice:admin:active:alice',
      'bob:approver:active:bob',
      'carol:initiator:active:carol',
      'frank:admin:active:frank',
    ]);

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
    const fingerprint = requested.withdrawal.fingerprint ?? '';
    expect(fingerprint).toMatch(/^[A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}$/);
    expect(requested.withdrawal.state).toBe('awaitingApproval');
    expect(requested.preflight).toMatchObject({ ok: true, requiredApprovals: 1, newDestination: true });

    const approved = ok(await desk.spawn(['withdraw', 'approve', id, '--as', APPROVER.name], { TREASURY_DESK_PASSPHRASE: APPROVER.passphrase }));
    expect(approved.stdout).toContain(`Approving request ${id}: 100 trx.usdt to ${toAddress}, requested by carol; fingerprint ${fingerprint}\n`);
    expect(approved.stdout).toContain(`request ${id}: approved`);
    const submitted = ok(await desk.spawn(['withdraw', 'submit', id, '--as', APPROVER.name], { TREASURY_DESK_PASSPHRASE: APPROVER.passphrase }));
    expect(submitted.stdout).toContain(`Submitting request ${id}: `);
    expect(submitted.stdout).toContain(`request ${id}: submitted (pendingConfirm)`);

    for (const to of ['pendingTransfer', 'pendingCallback', 'success']) {
      expect((await desk.admin('POST', `/withdrawals/${merchantId}/${requested.withdrawal.userOrder}/advance`, { to })).status).toBe(200);
    }
    expect(ok(await desk.spawn(['sync'])).stdout).toContain('1 withdrawal checked (1 advanced)');

    const status = ok(await desk.spawn(['withdraw', 'status', id]));
    expect(status.stdout).toMatch(/^state\s+completed \(success\)$/m);
    expect(status.stdout).toContain(`fingerprint   ${fingerprint}\n`);
    expect(status.stdout).toMatch(/^approvals\s+1 of 1 counted$/m);
    expect(status.stdout).toMatch(/^verification\s+ok: the signed statements support it$/m);
    expect(status.stdout).toMatch(/^ {2}\S+ \S+ {2}approved by bob: counts$/m);
    expect(status.stdout).toMatch(/requested by carol\n.*approved by bob\n.*pendingConfirm \(from create\)\n.*success \(from query\)\n$/);

    const checkpointFile = join(desk.dir, 'checkpoint.json');
    const checkpoint = ok(await desk.spawn(['audit', 'checkpoint', '--out', checkpointFile]));
    expect(checkpoint.stdout).toMatch(/^wrote a checkpoint of row \d+, fingerprint [A-Z2-7]{4}(?:-[A-Z2-7]{4}){3}, to /);
    const verified = ok(await desk.spawn(['audit', 'verify', '--against', checkpointFile]));
    expect(verified.stdout).toMatch(/^the audit chain is intact: \d+ rows verified\nhead: row \d+, fingerprint [A-Z2-7-]{19}\n/);
    expect(verified.stdout).toMatch(/^anchored: /m);
    expect(verified.stdout).toContain(`checkpoint: matched ${checkpointFile}\n`);
    // About 25 real CLI processes, each sealing or opening keys at the app's scrypt cost: 45 s on an
    // idle machine, 120 s when another vitest worker and the team project share its two cores.
  }, 300_000);
});
