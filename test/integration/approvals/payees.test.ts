// Payees (issue 21 item 1) on a real desk, real SQLite and the real sandbox on loopback: a payee with addresses on three
// chains is added and approved once; an address added later waits for its own approval; removing one stops requests
// and approved sends to it under "only from book"; a payee CSV keeps the batch payout file rules (BOM, CRLF, quoting,
// every bad line named, nothing signed or stored) and is approved as one batch; names are unique and not look-alikes.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base58 } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standingText } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { auditEntries, expectNoOrder, fundedDesk } from './support';

let desk: Desk;
beforeAll(async () => {
  desk = await fundedDesk();
}, 120_000);
afterAll(async () => desk?.close());

const evmAddress = (): string => `0x${randomBytes(20).toString('hex')}`;
const solanaAddress = (): string => base58.encode(randomBytes(32));

async function onlyFromBook(on: boolean): Promise<void> {
  const change = await desk.value('policies/set', { currency: 'trx.usdt', thresholds: [], dailyLimit: null, useFinancialConfirmation: false, onlyFromBook: on, as: ADMIN });
  await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
}

async function requestTo(toAddress: string): Promise<{ ok: true; id: string; userOrder: string } | { ok: false; message: string }> {
  const result = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '14', toAddress, as: INITIATOR });
  return result.ok ? { ok: true, id: result.value.withdrawal.id, userOrder: result.value.withdrawal.userOrder } : { ok: false, message: result.error.message };
}

describe('payees', () => {
  const acme = { trx: tronAddress(), eth: evmAddress(), solana: solanaAddress(), later: tronAddress() };

  it('adds a payee with addresses on three chains and approves it once; a later address waits for its own approval; removing one stops requests and approved sends', async () => {
    await onlyFromBook(true);
    const proposed = await desk.value('payees/add', {
      name: 'ACME GmbH',
      note: 'supplier',
      addresses: [{ chain: 'trx', address: acme.trx }, { chain: 'eth', address: acme.eth }, { chain: 'solana', address: acme.solana }],
      as: INITIATOR,
    });
    expect(proposed.payees).toEqual([]);
    expect(proposed.pending).toHaveLength(1);
    expect((await requestTo(acme.trx)).ok).toBe(false);
    // The proposer cannot approve it; an independent approver does, once, for all three addresses.
    expect(await desk.call('addressbook/approve', { proposal: proposed.pending[0]?.proposal, as: INITIATOR })).toMatchObject({ ok: false });
    await desk.value('addressbook/approve', { proposal: proposed.pending[0]?.proposal, as: APPROVER });
    const shown = await desk.value('payees/show', { payee: 'acme gmbh' });
    expect(shown).toMatchObject({ name: 'ACME GmbH', note: 'supplier', addedBy: INITIATOR.operator, approvedBy: APPROVER.operator });
    expect(shown.addresses.map((entry) => [entry.chain, entry.address, entry.approved]).sort()).toEqual(
      [
        ['eth', acme.eth, true],
        ['solana', acme.solana, true],
        ['trx', acme.trx, true],
      ].sort(),
    );
    const book = await desk.value('addressbook/list', {});
    expect(book.entries.filter((entry) => [acme.trx, acme.eth, acme.solana].includes(entry.address)).every((entry) => entry.approved)).toBe(true);

    // A later address: a book proposal naming the payee, waiting for its own approval.
    const later = await desk.value('payees/addAddress', { payee: 'ACME GmbH', chain: 'trx', address: acme.later, as: INITIATOR });
    expect(later.pending).toHaveLength(1);
    expect(later.pending[0]?.payees[0]).toMatchObject({ name: 'ACME GmbH', addresses: [{ chain: 'trx', address: acme.later }] });
    const refused = await requestTo(acme.later);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.message).toMatch(/only from book/);
    await desk.value('addressbook/approve', { proposal: later.pending[0]?.proposal, as: APPROVER });
    expect((await desk.value('payees/show', { payee: 'ACME GmbH' })).addresses).toHaveLength(4);

    // An approved request to a payee address, then the address removed: the request is refused and the send is held.
    const requested = await requestTo(acme.later);
    if (!requested.ok) expect.fail(requested.message);
    expect((await desk.value('withdrawals/approve', { id: requested.id, as: APPROVER })).state).toBe('approved');
    await desk.value('addressbook/remove', { chain: 'trx', address: acme.later, as: INITIATOR });
    expect((await desk.value('payees/show', { payee: 'ACME GmbH' })).addresses.map((entry) => entry.address)).not.toContain(acme.later);
    const again = await requestTo(acme.later);
    expect(again.ok).toBe(false);
    if (!again.ok) expect(again.message).toMatch(/allows only addresses from the address book/);
    const sent = await desk.call('withdrawals/submit', { id: requested.id, as: INITIATOR });
    if (sent.ok) expect.fail(`a send to a removed payee address went out: ${JSON.stringify(sent.value)}`);
    expect(sent.error).toMatchObject({ code: 'held' });
    expect(sent.error.message).toMatch(/allows only addresses from the address book/);
    await expectNoOrder(desk, requested.userOrder);
    // The payee's other addresses still take requests, and the approver sees the payee's name beside the address.
    const toPayee = await requestTo(acme.trx);
    if (!toPayee.ok) expect.fail(toPayee.message);
    const review = await desk.value('withdrawals/review', { id: toPayee.id });
    expect(review.destination.payee).toBe('ACME GmbH');
    expect(standingText(review.destination, String)).toMatch(/^payee ACME GmbH, in the address book since /);
    const unbooked = await desk.value('withdrawals/review', { id: requested.id });
    expect(unbooked.destination.payee ?? null).toBeNull();
    // The withdrawals export has a payee column beside the address.
    const exported = join(desk.dir, 'withdrawals.csv');
    await desk.value('withdrawals/exportCsv', { path: exported });
    const [header, ...lines] = readFileSync(exported, 'utf8').trim().split(/\r?\n/);
    const columns = (header ?? '').split(',');
    expect(columns[columns.indexOf('to_address') + 1]).toBe('payee');
    const payeeAt = (userOrder: string): string | undefined => lines.find((line) => line.includes(userOrder))?.split(',')[columns.indexOf('payee')];
    expect(payeeAt(toPayee.userOrder)).toBe('ACME GmbH');
    expect(payeeAt(requested.userOrder)).toBe('');
  });

  it('refuses a name taken in another letter case, a Unicode look-alike and control characters, signing nothing', async () => {
    const before = (await auditEntries(desk)).length;
    const add = (name: string): ReturnType<typeof desk.call<'payees/add'>> => desk.call('payees/add', { name, addresses: [{ chain: 'trx', address: tronAddress() }], as: INITIATOR });
    expect(await add('acme gmbh')).toMatchObject({ ok: false, error: { code: 'conflict', message: 'a payee is already named "ACME GmbH"' } });
    const alike = await add('\u0410CME GmbH');
    expect(alike).toMatchObject({ ok: false, error: { code: 'conflict' } });
    if (!alike.ok) expect(alike.error.message).toMatch(/looks like the payee "ACME GmbH"/);
    expect(await add('Evil\u202eCorp')).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
    expect((await auditEntries(desk)).length).toBe(before);
  });

  it('imports a CSV with the batch payout file rules: every bad line named and nothing stored, then the good file as one batch', async () => {
    const good = { a: tronAddress(), b: evmAddress(), c: tronAddress() };
    const bad = join(desk.dir, 'payees-bad.csv');
    writeFileSync(
      bad,
      '\uFEFFname,note,chain,address\r\n' +
        `"Payroll, Ltd","staff, monthly",trx,${good.a}\r\n` +
        `Payroll Ltd 2,,trx,Tnotanaddress\r\n` +
        `"Payroll, Ltd",,eth,${good.b}\r\n` +
        `Someone,,doge,${good.c}\r\n` +
        `Other,,eth,${good.b.toUpperCase().replace('0X', '0x')}\r\n` +
        `Dup,,trx,${acme.trx}\r\n`,
    );
    const before = { audit: (await auditEntries(desk)).length, payees: (await desk.value('payees/list', {})).payees.length };
    const refused = await desk.call('payees/import', { path: bad, as: INITIATOR });
    if (refused.ok) expect.fail('a file with bad lines was imported');
    expect(refused.error.code).toBe('invalidInput');
    expect(refused.error.message).toMatch(/nothing was signed or stored/);
    expect(Object.keys(refused.error.fields ?? {}).sort()).toEqual(['line 2', 'line 4', 'line 5', 'line 6']);
    expect(refused.error.fields?.['line 2']).toMatch(/Tnotanaddress is not a trx address/);
    expect(refused.error.fields?.['line 4']).toMatch(/is not a chain/);
    expect(refused.error.fields?.['line 5']).toMatch(/already on line 3/);
    expect(refused.error.fields?.['line 6']).toMatch(/already in the address book/);
    expect((await auditEntries(desk)).length).toBe(before.audit);
    const after = await desk.value('payees/list', {});
    expect(after.payees).toHaveLength(before.payees);
    expect(after.pending).toEqual([]);

    const file = join(desk.dir, 'payees.csv');
    writeFileSync(file, `\uFEFFname,note,chain,address\r\n"Payroll, Ltd","staff, monthly",trx,${good.a}\r\n"Payroll, Ltd",,eth,${good.b}\r\nBob,,trx,${good.c}\r\n`);
    const imported = await desk.value('payees/import', { path: file, as: INITIATOR });
    expect(imported.pending).toHaveLength(1);
    expect(imported.pending[0]?.payees.map((payee) => [payee.name, payee.note, payee.addresses.length])).toEqual([
      ['Payroll, Ltd', 'staff, monthly', 2],
      ['Bob', '', 1],
    ]);
    const approved = await desk.value('addressbook/approve', { proposal: imported.pending[0]?.proposal, as: APPROVER });
    expect(approved.pending).toEqual([]);
    const listed = await desk.value('payees/list', {});
    expect(listed.payees.map((payee) => payee.name).sort()).toEqual(['ACME GmbH', 'Bob', 'Payroll, Ltd']);
    expect((await requestTo(good.c)).ok).toBe(true);
    // A batch payout's lines name the payee of their address.
    const payouts = join(desk.dir, 'payouts.csv');
    writeFileSync(payouts, `currency,amount,toAddress,memo\ntrx.usdt,12,${good.c},\ntrx.usdt,13,${good.a},\n`);
    const batch = await desk.value('payouts/import', { path: payouts, as: INITIATOR });
    expect(batch.lines.map((line) => line.payee)).toEqual(['Bob', 'Payroll, Ltd']);
  });
});
