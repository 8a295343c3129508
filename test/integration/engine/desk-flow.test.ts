// The engine end to end against the real sandbox, keychain and SQLite: profile import, selfcheck, sync, deposits,
// addresses, and a withdrawal from request through approvals to a final status, with the audit chain intact.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APPROVER, INITIATOR, openDesk, SECOND_ADMIN, tronAddress, VIEWER, type Desk } from './support';

let desk: Desk;

beforeAll(async () => {
  desk = await openDesk();
  const merchantId = desk.sandbox.credentials.merchantId;
  expect((await desk.admin('PATCH', `/merchants/${merchantId}`, { balances: { 'trx.usdt': '5000', trx: '100' } })).status).toBe(200);
});
afterAll(async () => desk?.close());

describe('profiles and selfcheck', () => {
  it('keeps the credentials in the keychain and shows only fingerprints', async () => {
    const profiles = await desk.value('profiles/list', {});
    expect(profiles).toHaveLength(1);
    const [profile] = profiles;
    expect(profile).toMatchObject({ name: 'main', active: true, credentialSource: 'keychain', merchantId: desk.sandbox.credentials.merchantId });
    expect(profile?.platformKeyFingerprint).toMatch(/^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$/);
    const serialized = JSON.stringify(profiles);
    expect(serialized).not.toContain(desk.sandbox.credentials.secret);
    expect(serialized).not.toContain('PRIVATE KEY');
    expect(await desk.vault.listProfiles()).toEqual(['main']);
    // The database file (and its WAL) holds neither the secret nor any of the private key's base64 body.
    const bytes = ['', '-wal'].map((suffix) => (existsSync(desk.dbPath + suffix) ? readFileSync(desk.dbPath + suffix).toString('latin1') : '')).join('');
    const keyBody = desk.sandbox.credentials.merchantPrivateKey.split('\n').filter((line) => !line.startsWith('-----'));
    expect(bytes).not.toContain(desk.sandbox.credentials.secret);
    for (const line of keyBody.slice(1, 4)) expect(bytes).not.toContain(line);
  });

  it('runs selfcheck step by step and measures the clock drift', async () => {
    const report = await desk.value('selfcheck/run', {});
    expect(report.ok).toBe(true);
    expect(report.steps.map((step) => step.step)).toEqual(['token', 'request', 'response', 'echo', 'clock', 'version']);
    expect(Math.abs(report.clockDriftSeconds ?? 99)).toBeLessThanOrEqual(2);
  });
});

describe('sync and deposits', () => {
  it('syncs currencies and balances exactly', async () => {
    const report = await desk.value('sync/run', {});
    expect(report.currencies).toBe(13);
    const balances = await desk.value('balances/list', {});
    expect(balances.find((balance) => balance.currency === 'trx.usdt')).toMatchObject({ available: '5000', frozen: '0' });
    expect((await desk.value('sync/status', {})).connection.online).toBe(true);
  });

  it('caches a deposit made on the simulated chain and finds it by txid fragment', async () => {
    const created = await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR });
    expect(created.notes.join(' ')).toMatch(/USDC/);
    const transfer = await desk.admin<{ credited: boolean; deposit: { txid: string; apiOrder: string } }>('POST', '/transfers', {
      toAddress: created.address,
      currency: 'trx.usdt',
      amount: '250.5',
    });
    expect(transfer.json.credited).toBe(true);
    const report = await desk.value('sync/run', {});
    expect(report.depositsNew).toBe(1);
    const txid = transfer.json.deposit.txid;
    const page = await desk.value('deposits/list', { search: txid.slice(10, 22) });
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]).toMatchObject({ txid, address: created.address, currency: 'trx.usdt', source: 'query', userOrder: created.userOrder });
    // A second sync sees only known apiOrders and stores nothing new.
    expect((await desk.value('sync/run', {})).depositsNew).toBe(0);
  });

  it('refuses address creation by a viewer', async () => {
    const result = await desk.call('addresses/create', { addressType: 'ton', as: VIEWER });
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});

describe('the withdrawal desk', () => {
  it('takes a request through preflight, approval, submission and tracking to success', async () => {
    const toAddress = tronAddress();
    const check = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '100', toAddress });
    expect(check.ok).toBe(true);
    expect(check.newDestination).toBe(true);
    expect(check.serviceAddressCheck).toBe('accepted');
    expect(check.fee).not.toBeNull();
    // An address that fails the chain rules is not judged as a destination, and the service is not asked about it.
    const invalid = await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '100', toAddress: 'Tnot-an-address' });
    expect(invalid).toMatchObject({ ok: false, newDestination: null, serviceAddressCheck: 'notAsked' });
    const { withdrawal } = await desk.value('withdrawals/request', { currency: 'trx.usdt', amount: '100', toAddress, as: INITIATOR });
    expect(withdrawal.state).toBe('awaitingApproval');
    expect(withdrawal.userOrder).toMatch(/^td-\d{8}-[0-9a-f]{24}$/);

    const self = await desk.call('withdrawals/approve', { id: withdrawal.id, as: INITIATOR });
    expect(self).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const early = await desk.call('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(early).toMatchObject({ ok: false, error: { code: 'conflict' } });

    const approved = await desk.value('withdrawals/approve', { id: withdrawal.id, as: APPROVER });
    expect(approved.state).toBe('approved');
    const submitted = await desk.value('withdrawals/submit', { id: withdrawal.id, as: INITIATOR });
    expect(submitted.state).toBe('submitted');
    expect(submitted.orderStatus).toBe('pendingConfirm');

    const merchantId = desk.sandbox.credentials.merchantId;
    for (const to of ['pendingTransfer', 'pendingCallback', 'success']) {
      expect((await desk.admin('POST', `/withdrawals/${merchantId}/${withdrawal.userOrder}/advance`, { to })).status).toBe(200);
    }
    const report = await desk.value('sync/run', {});
    expect(report.withdrawalsChecked).toBe(1);
    const final = await desk.value('withdrawals/get', { id: withdrawal.id });
    expect(final).toMatchObject({ state: 'completed', outcome: 'success', orderStatus: 'success' });
    expect(final.txid).toBeTruthy();
    expect(final.history.map((event) => event.status)).toEqual(['pendingConfirm', 'success']);

    // The paid destination is now known: no "new destination" warning; a look-alike is flagged with its differences.
    expect((await desk.value('withdrawals/preflight', { currency: 'trx.usdt', amount: '1', toAddress })).newDestination).toBe(false);
    desk.sandbox.checkInvariant();
  });

  it('refuses a request over the balance, with the reason on the field', async () => {
    const result = await desk.call('withdrawals/request', { currency: 'trx.usdt', amount: '999999', toAddress: tronAddress(), as: INITIATOR });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('invalidInput');
      expect(result.error.fields?.['balance']).toMatch(/does not cover/);
    }
  });

  it('keeps the audit chain verifiable and records who did what', async () => {
    const verification = await desk.value('audit/verify', {});
    expect(verification.ok).toBe(true);
    const audit = await desk.value('audit/list', { limit: 200 });
    const actions = audit.rows.map((row) => `${row.action}:${row.operator ?? ''}`);
    expect(actions).toContain('withdrawals/request:carol');
    expect(actions).toContain('withdrawals/approve:bob');
    expect(actions).toContain('withdrawals/submit:carol');
    // The roster is signed statements: both founders sign the founding; alice invites, each operator accepts with
    // their own key, and frank (independent of alice) confirms it.
    expect(actions).toEqual(expect.arrayContaining([`operators/found:${ADMIN.operator}`, `operators/found:${SECOND_ADMIN.operator}`]));
    expect(actions).toEqual(expect.arrayContaining([`operators/enrol:${ADMIN.operator}`, 'operators/accept:bob', `operators/confirm:${SECOND_ADMIN.operator}`]));
    // Every row carries the fingerprint of the key that signed it.
    expect(audit.rows.every((row) => /^[A-Z2-7]{4}(-[A-Z2-7]{4}){3}$/.test(row.keyFingerprint))).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(desk.sandbox.credentials.secret);
  });
});
