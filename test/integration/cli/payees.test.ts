// Payees in the CLI (in process, real sandbox, keychain and SQLite): `payees add` with addresses on two chains waits for
// `payees approve` by an independent approver, `payees show` lists the addresses, `payees import` of a bad file exits 1
// naming each bad line and signs nothing, `--json` answers the view, and `withdraw show` names the payee of the destination.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayeesView, WithdrawalView } from '../../../electron/contract';
import { tronAddress } from '../engine/support';
import { APPROVER, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, setUpDesk, type CliDesk } from './support';

let desk: CliDesk;
beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
}, 180_000);
afterAll(async () => desk?.close());

describe('treasury-desk payees', () => {
  it('adds a payee waiting for approval, approves it, shows it, refuses a bad import naming lines, and names the payee in withdraw show', async () => {
    const trx = tronAddress();
    const eth = `0x${'cd'.repeat(20)}`;
    const added = json<PayeesView>(expectOk(await desk.cli(['payees', 'add', 'Northwind Ltd', '--address', `trx:${trx}`, '--address', `eth:${eth}`, '--note', 'logistics', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    expect(added.payees).toEqual([]);
    const proposal = added.pending[0]?.proposal ?? '';
    expect(expectOk(await desk.cli(['payees', 'list'])).stdout).toContain(`waiting for approval: Northwind Ltd (trx:${trx}, eth:${eth}), by carol (proposal ${proposal.slice(0, 12)}`);
    expectOk(await desk.cli(['payees', 'approve', proposal.slice(0, 12), '--as', APPROVER.name], as(APPROVER)));
    const shown = expectOk(await desk.cli(['payees', 'show', 'northwind ltd'])).stdout;
    expect(shown).toMatch(/payee +Northwind Ltd/);
    expect(shown).toContain(trx);
    expect(shown).toContain(eth);

    const bad = join(desk.dir, 'payees-bad.csv');
    writeFileSync(bad, `name,note,chain,address\r\nA,,trx,${tronAddress()}\r\nB,,trx,nope\r\nC,,trx,${trx}\r\n`);
    const refused = expectFailure(await desk.cli(['payees', 'import', bad, '--as', INITIATOR.name], as(INITIATOR)), 2);
    expect(refused).toMatch(/nothing was signed or stored/);
    expect(refused).toMatch(/line 2: nope is not a trx address/);
    expect(refused).toMatch(/line 3: trx:T\w+ is already in the address book/);
    expect(json<PayeesView>(expectOk(await desk.cli(['payees', 'list', '--json']))).pending).toEqual([]);

    expect((await desk.admin('PATCH', `/merchants/${desk.sandbox.credentials.merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
    expectOk(await desk.cli(['sync']));
    const requested = json<{ withdrawal: WithdrawalView }>(expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '12', '--to', trx, '--as', INITIATOR.name, '--json'], as(INITIATOR)))).withdrawal;
    expect(expectOk(await desk.cli(['withdraw', 'show', requested.id])).stdout).toMatch(/Destination's standing +payee Northwind Ltd, in the address book since /);
  });
});
