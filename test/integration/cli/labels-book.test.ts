// Issue 13 in the CLI (in process, real sandbox, keychain and SQLite): `policy set --only-from-book` refuses a
// withdrawal to an address outside the book until `addressbook add` is approved by an independent operator; labels
// set, search, export and import (all or nothing) as the issue names them; a labels or payouts file that is a FIFO or
// a device is refused at once, before a byte is read (issue 23, item 7).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressBookView, LabelView, PolicyChangeView } from '../../../electron/contract';
import { ADMIN, APPROVER, as, expectFailure, expectOk, INITIATOR, json, openCliDesk, SECOND_ADMIN, setUpDesk, tronAddress, type CliDesk } from './support';

let desk: CliDesk;

beforeAll(async () => {
  desk = await openCliDesk();
  await setUpDesk(desk);
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000' } })).status).toBe(200);
  expectOk(await desk.cli(['sync']));
}, 180_000);
afterAll(async () => desk?.close());

describe('addressbook and the "only from book" policy', () => {
  it('refuses outside the book, and allows after an independent approval', async () => {
    const change = json<PolicyChangeView>(expectOk(await desk.cli(['policy', 'set', '--currency', 'trx.usdt', '--only-from-book', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expect(change.policy.onlyFromBook).toBe(true);
    expectOk(await desk.cli(['operator', 'confirm', change.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(expectOk(await desk.cli(['policy', 'list'])).stdout).toMatch(/^currency\s+.*only from book\s+new destination waits\s+windows\s+destination caps\s+unusual amount\s+proven control above$/m);
    expect(expectOk(await desk.cli(['policy', 'list'])).stdout).toMatch(/^trx\.usdt\s+.*normal\s+yes\s+no\s+none\s+none\s+none\s+off$/m);

    const to = tronAddress();
    const request = ['withdraw', 'request', '--currency', 'trx.usdt', '--amount', '25', '--to', to, '--as', INITIATOR.name];
    expect(expectFailure(await desk.cli(request, as(INITIATOR)), 1)).toMatch(/only addresses from the address book \("only from book"\)/);

    const added = json<AddressBookView>(expectOk(await desk.cli(['addressbook', 'add', to, '--chain', 'trx', '--label', 'Supplier', '--as', INITIATOR.name, '--json'], as(INITIATOR))));
    const pending = added.pending.find((entry) => entry.address === to);
    expect(pending).toBeDefined();
    expect(expectOk(await desk.cli(['addressbook', 'list'])).stdout).toContain(`waiting for approval: trx:${to}, added by carol`);
    expect(expectFailure(await desk.cli(request, as(INITIATOR)), 1)).toMatch(/waits for another operator's approval/);

    expectOk(await desk.cli(['addressbook', 'approve', (pending?.proposal ?? '').slice(0, 12), '--as', APPROVER.name], as(APPROVER)));
    const listed = json<AddressBookView>(expectOk(await desk.cli(['addressbook', 'list', '--json'])));
    expect(listed.entries.find((entry) => entry.address === to)).toMatchObject({ approved: true, label: 'Supplier', addedBy: 'carol', approvedBy: 'bob' });
    expectOk(await desk.cli(request, as(INITIATOR)));

    expectOk(await desk.cli(['addressbook', 'label', to, 'Supplier B', '--chain', 'trx', '--as', INITIATOR.name], as(INITIATOR)));
    const search = json<LabelView[]>(expectOk(await desk.cli(['labels', 'search', 'supplier b', '--json'])));
    expect(search).toEqual([expect.objectContaining({ type: 'book', ref: `trx:${to}`, label: 'Supplier B' })]);

    expectOk(await desk.cli(['addressbook', 'remove', to, '--chain', 'trx', '--as', INITIATOR.name], as(INITIATOR)));
    expect(expectFailure(await desk.cli(request, as(INITIATOR)), 1)).toMatch(/only from book/);
  });
});

describe('policy list', () => {
  it('shows the "new destination waits" option once in force', async () => {
    const change = json<PolicyChangeView>(expectOk(await desk.cli(['policy', 'set', '--currency', 'trx', '--new-destination-wait', '24', '--as', ADMIN.name, '--json'], as(ADMIN))));
    expect(expectOk(await desk.cli(['policy', 'list'])).stdout).toMatch(/^trx\s+.*normal\s+no\s+no\s+none\s+none\s+none\s+off$/m);
    expectOk(await desk.cli(['operator', 'confirm', change.proposal.id, '--as', SECOND_ADMIN.name], as(SECOND_ADMIN)));
    expect(expectOk(await desk.cli(['policy', 'list'])).stdout).toMatch(/^trx\s+.*normal\s+no\s+24 h\s+none\s+none\s+none\s+off$/m);
  });
});

describe('labels export | import | set', () => {
  it('round-trips, and an import with a bad line applies nothing', async () => {
    expectOk(await desk.cli(['labels', 'set', 'withdrawal', 'td-20250101-abc', 'Rent March', '--note', 'office', '--as', INITIATOR.name], as(INITIATOR)));
    expectOk(await desk.cli(['labels', 'set', 'deposit', 'API-7', 'Customer 7', '--as', APPROVER.name], as(APPROVER)));
    const file = join(desk.dir, 'labels.jsonl');
    expect(expectOk(await desk.cli(['labels', 'export', file])).stdout).toMatch(/labels? written to/);
    const exported = readFileSync(file, 'utf8');
    expect(exported).toContain('{"type":"withdrawal","ref":"td-20250101-abc","label":"Rent March","note":"office"}\n');

    expectOk(await desk.cli(['labels', 'set', 'withdrawal', 'td-20250101-abc', '', '--as', INITIATOR.name], as(INITIATOR)));
    expect(json<LabelView[]>(expectOk(await desk.cli(['labels', 'search', 'rent', '--json'])))).toEqual([]);
    expectOk(await desk.cli(['labels', 'import', file, '--as', INITIATOR.name], as(INITIATOR)));
    expect(json<LabelView[]>(expectOk(await desk.cli(['labels', 'search', 'rent', '--json'])))).toEqual([expect.objectContaining({ ref: 'td-20250101-abc', note: 'office' })]);

    const bad = join(desk.dir, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify({ type: 'deposit', ref: 'API-7', label: 'overwritten' })}\n${JSON.stringify({ type: 'withdrawal', ref: 'has space', label: 'x' })}\n`);
    expect(expectFailure(await desk.cli(['labels', 'import', bad, '--as', INITIATOR.name], as(INITIATOR)), 2)).toMatch(/nothing was imported .*line 2: a withdrawal ref is its userOrder/);
    expect(json<LabelView[]>(expectOk(await desk.cli(['labels', 'search', 'customer', '--json'])))).toEqual([expect.objectContaining({ label: 'Customer 7' })]);
    expect(expectFailure(await desk.cli(['labels', 'set', 'planet', 'x', 'y', '--as', INITIATOR.name], as(INITIATOR)), 2)).toMatch(/TYPE: a label type is/);
  });

  it('refuses a device and a FIFO as the file to import at once, reading nothing (a FIFO with no writer once blocked 8 s)', async () => {
    const zero = await desk.cli(['labels', 'import', '/dev/zero', '--as', INITIATOR.name], as(INITIATOR));
    expect(expectFailure(zero, 2)).toMatch(/could not read the labels file \/dev\/zero: it is not a regular file/);
    const fifo = join(desk.dir, 'payouts.fifo');
    execFileSync('mkfifo', [fifo]);
    const payouts = await desk.cli(['payouts', 'import', fifo, '--as', INITIATOR.name], as(INITIATOR));
    expect(expectFailure(payouts, 2)).toMatch(/could not read the payout file .*payouts\.fifo: it is not a regular file/);
    const labels = await desk.cli(['labels', 'import', fifo, '--as', INITIATOR.name], as(INITIATOR));
    expect(expectFailure(labels, 2)).toMatch(/it is not a regular file/);
  });
});
