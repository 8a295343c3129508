// Payees in the CLI (in process, real sandbox, keychain and SQLite): `payees add` with addresses on two chains waits for
// `payees approve` by an independent approver, `payees show` lists the addresses, `payees import` of a bad file exits 1
// naming each bad line and signs nothing, `--json` answers the view, and `withdraw show` names the payee of the destination;
// `withdraw list` (the approvals queue) names the payee beside each address the signed book gives one, and no other.
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

  it('names the payee beside the address in withdraw list, for a booked payee address only (none for an address removed since or never booked)', async () => {
    const kept = tronAddress();
    const removed = tronAddress();
    const stranger = tronAddress();
    const added = json<PayeesView>(expectOk(await desk.cli(['payees', 'add', 'Contoso Pty', '--address', `trx:${kept}`, '--address', `trx:${removed}`, '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    expectOk(await desk.cli(['payees', 'approve', (added.pending[0]?.proposal ?? '').slice(0, 12), '--as', APPROVER.name], as(APPROVER)));
    expect((await desk.admin('PATCH', `/merchants/${desk.sandbox.credentials.merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
    expectOk(await desk.cli(['sync']));
    const request = async (to: string): Promise<string> =>
      json<{ withdrawal: WithdrawalView }>(expectOk(await desk.cli(['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '11', '--to', to, '--as', INITIATOR.name, '--json'], as(INITIATOR)))).withdrawal.id;
    const toKept = await request(kept);
    const toRemoved = await request(removed);
    const toStranger = await request(stranger);
    const payeeOf = async (): Promise<Map<string, string | null | undefined>> =>
      new Map(json<{ rows: WithdrawalView[] }>(expectOk(await desk.cli(['withdraw', 'list', '--json']))).rows.map((row) => [row.id, row.payee]));

    const before = await payeeOf();
    expect([before.get(toKept), before.get(toRemoved), before.get(toStranger)]).toEqual(['Contoso Pty', 'Contoso Pty', null]);

    expectOk(await desk.cli(['payees', 'remove-address', removed, '--chain', 'trx', '--as', INITIATOR.name], as(INITIATOR)));
    const after = await payeeOf();
    expect([after.get(toKept), after.get(toRemoved), after.get(toStranger)]).toEqual(['Contoso Pty', null, null]);
    const listed = expectOk(await desk.cli(['withdraw', 'list'])).stdout;
    expect(listed).toContain(`${kept} (payee Contoso Pty)`);
    expect(listed).toContain(removed);
    expect(listed).not.toContain(`${removed} (payee`);
    expect(listed).not.toContain(`${stranger} (payee`);
  });
});
