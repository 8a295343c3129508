// Notification preferences (core/notifications/preferences.ts): each role's defaults; what a person sends is checked
// per currency (syntax, the currency's decimals) and kept in one form; deposits are compared with their threshold as
// exact decimals (strictly above), never as floating-point numbers; a stored row that does not parse means the defaults.
import { describe, expect, it } from 'vitest';
import { checkPreferences, defaultPreferences, depositWanted, preferencesOf } from '../../../electron/core/notifications/preferences';
import { DeskError } from '../../../electron/core/kernel/errors';
import { setNotificationPreferences } from '../../../electron/core/notifications/notifications-table';
import type { NotificationPreferences } from '../../../electron/contract';
import { PROFILE, seededDatabase, useTempDir } from '../store/helpers';

const temp = useTempDir('td-notify-prefs-');
const base: NotificationPreferences = { approvalWaiting: true, orderFinal: 'mine', orderStuck: false, connection: true, depositThresholds: {} };

function refusal(preferences: NotificationPreferences): DeskError {
  try {
    checkPreferences(preferences);
  } catch (error) {
    if (error instanceof DeskError) return error;
    throw error;
  }
  throw new Error('the preferences were accepted');
}

describe('defaults', () => {
  it('tells everyone about approvals, their own final orders and the connection; stuck orders to admins and approvers; no deposits', () => {
    for (const role of ['admin', 'approver'] as const) expect(defaultPreferences(role)).toEqual({ ...base, orderStuck: true });
    for (const role of ['initiator', 'viewer'] as const) expect(defaultPreferences(role)).toEqual(base);
  });
});

describe('checking what a person sends', () => {
  it('keeps thresholds in one form: no leading zeros, no trailing zeros after the point', () => {
    const checked = checkPreferences({ ...base, depositThresholds: { 'trx.usdt': '0100.500', eth: '0', 'bnb.usdc': '12.000000000000000001' } });
    expect(checked.depositThresholds).toEqual({ 'trx.usdt': '100.5', eth: '0', 'bnb.usdc': '12.000000000000000001' });
  });

  it('refuses a threshold with more decimals than its currency, or that is not a plain decimal, naming each field', () => {
    const error = refusal({ ...base, depositThresholds: { 'trx.usdt': '1.1234567', ton: '1,000', eth: '-5', solana: '1e3', 'eth.usdc': '10' } });
    expect(error.code).toBe('invalidInput');
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(
      ['eth', 'solana', 'ton', 'trx.usdt'].map((currency) => `preferences.depositThresholds.${currency}`),
    );
    expect(error.fields?.['preferences.depositThresholds.trx.usdt']).toContain('at most 6 decimal places');
    expect(error.message).toContain('not usable');
  });

  it('refuses a currency it does not know', () => {
    const unknown = { ...base, depositThresholds: { 'btc.usdt': '5' } } as unknown as NotificationPreferences;
    expect(refusal(unknown).fields).toEqual({ 'preferences.depositThresholds.btc.usdt': 'unknown currency symbol' });
  });
});

describe('which deposits an operator wants', () => {
  const wants = (thresholds: NotificationPreferences['depositThresholds'], currency: string, amount: string): boolean =>
    depositWanted({ ...base, depositThresholds: thresholds }, currency, amount);

  it('strictly above the threshold, compared as exact decimals', () => {
    expect(wants({ 'trx.usdt': '1000' }, 'trx.usdt', '1000')).toBe(false);
    expect(wants({ 'trx.usdt': '1000' }, 'trx.usdt', '1000.000000')).toBe(false);
    expect(wants({ 'trx.usdt': '1000' }, 'trx.usdt', '1000.000001')).toBe(true);
    expect(wants({ 'trx.usdt': '0' }, 'trx.usdt', '0.000001')).toBe(true);
    // 18 decimals on a large amount: as floating-point numbers both sides would be equal.
    expect(Number('1000000000000000000.000000000000000001')).toBe(Number('1000000000000000000'));
    expect(wants({ eth: '1000000000000000000' }, 'eth', '1000000000000000000.000000000000000001')).toBe(true);
    expect(wants({ eth: '0.30000000000000000' }, 'eth', '0.3')).toBe(false);
  });

  it('nothing for a currency without a threshold, an unknown currency or an amount that is not a decimal', () => {
    expect(wants({ 'trx.usdt': '5' }, 'trx', '100')).toBe(false);
    expect(wants({ 'trx.usdt': '5' }, 'trx.usdc', '100')).toBe(false);
    expect(wants({ 'trx.usdt': '5' }, 'trx.usdt', '1e9')).toBe(false);
  });
});

describe('what is in force', () => {
  it('the stored choice when it parses, else the role defaults', () => {
    const db = seededDatabase(temp);
    const context = { db };
    expect(preferencesOf(context, PROFILE, 'alice', 'approver')).toEqual({ preferences: { ...base, orderStuck: true }, isDefault: true });
    const chosen: NotificationPreferences = { approvalWaiting: false, orderFinal: 'all', orderStuck: false, connection: false, depositThresholds: { ton: '2.5' } };
    setNotificationPreferences(db, PROFILE, 'alice', chosen, 2_000);
    expect(preferencesOf(context, PROFILE, 'ALICE', 'approver')).toEqual({ preferences: chosen, isDefault: false });
    // A row edited into something else (a threshold as a number, an unknown kind) is not trusted.
    setNotificationPreferences(db, PROFILE, 'bob', { ...chosen, depositThresholds: { ton: 2.5 } }, 2_000);
    setNotificationPreferences(db, PROFILE, 'carol', { ...chosen, everything: true }, 2_000);
    expect(preferencesOf(context, PROFILE, 'bob', 'viewer')).toEqual({ preferences: base, isDefault: true });
    expect(preferencesOf(context, PROFILE, 'carol', 'viewer')).toEqual({ preferences: base, isDefault: true });
  });
});
