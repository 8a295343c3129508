// The poisoning radar in the CLI (in process, real sandbox, keychain and SQLite): dust from a look-alike of a book entry
// shows in `radar list` and `deposits list`, `withdraw preflight` to it exits 1 naming the book entry, and
// `radar clear` needs two admins (the first proposes, a second, independent one confirms) before it may be paid;
// `policy test` names the radar's rule, and `withdraw show` says the destination is flagged and held by it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressBookView, DepositAddressView, RadarView, WithdrawalView } from '../../../electron/contract';
import { ADMIN, APPROVER, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, SECOND_ADMIN, setUpDesk, type CliDesk } from './support';

let desk: CliDesk;
let depositAddress = '';
const known = randomBytes(20).toString('hex');
const other = (digit: string | undefined): string => (digit === 'a' ? 'b' : 'a');
/** Same first 4 and last 4 hex digits as the book entry, a different middle. */
const lookAlike = `0x${known.slice(0, 4)}${other(known[4])}${randomBytes(15).toString('hex')}${other(known[35])}${known.slice(36)}`;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  const added = json<AddressBookView>(expectOk(await desk.cli(['addressbook', 'add', `0x${known}`, '--chain', 'eth', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
  const pending = added.pending.find((entry) => entry.address === `0x${known}`);
  if (pending !== undefined) expectOk(await desk.cli(['addressbook', 'approve', pending.proposal, '--as', APPROVER.name], as(APPROVER)));
  const deposit = json<DepositAddressView>(expectOk(await desk.cli(['address', 'create', '--type', 'eth_bnb', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
  depositAddress = deposit.address;
  const credited = await desk.admin('POST', '/transfers', { toAddress: deposit.address, currency: 'bnb.usdt', amount: '1', fromAddress: lookAlike });
  expect(credited.status).toBe(200);
  expectOk(await desk.cli(['sync']));
}, 180_000);
afterAll(async () => desk?.close());

describe('treasury-desk radar', () => {
  it('lists the alert with its evidence, marks the deposit, refuses the look-alike, and clears it only with two admins', async () => {
    const listed = expectOk(await desk.cli(['radar', 'list'])).stdout;
    expect(listed).toContain(lookAlike);
    expect(listed).toContain(`eth:0x${known}`);
    expect(listed).toContain('the same first 4 and last 4 characters');
    expect(listed).toContain('1 of 1 refused at preflight, request and send until two admins clear them');
    expect(expectOk(await desk.cli(['deposits', 'list'])).stdout).toContain(`came from ${lookAlike}, which looks like eth:0x${known} (the same first 4 and last 4 characters): never copy it`);

    const preflight = ['withdraw', 'preflight', '--currency', 'bnb.usdt', '--amount', '5', '--to', lookAlike];
    const refused = await desk.cli(preflight);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`looks like book entry eth:0x${known} (the same first 4 and last 4 characters); a deposit from it on `);

    expect(expectFailure(await desk.cli(['radar', 'clear', lookAlike, '--as', INITIATOR.name], as(INITIATOR)), 1)).toMatch(/^treasury-desk: forbidden: carol is an initiator, not an admin/);
    const simulated = expectOk(await desk.cli(['policy', 'test', '--currency', 'bnb.usdt', '--amount', '5', '--to', lookAlike])).stdout;
    expect(simulated).toContain(`  REFUSES poisoning radar: ${lookAlike} looks like book entry eth:0x${known} (the same first 4 and last 4 characters); a deposit from it on `);
    const proposed = expectOk(await desk.cli(['radar', 'clear', lookAlike, '--as', ADMIN.name], as(ADMIN))).stdout;
    expect(proposed).toMatch(new RegExp(`^clearing ${lookAlike} \\(proposal [0-9a-f]{12} by alice\\) waits for an admin independent of alice to confirm\\n`));
    expect(json<RadarView>(expectOk(await desk.cli(['radar', 'list', '--json']))).alerts[0]?.status).toBe('clearing');
    expect((await desk.cli(preflight)).stderr).toContain('was likely address poisoning');
    expect(expectFailure(await desk.cli(['radar', 'clear', lookAlike, '--as', ADMIN.name], as(ADMIN)), 1)).toContain('another, independent admin confirms it');

    expect(expectOk(await desk.cli(['radar', 'clear', lookAlike, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN))).stdout).toBe(`${lookAlike} is cleared by alice and frank\n`);
    const after = json<RadarView>(expectOk(await desk.cli(['radar', 'list', '--json'])));
    expect(after).toMatchObject({ blocked: 0, alerts: [{ sender: lookAlike, status: 'cleared', clearedBy: ['alice', 'frank'] }] });
    expect(expectOk(await desk.cli(['policy', 'test', '--currency', 'bnb.usdt', '--amount', '5', '--to', lookAlike])).stdout).toContain(
      `  ok      poisoning radar: flagged by the poisoning radar: looks like eth:0x${known} (the same first 4 and last 4 characters), cleared by alice and frank\n`,
    );
    // Still refused for the balance (the desk holds only the dust), no longer for the radar.
    const cleared = await desk.cli(preflight);
    expect(cleared.stderr).toContain('does not cover amount plus fee');
    expect(cleared.stderr).not.toContain('poisoning');
  });

  it('withdraw show says a request made before its destination sent dust is flagged, not cleared, and held by the radar if sent now', async () => {
    expect((await desk.admin('PATCH', `/merchants/${desk.sandbox.credentials.merchantId}`, { balances: { 'bnb.usdt': '5000' } })).status).toBe(200);
    expectOk(await desk.cli(['sync']));
    const target = `0x${known.slice(0, 5)}${other(known[5])}${randomBytes(14).toString('hex')}${other(known[34])}${known.slice(35)}`;
    const requested = json<{ withdrawal: WithdrawalView }>(
      expectOk(await desk.cli(['withdraw', 'request', '--currency', 'bnb.usdt', '--amount', '20', '--to', target, '--as', INITIATOR.name, '--json'], as(INITIATOR))),
    ).withdrawal;
    expect((await desk.admin('POST', '/transfers', { toAddress: depositAddress, currency: 'bnb.usdt', amount: '1', fromAddress: target })).status).toBe(200);
    expectOk(await desk.cli(['sync']));
    const shown = expectOk(await desk.cli(['withdraw', 'show', requested.id])).stdout;
    expect(shown).toMatch(
      new RegExp(`Destination's standing +.*; flagged by the poisoning radar: looks like eth:0x${known} \\(the same first 5 and last 5 characters\\), not cleared: paying it is refused until two admins clear it`),
    );
    expect(shown).toMatch(new RegExp(`If sent now +HELD by the rules in force now: .*${target} looks like book entry eth:0x${known} \\(the same first 5 and last 5 characters\\)`));
  });
});
