// The smaller repositories: profiles (no secrets), currencies, balance snapshots, deposit addresses, the address
// book, policies, sync state and settings.
import { beforeAll, describe, expect, it } from 'vitest';
import { deleteAddressBookEntry, getAddressBookEntry, listAddressBook, recordAddressUse, saveAddressBookEntry } from '../../../electron/core/address-book/address-book-table';
import { findDepositAddresses, getDepositAddressByUserOrder, listDepositAddresses, saveDepositAddress, setDepositAddressLabel } from '../../../electron/core/addresses/addresses-table';
import { latestBalances, listBalanceHistory, recordBalances } from '../../../electron/core/merchant/balances-table';
import { getCurrency, listCurrencies, replaceCurrencies } from '../../../electron/core/merchant/currencies-table';
import { type StoreDatabase } from '../../../electron/core/store/database';
import { insertOrTouchDeposit } from '../../../electron/core/deposits/deposits-table';
import { deletePolicy, getPolicy, listPolicies, setPolicy } from '../../../electron/core/operators/policies-table';
import { createProfile, deleteProfile, getProfile, listProfiles, updateProfile } from '../../../electron/core/profiles/profiles-table';
import { deleteSetting, getSetting, listSettings, setSetting } from '../../../electron/core/profiles/settings-table';
import { getSyncState, listSyncState, recordSyncAttempt, recordSyncFailure, recordSyncSuccess, setSyncProgress } from '../../../electron/core/sync/sync-state-table';
import { createWithdrawalRequest } from '../../../electron/core/withdrawals/withdrawals-table';
import { depositRecord, PROFILE, seededDatabase, useTempDir } from './helpers';

const temp = useTempDir();
let db: StoreDatabase;

beforeAll(() => {
  db = seededDatabase(temp);
});

describe('profiles', () => {
  it('creates, reads, updates and lists profiles', () => {
    const created = createProfile(db, { name: 'demo', baseUrl: 'http://127.0.0.1:8080', merchantId: 'DEMO', demo: true, callbackHost: '127.0.0.1', callbackPort: 9090 }, 7);
    expect(created).toEqual({
      name: 'demo',
      baseUrl: 'http://127.0.0.1:8080',
      merchantId: 'DEMO',
      callbackHost: '127.0.0.1',
      callbackPort: 9090,
      demo: true,
      createdAt: 7,
      updatedAt: 7,
    });
    const updated = updateProfile(db, 'demo', { callbackPort: null, merchantId: 'DEMO-2' }, 8);
    expect(updated).toMatchObject({ callbackHost: '127.0.0.1', callbackPort: null, merchantId: 'DEMO-2', demo: true, createdAt: 7, updatedAt: 8 });
    expect(getProfile(db, 'demo')).toEqual(updated);
    expect(listProfiles(db).map((p) => p.name)).toEqual(['demo', PROFILE]);
    expect(() => createProfile(db, { name: 'demo', baseUrl: 'x', merchantId: 'y' })).toThrow(/already exists/);
    expect(() => updateProfile(db, 'nobody', {})).toThrow(/no profile/);
    expect(() => createProfile(db, { name: 'bad-port', baseUrl: 'x', merchantId: 'y', callbackPort: 70_000 })).toThrow(/port/);
  });

  it('has nowhere to put a secret', () => {
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('profiles');
    expect(columns).toEqual(['name', 'base_url', 'merchant_id', 'callback_host', 'callback_port', 'demo', 'created_at', 'updated_at']);
  });

  it('deletes a profile with its cached history, but not one with withdrawal requests', () => {
    createProfile(db, { name: 'temp', baseUrl: 'https://t', merchantId: 'T' });
    insertOrTouchDeposit(db, 'temp', depositRecord(1), 'query', 1);
    replaceCurrencies(db, 'temp', [{ symbol: 'trx' }]);
    expect(deleteProfile(db, 'temp')).toBe(true);
    expect(db.prepare("SELECT count(*) FROM deposits WHERE profile = 'temp'").pluck().get()).toBe(0);
    expect(deleteProfile(db, 'temp')).toBe(false);

    createProfile(db, { name: 'busy', baseUrl: 'https://b', merchantId: 'B' });
    createWithdrawalRequest(db, { profile: 'busy', currency: 'trx', amount: '1', toAddress: 'T', withdrawType: 'normal', userOrder: 'BUSY-1', initiator: 'alice' });
    expect(() => deleteProfile(db, 'busy')).toThrow(/has withdrawal requests/);
    expect(getProfile(db, 'busy')).toBeDefined();
  });
});

describe('currencies', () => {
  it('replaces the fetched list, keeping each record whole', () => {
    const trx = { name: 'TRX', symbol: 'trx', deposit_min: '1', withdraw_min: '10', future_field: { x: 1 } };
    replaceCurrencies(db, PROFILE, [trx, { symbol: 'trx.usdt', name: 'USDT' }], 100);
    expect(listCurrencies(db, PROFILE).map((c) => c.symbol)).toEqual(['trx', 'trx.usdt']);
    expect(getCurrency(db, PROFILE, 'trx')).toEqual({ profile: PROFILE, symbol: 'trx', record: trx, fetchedAt: 100 });
    replaceCurrencies(db, PROFILE, [{ symbol: 'eth', name: 'ETH' }], 200);
    expect(listCurrencies(db, PROFILE).map((c) => [c.symbol, c.fetchedAt])).toEqual([['eth', 200]]);
    expect(() => replaceCurrencies(db, PROFILE, [{ symbol: 'x' }, { symbol: 'x' }])).toThrow(/twice/);
    expect(listCurrencies(db, PROFILE)).toHaveLength(1);
  });
});

describe('balances', () => {
  it('adds a snapshot only when a balance changes (compared as decimals) and extends the latest otherwise', () => {
    expect(recordBalances(db, PROFILE, [{ currency: 'trx', available: '10.5', frozen: '0' }, { currency: 'eth', available: '1', frozen: '0.1' }], 1_000)).toEqual(['trx', 'eth']);
    expect(recordBalances(db, PROFILE, [{ currency: 'trx', available: '10.50', frozen: '0.0' }, { currency: 'eth', available: '2', frozen: '0.1' }], 2_000)).toEqual(['eth']);
    expect(latestBalances(db, PROFILE).map((b) => [b.currency, b.available, b.frozen, b.observedAt, b.lastObservedAt])).toEqual([
      ['eth', '2', '0.1', 2_000, 2_000],
      ['trx', '10.5', '0', 1_000, 2_000],
    ]);
    recordBalances(db, PROFILE, [{ currency: 'eth', available: '3', frozen: '0' }], 3_000);
    const first = listBalanceHistory(db, { profile: PROFILE, currency: 'eth', limit: 2 });
    expect(first.rows.map((b) => b.available)).toEqual(['3', '2']);
    expect(listBalanceHistory(db, { profile: PROFILE, currency: 'eth', limit: 2, after: first.nextCursor }).rows.map((b) => b.available)).toEqual(['1']);
    expect(() => recordBalances(db, PROFILE, [{ currency: 'trx', available: '-1', frozen: '0' }])).toThrow(/decimal/);
  });
});

describe('deposit addresses', () => {
  it('keeps one address per userOrder and reports a different answer as a conflict', () => {
    const record = { address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', addressType: 'trx', userOrder: 'cust-1' };
    const saved = saveDepositAddress(db, PROFILE, record, 100, 'Customer one');
    expect(saved).toMatchObject({ isNew: true, conflict: false, address: { ...record, label: 'Customer one', createdAt: 100, raw: record } });
    expect(saveDepositAddress(db, PROFILE, record, 200)).toMatchObject({ isNew: false, conflict: false });
    expect(saveDepositAddress(db, PROFILE, { ...record, addressType: 'eth_bnb', address: '0xabc' }, 300)).toMatchObject({
      isNew: false,
      conflict: true,
      address: { address: record.address, addressType: 'trx' },
    });
    expect(setDepositAddressLabel(db, PROFILE, 'cust-1', 'Renamed')).toBe(true);
    expect(getDepositAddressByUserOrder(db, PROFILE, 'cust-1')?.label).toBe('Renamed');
    expect(findDepositAddresses(db, PROFILE, record.address)).toHaveLength(1);
    saveDepositAddress(db, PROFILE, { address: '0xdef', addressType: 'eth_bnb', userOrder: 'cust-2' }, 400);
    saveDepositAddress(db, PROFILE, { address: '0x123', addressType: 'eth_bnb', userOrder: 'cust-3' }, 500);
    const page = listDepositAddresses(db, { profile: PROFILE, limit: 2 });
    expect(page.rows.map((a) => a.userOrder)).toEqual(['cust-3', 'cust-2']);
    expect(listDepositAddresses(db, { profile: PROFILE, limit: 2, after: page.nextCursor }).rows.map((a) => a.userOrder)).toEqual(['cust-1']);
    expect(listDepositAddresses(db, { profile: PROFILE, addressType: 'trx', limit: 5 }).rows).toHaveLength(1);
  });
});

describe('address book', () => {
  it('counts uses, keeps first and last use, and labels entries', () => {
    expect(recordAddressUse(db, PROFILE, 'trx', 'TDest1', 1_000)).toMatchObject({ useCount: 1, firstUsedAt: 1_000, lastUsedAt: 1_000, label: null });
    expect(recordAddressUse(db, PROFILE, 'trx', 'TDest1', 3_000)).toMatchObject({ useCount: 2, firstUsedAt: 1_000, lastUsedAt: 3_000 });
    expect(recordAddressUse(db, PROFILE, 'trx', 'TDest1', 2_000)).toMatchObject({ useCount: 3, lastUsedAt: 3_000 });
    saveAddressBookEntry(db, PROFILE, { chain: 'trx', address: 'TDest1', label: 'Supplier A' }, 4_000);
    saveAddressBookEntry(db, PROFILE, { chain: 'eth', address: '0xnever', label: 'Cold wallet' }, 4_000);
    expect(getAddressBookEntry(db, PROFILE, 'trx', 'TDest1')).toMatchObject({ label: 'Supplier A', useCount: 3 });
    expect(listAddressBook(db, PROFILE).map((e) => e.address)).toEqual(['TDest1', '0xnever']);
    expect(listAddressBook(db, PROFILE, 'eth').map((e) => [e.label, e.useCount, e.firstUsedAt])).toEqual([['Cold wallet', 0, null]]);
    expect(deleteAddressBookEntry(db, PROFILE, 'eth', '0xnever')).toBe(true);
    expect(() => recordAddressUse(db, PROFILE, 'trx', '')).toThrow(/address/);
  });
});

describe('policies', () => {
  it('stores thresholds as JSON, the daily limit as a decimal string, and the financial confirmation flag', () => {
    const policy = { thresholds: [{ above: '0', approvals: 1 }, { above: '10000.5', approvals: 2 }], dailyLimit: '250000', useFinancialConfirmation: true };
    expect(setPolicy(db, PROFILE, 'trx.usdt', policy, 10)).toEqual({ profile: PROFILE, currency: 'trx.usdt', ...policy, updatedAt: 10 });
    setPolicy(db, PROFILE, 'trx.usdt', { ...policy, dailyLimit: null }, 20);
    expect(getPolicy(db, PROFILE, 'trx.usdt')).toMatchObject({ dailyLimit: null, updatedAt: 20 });
    expect(listPolicies(db, PROFILE)).toHaveLength(1);
    expect(() => setPolicy(db, PROFILE, 'trx', { ...policy, thresholds: [{ above: '1e3', approvals: 1 }] })).toThrow(/decimal/);
    expect(() => setPolicy(db, PROFILE, 'trx', { ...policy, thresholds: [{ above: '1', approvals: 1.5 }] })).toThrow(/thresholds/);
    expect(() => setPolicy(db, PROFILE, 'trx', { ...policy, dailyLimit: '-5' })).toThrow(/daily limit/);
    expect(getPolicy(db, PROFILE, 'trx')).toBeUndefined();
    expect(deletePolicy(db, PROFILE, 'trx.usdt')).toBe(true);
  });
});

describe('sync state', () => {
  it('records attempts, successes with progress, and failures, clearing the error on success', () => {
    recordSyncAttempt(db, PROFILE, 'deposits', 100);
    setSyncProgress(db, PROFILE, 'deposits', { page: 7 });
    recordSyncFailure(db, PROFILE, 'deposits', { kind: 'network', message: 'the service cannot be reached' }, 200);
    expect(getSyncState(db, PROFILE, 'deposits')).toEqual({
      profile: PROFILE,
      resource: 'deposits',
      lastAttemptAt: 200,
      lastSuccessAt: null,
      lastErrorKind: 'network',
      lastErrorMessage: 'the service cannot be reached',
      progress: { page: 7 },
    });
    recordSyncSuccess(db, PROFILE, 'deposits', undefined, 300);
    expect(getSyncState(db, PROFILE, 'deposits')).toMatchObject({ lastSuccessAt: 300, lastErrorKind: null, lastErrorMessage: null, progress: { page: 7 } });
    recordSyncSuccess(db, PROFILE, 'balances', { complete: true }, 400);
    expect(listSyncState(db, PROFILE).map((s) => [s.resource, s.progress])).toEqual([
      ['balances', { complete: true }],
      ['deposits', { page: 7 }],
    ]);
  });
});

describe('settings', () => {
  it('stores JSON values by key', () => {
    setSetting(db, 'lockTimeoutSeconds', 300, 1);
    setSetting(db, 'ui', { theme: 'dark', columns: ['txid', 'amount'] }, 2);
    expect(getSetting(db, 'lockTimeoutSeconds')).toBe(300);
    expect(getSetting(db, 'ui')).toEqual({ theme: 'dark', columns: ['txid', 'amount'] });
    expect(getSetting(db, 'missing')).toBeUndefined();
    expect(listSettings(db)).toMatchObject({ lockTimeoutSeconds: 300 });
    expect(deleteSetting(db, 'ui')).toBe(true);
    expect(() => setSetting(db, 'bad', undefined)).toThrow(/JSON/);
  });
});
