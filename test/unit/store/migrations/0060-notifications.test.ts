// Migration 0060 (notifications): a version 50 desk upgrades with its requests intact; preferences are one JSON object
// per (profile, operator), names compared without case; an occurrence is claimed once (a second claim, by this process
// or another, finds it taken); cursors per (profile, stream); all of it goes with its profile; requests changed since a
// time are found through the new index.
import { describe, expect, it } from 'vitest';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { claimNotification, getNotificationCursor, getNotificationPreferences, isNotificationClaimed, setNotificationCursor, setNotificationPreferences } from '../../../../electron/core/notifications/notifications-table';
import { createProfile, deleteProfile } from '../../../../electron/core/profiles/profiles-table';
import { createWithdrawalRequest, listWithdrawalRequestsChangedSince, moveWithdrawalRequest } from '../../../../electron/core/withdrawals/withdrawals-table';
import { migration0060 } from '../../../../electron/core/store/migrations/0060-notifications';
import { PROFILE, seededDatabase, useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

describe('migration 0060-notifications', () => {
  it('upgrades a version 50 database, keeping its requests, and adds the tables and the index', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(50) });
    createProfile(old, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1' }, 1_000);
    // As the version 50 code wrote it (repositories read the latest schema).
    old
      .prepare("INSERT INTO withdrawal_requests (profile, currency, amount, to_address, withdraw_type, user_order, initiator, state, created_at, updated_at) VALUES (?, 'trx.usdt', '5', 'T', 'normal', 'td-old', 'carol', 'awaitingApproval', 1000, 1000)")
      .run(PROFILE);
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(60) });
    expect(userVersion(db)).toBe(60);
    expect(MIGRATIONS.find((migration) => migration.version === 60)).toBe(migration0060);
    expect(db.prepare("SELECT user_order FROM withdrawal_requests").pluck().all()).toEqual(['td-old']);
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') AND name LIKE 'notification%' OR name = 'withdrawal_requests_by_updated' ORDER BY name").pluck().all();
    expect(tables).toEqual(['notification_cursors', 'notification_preferences', 'notifications_raised', 'withdrawal_requests_by_updated']);
  });

  it('keeps one preferences object per operator of a profile, whatever the case of the name', () => {
    const db = seededDatabase(temp);
    setNotificationPreferences(db, PROFILE, 'alice', { approvalWaiting: true }, 2_000);
    setNotificationPreferences(db, PROFILE, 'ALICE', { approvalWaiting: false }, 3_000);
    expect(getNotificationPreferences(db, PROFILE, 'Alice')).toEqual({ preferences: { approvalWaiting: false }, updatedAt: 3_000 });
    expect(db.prepare('SELECT count(*) FROM notification_preferences').pluck().get()).toBe(1);
    expect(() => setNotificationPreferences(db, PROFILE, 'bob', [] as never)).toThrow(/object/);
    expect(() => db.prepare("INSERT INTO notification_preferences VALUES ('main', 'eve', '[1]', 1)").run()).toThrow(/CHECK/);
    expect(() => setNotificationPreferences(db, 'nobody', 'eve', {})).toThrow(/FOREIGN KEY/);
  });

  it('claims an occurrence once, and keeps cursors per profile and stream', () => {
    const db = seededDatabase(temp);
    expect(isNotificationClaimed(db, PROFILE, 'approval:1')).toBe(false);
    expect(claimNotification(db, PROFILE, 'approval:1', 'approvalWaiting', true, 2_000)).toBe(true);
    expect(claimNotification(db, PROFILE, 'approval:1', 'approvalWaiting', true, 3_000)).toBe(false);
    expect(isNotificationClaimed(db, PROFILE, 'approval:1')).toBe(true);
    expect(claimNotification(db, PROFILE, 'final:1', 'orderFinal', false, 2_000)).toBe(true);
    expect(db.prepare('SELECT occurrence, raised FROM notifications_raised ORDER BY occurrence').all()).toEqual([
      { occurrence: 'approval:1', raised: 1 },
      { occurrence: 'final:1', raised: 0 },
    ]);
    expect(() => claimNotification(db, PROFILE, '', 'x', true)).toThrow();
    expect(getNotificationCursor(db, PROFILE, 'deposits')).toBeUndefined();
    setNotificationCursor(db, PROFILE, 'deposits', 42, 2_000);
    setNotificationCursor(db, PROFILE, 'deposits', 43, 3_000);
    setNotificationCursor(db, PROFILE, 'since', 1_999, 3_000);
    expect([getNotificationCursor(db, PROFILE, 'deposits'), getNotificationCursor(db, PROFILE, 'since')]).toEqual([43, 1_999]);
    expect(() => setNotificationCursor(db, PROFILE, 'deposits', -1)).toThrow();
  });

  it('forgets a profile’s preferences, claims and cursors with the profile', () => {
    const db = seededDatabase(temp);
    createProfile(db, { name: 'other', baseUrl: 'https://pay.example', merchantId: 'M-2' }, 1_000);
    setNotificationPreferences(db, 'other', 'alice', {}, 2_000);
    claimNotification(db, 'other', 'approval:9', 'approvalWaiting', true, 2_000);
    setNotificationCursor(db, 'other', 'since', 5, 2_000);
    expect(deleteProfile(db, 'other')).toBe(true);
    for (const table of ['notification_preferences', 'notifications_raised', 'notification_cursors']) {
      expect(db.prepare(`SELECT count(*) FROM ${table} WHERE profile = 'other'`).pluck().get()).toBe(0);
    }
  });

  it('finds requests changed since a time, oldest change first, page after page', () => {
    const db = seededDatabase(temp);
    const made = [1, 2, 3, 4].map((n) =>
      createWithdrawalRequest(db, { profile: PROFILE, currency: 'trx.usdt', amount: '5', toAddress: 'T', withdrawType: 'normal', userOrder: `td-${n}`, initiator: 'carol' }, 1_000 * n),
    );
    expect(moveWithdrawalRequest(db, made[0]?.id ?? 0, 'reject', 10_000)).toBe(true);
    const since = (at: number, limit: number, after: { at: number; id: number } | null = null): string[] =>
      listWithdrawalRequestsChangedSince(db, PROFILE, at, limit, after).map((request) => request.userOrder);
    expect(since(3_000, 10)).toEqual(['td-3', 'td-4', 'td-1']);
    expect(since(3_000, 2)).toEqual(['td-3', 'td-4']);
    expect(since(3_000, 2, { at: 4_000, id: made[3]?.id ?? 0 })).toEqual(['td-1']);
  });
});
