// The desk's reporting time zone against the real engine, keychain and sandbox: UTC until an admin sets an IANA zone;
// only an admin may change it, signed in the audit log; a bad name changes nothing; it survives a restart; the faces
// hear of it (session/changed); and the deposits CSV writes its instants in that zone with the offset, exactly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContractEvent } from '../../../electron/contract';
import { ADMIN, APPROVER, INITIATOR, openDesk, VIEWER, type Desk } from './support';

let desk: Desk;
beforeAll(async () => {
  desk = await openDesk();
}, 60_000);
afterAll(async () => desk?.close());

describe('the reporting time zone setting', () => {
  it('is UTC until an admin chooses one', async () => {
    expect((await desk.value('session/state', {})).reportingTimeZone).toBe('UTC');
  });

  it('refuses anyone but an admin, and names that are not IANA zones, changing nothing', async () => {
    for (const as of [APPROVER, INITIATOR, VIEWER]) {
      expect(await desk.call('settings/setReportingTimeZone', { timeZone: 'Europe/Berlin', as })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    for (const timeZone of ['Mars/Olympus', '+01:00', '', 'Europe/Berlin\u202e', 'x'.repeat(101)]) {
      const result = await desk.call('settings/setReportingTimeZone', { timeZone, as: ADMIN });
      expect(result).toMatchObject({ ok: false, error: { code: 'invalidInput' } });
      if (!result.ok) expect(result.error.fields?.['timeZone']).toMatch(/not an IANA time zone name|at most|Too big/i);
    }
    expect((await desk.value('session/state', {})).reportingTimeZone).toBe('UTC');
    const wrongPassphrase = await desk.call('settings/setReportingTimeZone', { timeZone: 'Europe/Berlin', as: { ...ADMIN, passphrase: 'not it' } });
    expect(wrongPassphrase).toMatchObject({ ok: false, error: { code: 'wrongPassphrase' } });
    expect((await desk.value('session/state', {})).reportingTimeZone).toBe('UTC');
  });

  it('an admin sets it (in its usual spelling): every face hears of it, the audit log records who and what, and it survives a restart', async () => {
    const events: ContractEvent[] = [];
    const stop = desk.engine.onEvent((event) => events.push(event));
    const state = await desk.value('settings/setReportingTimeZone', { timeZone: 'europe/berlin', as: ADMIN });
    stop();
    expect(state.reportingTimeZone).toBe('Europe/Berlin');
    expect(events).toContainEqual({ type: 'session/changed', session: expect.objectContaining({ reportingTimeZone: 'Europe/Berlin' }) as unknown });
    const [latest] = (await desk.value('audit/list', { limit: 5 })).rows.filter((entry) => entry.action === 'settings/reportingTimeZone');
    expect(latest).toMatchObject({ operator: 'alice', kind: 'action', details: { timeZone: 'Europe/Berlin', before: 'UTC' } });

    const restarted = await desk.reopen();
    const again = await restarted.handlers['session/state']({});
    expect(again).toMatchObject({ ok: true, value: { reportingTimeZone: 'Europe/Berlin' } });
    await restarted.close();
  });
});

describe('the deposits CSV', () => {
  it('writes first and last seen in the reporting zone with its offset, each the exact instant stored', async () => {
    await desk.value('settings/setReportingTimeZone', { timeZone: 'Asia/Kolkata', as: ADMIN });
    const created = await desk.value('addresses/create', { addressType: 'trx', as: INITIATOR });
    const transfer = await desk.admin<{ credited: boolean; deposit: { txid: string } }>('POST', '/transfers', { toAddress: created.address, currency: 'trx.usdt', amount: '12.000001' });
    expect(transfer.json.credited).toBe(true);
    await desk.value('sync/run', {});
    const [deposit] = (await desk.value('deposits/list', { search: transfer.json.deposit.txid })).rows;
    if (deposit === undefined) throw new Error('the deposit was not synced');

    const path = join(desk.dir, 'deposits.csv');
    expect(await desk.value('deposits/exportCsv', { path })).toMatchObject({ rows: 1 });
    const [header, row] = readFileSync(path, 'utf8').trim().split('\r\n');
    expect(header?.split(',')).toEqual(['first_seen', 'currency', 'amount', 'fee', 'txid', 'address', 'address_type', 'from_address', 'api_order', 'user_order', 'source', 'last_seen']);
    const cells = row?.split(',') ?? [];
    const firstSeen = cells[0] ?? '';
    const lastSeen = cells.at(-1) ?? '';
    expect(firstSeen).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+05:30$/);
    expect(lastSeen).toMatch(/\+05:30$/);
    expect(Date.parse(firstSeen)).toBe(deposit.firstSeenAt);
    expect(Date.parse(lastSeen)).toBe(deposit.lastSeenAt);
    expect(cells[2]).toBe(deposit.amount);
    const [exported] = (await desk.value('audit/list', { limit: 5 })).rows.filter((entry) => entry.action === 'deposits/export');
    expect(exported?.details).toMatchObject({ rows: 1, timeZone: 'Asia/Kolkata' });
  });
});
