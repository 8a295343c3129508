// Search by label on a real engine and sandbox: deposits/list and withdrawals/list keep only the records whose label
// or note contains the text (case-insensitive), together with their other filters and across pages; the CSV export
// keeps the same rows; a blank label filter filters nothing; a stuck list refuses a label.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundedDesk, requestWithdrawal } from '../approvals/support';
import { INITIATOR, type Desk } from './support';

let desk: Desk;
/** apiOrder and txid of three synced deposits, oldest first. */
const deposits: { apiOrder: string; txid: string }[] = [];

beforeAll(async () => {
  desk = await fundedDesk(['initiator']);
  const address = await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR });
  for (const amount of ['10', '20', '30']) {
    const transfer = await desk.admin<{ deposit: { txid: string; apiOrder: string } }>('POST', '/transfers', { toAddress: address.address, currency: 'trx.usdt', amount });
    deposits.push(transfer.json.deposit);
  }
  expect((await desk.value('sync/run', {})).depositsNew).toBe(3);
}, 120_000);
afterAll(async () => desk?.close());

function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

describe('deposits/list by label', () => {
  it('keeps the deposits whose label or note contains the text, with the other filters, page by page', async () => {
    await desk.value('labels/set', { type: 'deposit', ref: nth(deposits, 0).apiOrder, label: 'Invoice 77 ACME', as: INITIATOR });
    await desk.value('labels/set', { type: 'deposit', ref: nth(deposits, 2).apiOrder, label: 'Refund', note: 'acme asked twice', as: INITIATOR });

    const orders = async (request: Record<string, unknown>): Promise<string[]> => (await desk.value('deposits/list', request)).rows.map((row) => row.apiOrder);
    // The list's own order (newest first; one sync stored all three at once, so by id), filtered.
    const labelled = (await orders({})).filter((apiOrder) => apiOrder !== nth(deposits, 1).apiOrder);
    expect(labelled).toHaveLength(2);
    expect(await orders({ label: 'acme' })).toEqual(labelled);
    expect(await orders({ label: 'INVOICE 77' })).toEqual([nth(deposits, 0).apiOrder]);
    expect(await orders({ label: 'nobody wrote this' })).toEqual([]);
    expect(await orders({ label: '  ' })).toHaveLength(3);
    // With a search: both must hold.
    expect(await orders({ label: 'acme', search: nth(deposits, 0).txid.slice(6, 20) })).toEqual([nth(deposits, 0).apiOrder]);
    expect(await orders({ label: 'acme', search: nth(deposits, 1).txid.slice(6, 20) })).toEqual([]);
    expect(await orders({ label: 'acme', currency: 'trx' })).toEqual([]);

    const first = await desk.value('deposits/list', { label: 'acme', limit: 1 });
    expect(first.rows.map((row) => row.apiOrder)).toEqual(labelled.slice(0, 1));
    expect(first.nextCursor).not.toBeNull();
    const second = await desk.value('deposits/list', { label: 'acme', limit: 1, cursor: first.nextCursor });
    expect(second.rows.map((row) => row.apiOrder)).toEqual(labelled.slice(1));
    expect(second.nextCursor).toBeNull();
  });

  it('exports the same rows as CSV, and refuses a label filter longer than a label', async () => {
    const path = join(desk.dir, 'acme.csv');
    expect((await desk.value('deposits/exportCsv', { label: 'acme', path })).rows).toBe(2);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain(nth(deposits, 0).apiOrder);
    expect(text).not.toContain(nth(deposits, 1).apiOrder);

    const tooLong = await desk.call('deposits/list', { label: 'x'.repeat(201) });
    expect(tooLong.ok).toBe(false);
    if (!tooLong.ok) expect(tooLong.error.message).toMatch(/at most 200 characters/);
  });
});

describe('withdrawals/list by label', () => {
  it('keeps the requests whose label or note contains the text, with a state filter; a stuck list refuses it', async () => {
    const rent = await requestWithdrawal(desk, '11');
    const other = await requestWithdrawal(desk, '12');
    await desk.value('labels/set', { type: 'withdrawal', ref: rent.userOrder, label: 'Rent March', note: 'office', as: INITIATOR });

    const ids = async (request: Record<string, unknown>): Promise<string[]> => (await desk.value('withdrawals/list', request)).rows.map((row) => row.id);
    expect(await ids({ label: 'rent' })).toEqual([rent.id]);
    expect(await ids({ label: 'OFFICE' })).toEqual([rent.id]);
    expect(await ids({ label: 'rent', state: 'awaitingApproval' })).toEqual([rent.id]);
    expect(await ids({ label: 'rent', state: 'cancelled' })).toEqual([]);
    expect(await ids({ label: '' })).toEqual([other.id, rent.id]);

    const stuck = await desk.call('withdrawals/list', { stuck: true, label: 'rent' });
    expect(stuck.ok).toBe(false);
    if (!stuck.ok) expect(stuck.error.message).toMatch(/without state, label or cursor/);

    // The CSV export holds what the filtered list shows.
    const path = join(desk.dir, 'rent.csv');
    expect((await desk.value('withdrawals/exportCsv', { label: 'rent', path })).rows).toBe(1);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain(rent.userOrder);
    expect(text).not.toContain(other.userOrder);
  });
});
