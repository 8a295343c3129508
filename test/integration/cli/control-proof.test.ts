// Proof of control in the CLI (in process, real sandbox, keychain and SQLite): `addressbook prove` prints what to tell
// the payee (and refuses TON with its reason), `addressbook proof` says "control not proven" until the sandbox credits a
// deposit from the address, then "control proven on DATE by deposit TXID"; `--json` answers the same view; `policy set
// --proven-control-above` signs the option and `policy test` names it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressBookView, ControlProofView, PolicyView } from '../../../electron/contract';
import { ADMIN, APPROVER, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, SECOND_ADMIN, setUpDesk, tronAddress, type CliDesk } from './support';

let desk: CliDesk;
const payee = tronAddress();

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  const added = json<AddressBookView>(expectOk(await desk.cli(['addressbook', 'add', payee, '--chain', 'trx', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
  const pending = added.pending.find((entry) => entry.address === payee);
  if (pending !== undefined) expectOk(await desk.cli(['addressbook', 'approve', pending.proposal, '--as', APPROVER.name], as(APPROVER)));
  expectOk(await desk.cli(['sync']));
}, 180_000);
afterAll(async () => desk?.close());

describe('treasury-desk addressbook prove | proof', () => {
  it('refuses a chain that cannot prove it, with the reason, as bad input (exit 2)', async () => {
    const refused = expectFailure(await desk.cli(['addressbook', 'prove', 'ton', `0:${randomBytes(32).toString('hex')}`, '--as', INITIATOR.name], as(INITIATOR)), 2);
    expect(refused).toContain('the desk cannot prove control of a TON address');
  });

  it('starts a proof, tells what to ask the payee, and says "control proven" once the deposit from the address is verified', async () => {
    const started = expectOk(await desk.cli(['addressbook', 'prove', 'trx', payee, '--as', INITIATOR.name], as(INITIATOR))).stdout;
    expect(started).toContain(`trx:${payee}: control not proven\n`);
    const view = json<ControlProofView>(expectOk(await desk.cli(['addressbook', 'proof', 'trx', payee, '--json'])));
    expect(view).toMatchObject({ status: 'waiting', request: { currency: 'trx', minimum: '1', requestedBy: 'carol' } });
    const depositAddress = view.request?.depositAddress ?? '';
    expect(started).toContain(`ask the payee to send at least 1 TRX (TRON) FROM ${payee} TO ${depositAddress}, on TRON`);

    const credited = await desk.admin('POST', '/transfers', { toAddress: depositAddress, currency: 'trx', amount: '2', fromAddress: payee });
    expect(credited.status).toBe(200);
    expectOk(await desk.cli(['sync']));
    const status = expectOk(await desk.cli(['addressbook', 'proof', 'trx', payee])).stdout;
    const proven = json<ControlProofView>(expectOk(await desk.cli(['addressbook', 'proof', 'trx', payee, '--json'])));
    expect(proven.status).toBe('proven');
    expect(status).toMatch(new RegExp(`^trx:${payee}: control proven on .+ by deposit ${proven.evidence?.txid ?? 'none'}\n`));
  });

  it('signs the policy option and the simulator names it', async () => {
    const set = ['policy', 'set', '--currency', 'trx.usdt', '--proven-control-above', '100', '--as', ADMIN.name, '--json'];
    const change = json<{ proposal: { id: string }; applied: boolean }>(expectOk(await desk.cli(set, as(ADMIN))));
    if (!change.applied) expectOk(await desk.cli(['operator', 'confirm', change.proposal.id.slice(0, 12), '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(json<PolicyView[]>(expectOk(await desk.cli(['policy', 'list', '--json']))).find((policy) => policy.currency === 'trx.usdt')?.provenControlAbove).toBe('100');
    const unproven = tronAddress();
    const refused = (await desk.cli(['policy', 'test', '--currency', 'trx.usdt', '--amount', '150', '--to', unproven])).stdout;
    expect(refused).toContain(`  REFUSES proven control: the USDT on TRON policy pays only addresses whose control is proven above 100 trx.usdt ("proven control above"): control of trx:${unproven} is not proven`);
    const allowed = (await desk.cli(['policy', 'test', '--currency', 'trx.usdt', '--amount', '150', '--to', payee])).stdout;
    expect(allowed).toMatch(/ {2}ok {6}proven control: above 100 trx\.usdt only addresses whose control is proven: control proven on /);
  });
});
