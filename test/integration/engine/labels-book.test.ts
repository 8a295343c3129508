// Issue 13 on a real engine and sandbox: labels round-trip through export and import and search finds them; the
// address-book policy options refuse what they should ("only from book" until an independent operator approves the
// addition, "a new destination waits N hours" until its time); look-alike detection in the preflight catches a
// case-changed EVM address (the same entry) and the real WBTC poisoning address (a look-alike).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../approvals/support';
import { ADMIN, APPROVER, enrol, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, type Desk } from './support';

const WBTC_INTENDED = '0xd9A1b0B1e1aE382DbDc898Ea68012FfcB2853a91';
const WBTC_POISONED = '0xd9A1C3788D81257612E2581A6ea0aDa244853a91';
const HOUR = 3_600_000;

let desk: Desk;
/** Moves the engine's clock forward (the sandbox checks signed times: only the wait test moves it, and puts it back). */
let offset = 0;

beforeAll(async () => {
  desk = await openDesk({ profile: false, engine: { clock: () => Date.now() + offset } });
  await desk.value('profiles/importFile', { name: 'main', path: desk.sandbox.credentialsPath });
  await desk.value('operators/found', { admins: [ADMIN, SECOND_ADMIN] });
  await enrol(desk, APPROVER, 'approver');
  await enrol(desk, INITIATOR, 'initiator');
  await fund(desk, '5000');
}, 120_000);
afterAll(async () => desk?.close());

async function setPolicy(options: { onlyFromBook?: boolean; newDestinationWaitHours?: number }, currency = 'trx.usdt'): Promise<void> {
  const change = await desk.value('policies/set', { currency, thresholds: [], dailyLimit: null, useFinancialConfirmation: false, ...options, as: ADMIN });
  expect(change.applied).toBe(false);
  await desk.value('operators/confirm', { proposal: change.proposal.id, as: SECOND_ADMIN });
  const policy = (await desk.value('policies/list', {})).find((entry) => entry.currency === currency);
  expect(policy).toMatchObject({ onlyFromBook: options.onlyFromBook ?? false, newDestinationWaitHours: options.newDestinationWaitHours ?? 0 });
}

async function addAndApprove(chain: 'trx' | 'eth', address: string, label?: string): Promise<void> {
  const added = await desk.value('addressbook/add', { chain, address, as: INITIATOR, ...(label === undefined ? {} : { label }) });
  const pending = added.pending.find((entry) => entry.address === address);
  expect(pending).toBeDefined();
  await desk.value('addressbook/approve', { proposal: pending?.proposal, as: APPROVER });
}

describe('labels', () => {
  it('round-trip through export and import, and search finds them', async () => {
    const book = tronAddress();
    await desk.value('addressbook/add', { chain: 'trx', address: book, as: INITIATOR });
    const set = [
      { type: 'deposit', ref: 'API-ORDER-1', label: 'Invoice 1042 — ACME', note: 'paid late' },
      { type: 'withdrawal', ref: 'td-20250106-aa', label: 'Payroll January' },
      { type: 'addr', ref: 'TAddrForShopCheckout1', label: 'Shop checkout' },
      { type: 'book', ref: `trx:${book}`, label: 'Supplier ACME' },
    ] as const;
    for (const entry of set) await desk.value('labels/set', { ...entry, as: INITIATOR });
    expect((await desk.value('labels/search', { text: 'acme' })).map((view) => view.type).sort()).toEqual(['book', 'deposit']);
    expect((await desk.value('labels/search', { text: 'payroll', type: 'withdrawal' })).map((view) => view.ref)).toEqual(['td-20250106-aa']);
    // The book's label is the entry's label: addressbook/list shows what labels set wrote.
    expect((await desk.value('addressbook/list', {})).entries.find((entry) => entry.address === book)?.label).toBe('Supplier ACME');

    const path = join(desk.dir, 'labels.jsonl');
    expect((await desk.value('labels/export', { path })).rows).toBe(4);
    const lines = readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual({ type: 'deposit', ref: 'API-ORDER-1', label: 'Invoice 1042 — ACME', note: 'paid late' });
    expect(lines).toContainEqual({ type: 'book', ref: `trx:${book}`, label: 'Supplier ACME' });

    // Change everything, then import the export: every label is back.
    for (const entry of set) await desk.value('labels/set', { type: entry.type, ref: entry.ref, label: 'changed', as: INITIATOR });
    expect(await desk.value('labels/search', { text: 'acme' })).toEqual([]);
    expect((await desk.value('labels/import', { path, as: APPROVER })).rows).toBe(4);
    const restored = await desk.value('labels/search', { text: '' });
    for (const entry of set) expect(restored.find((view) => view.type === entry.type && view.ref === entry.ref)?.label).toBe(entry.label);
    expect((await desk.value('addressbook/list', {})).entries.find((entry) => entry.address === book)?.label).toBe('Supplier ACME');

    const actions = (await desk.value('audit/list', { limit: 50 })).rows.map((row) => row.action);
    expect(actions).toContain('labels/set');
    expect(actions).toContain('labels/import');
  });

  it('an import with a bad line changes nothing and names the line; control characters are refused', async () => {
    const path = join(desk.dir, 'bad.jsonl');
    writeFileSync(
      path,
      [
        JSON.stringify({ type: 'deposit', ref: 'API-ORDER-1', label: 'would overwrite' }),
        '',
        JSON.stringify({ type: 'deposit', ref: 'API-ORDER-2', label: 'evil\u202Etxt' }),
        '{not json',
        JSON.stringify({ type: 'planet', ref: 'x', label: 'y' }),
      ].join('\n'),
    );
    const result = await desk.call('labels/import', { path, as: INITIATOR });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/line 3: the label contains .*line 4: not a JSON object.*line 5: type must be one of/);
    expect((await desk.value('labels/search', { text: '', type: 'deposit' })).find((view) => view.ref === 'API-ORDER-1')?.label).toBe('Invoice 1042 — ACME');

    const refused = await desk.call('labels/set', { type: 'deposit', ref: 'API-ORDER-1', label: 'bell\u0007', as: INITIATOR });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('invalidInput');
    const tooLong = await desk.call('labels/set', { type: 'deposit', ref: 'API-ORDER-1', label: 'x'.repeat(201), as: INITIATOR });
    expect(tooLong.ok).toBe(false);
  });
});

describe('address-book policies', () => {
  it('"only from book" refuses a destination until an independent operator approved its addition', async () => {
    await setPolicy({ onlyFromBook: true });
    const address = tronAddress();
    const check = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '10', toAddress: address });
    expect(check.ok).toBe(false);
    expect(check.errors.map((issue) => issue.message).join(' ')).toMatch(/only from book/);
    const refused = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: address, as: INITIATOR });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/only addresses from the address book/);

    const added = await desk.value('addressbook/add', { chain: 'trx', address, label: 'Vendor', as: INITIATOR });
    const pending = added.pending.find((entry) => entry.address === address);
    expect(pending?.proposer).toBe('carol');
    expect(added.entries.find((entry) => entry.address === address)?.approved).toBe(false);
    const stillRefused = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: address, as: INITIATOR });
    expect(!stillRefused.ok && stillRefused.error.message).toMatch(/waits for another operator's approval/);

    // The proposer cannot approve their own addition (an initiator may not approve at all; an admin of the same party neither).
    const self = await desk.call('addressbook/approve', { proposal: pending?.proposal, as: INITIATOR });
    expect(self.ok).toBe(false);
    const approved = await desk.value('addressbook/approve', { proposal: pending?.proposal, as: APPROVER });
    expect(approved.entries.find((entry) => entry.address === address)).toMatchObject({ approved: true, addedBy: 'carol', approvedBy: 'bob' });
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: address, as: INITIATOR });
    expect(withdrawal.state).toBe('awaitingApproval');

    // Removing it from the book refuses it again.
    await desk.value('addressbook/remove', { chain: 'trx', address, as: INITIATOR });
    expect((await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '10', toAddress: address })).ok).toBe(false);
  });

  it('a row written into the address_book table does not put an address in the book', async () => {
    const address = tronAddress();
    const raw = await import('better-sqlite3');
    const db = new raw.default(desk.dbPath);
    db.prepare("INSERT INTO address_book (profile, chain, address, label, created_at) VALUES ('main', 'trx', ?, 'planted', 1)").run(address);
    db.close();
    const check = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '10', toAddress: address });
    expect(check.errors.map((issue) => issue.message).join(' ')).toMatch(/only from book/);
  });

  it('"a new destination waits N hours" refuses until the time it names', async () => {
    await setPolicy({ newDestinationWaitHours: 24 });
    const address = tronAddress();
    const unseen = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '10', toAddress: address });
    expect(unseen.errors.map((issue) => issue.message).join(' ')).toMatch(/wait 24 h.*not in the address book, so its wait has not started/);
    const added = Date.now();
    await addAndApprove('trx', address);
    offset = 23 * HOUR;
    const early = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: address, as: INITIATOR });
    expect(early.ok).toBe(false);
    if (!early.ok) expect(early.error.message).toMatch(/may be paid from \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const allowedAt = Date.parse(`${(!early.ok && /from (\S+ \S+) UTC/.exec(early.error.message)?.[1]) || ''}Z`);
    expect(allowedAt - added).toBeGreaterThan(24 * HOUR - 120_000);
    expect(allowedAt - added).toBeLessThan(24 * HOUR + 120_000);
    offset = 24 * HOUR + 60_000;
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: address, as: INITIATOR });
    expect(withdrawal.state).toBe('awaitingApproval');
    offset = 0;
    await setPolicy({});
  });

  it('a row dated long ago in the address_book table does not start the wait: only the signed addition does', async () => {
    await setPolicy({ newDestinationWaitHours: 24 });
    const address = tronAddress();
    const raw = await import('better-sqlite3');
    const db = new raw.default(desk.dbPath);
    db.prepare("INSERT INTO address_book (profile, chain, address, label, created_at) VALUES ('main', 'trx', ?, 'planted', 1)").run(address);
    db.close();
    const planted = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '10', toAddress: address, as: INITIATOR });
    expect(!planted.ok && planted.error.message).toMatch(/wait 24 h.*not in the address book, so its wait has not started/);
    await setPolicy({});
  });
});

describe('look-alike detection in the preflight', () => {
  it('a case-changed EVM address is the book entry itself; the WBTC poisoning address is flagged', async () => {
    await setPolicy({ onlyFromBook: true }, 'eth.usdt');
    await addAndApprove('eth', WBTC_INTENDED, 'Cold wallet');
    const sameInOtherCase = await desk.value('withdrawals/preflight', { currency: 'eth.usdt', amount: '10', toAddress: WBTC_INTENDED.toLowerCase() });
    expect(sameInOtherCase.errors.map((issue) => issue.message).join(' ')).not.toMatch(/only from book/);
    expect(sameInOtherCase.lookAlike).toEqual([]);
    const poisoned = await desk.value('withdrawals/preflight', { currency: 'eth.usdt', amount: '10', toAddress: WBTC_POISONED });
    expect(poisoned.lookAlike).toEqual([expect.objectContaining({ knownAddress: WBTC_INTENDED, label: 'Cold wallet' })]);
    expect(poisoned.errors.map((issue) => issue.message).join(' ')).toMatch(/only from book/);
    // The same EVM address serves the BNB chain: a bnb.usdt payout to the poisoning address is flagged against the eth entry.
    const onBnb = await desk.value('withdrawals/preflight', { currency: 'bnb.usdt', amount: '10', toAddress: WBTC_POISONED });
    expect(onBnb.lookAlike).toEqual([expect.objectContaining({ knownAddress: WBTC_INTENDED, label: 'Cold wallet' })]);
    // Positions are on the normalized form: the poisoning address in lower case differs at the same places.
    const lower = await desk.value('withdrawals/preflight', { currency: 'eth.usdt', amount: '10', toAddress: WBTC_POISONED.toLowerCase() });
    expect(lower.lookAlike[0]?.differingPositions).toEqual(poisoned.lookAlike[0]?.differingPositions);
  });
});
