// Migration 0080 (merchant info): a schema-50 desk gains the merchant_info table, one row per profile holding the last
// merchantInfo answer as a JSON object; anything else is refused, and the row goes with its profile.
import { describe, expect, it } from 'vitest';
import { userVersion } from '../../../../electron/core/store/database';
import { getMerchantInfo, saveMerchantInfo } from '../../../../electron/core/merchant/merchant-info-table';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { migration0080 } from '../../../../electron/core/store/migrations/0080-merchant-info';
import { useTempDir } from '../helpers';
import { insertProfileRow, migrationsUpTo } from './helpers';

const temp = useTempDir();

describe('migration 0080-merchant-info', () => {
  it('upgrades a version 50 database, keeping its profiles, with no merchant info yet', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(50) });
    insertProfileRow(old, 'p');
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(80) });
    expect(userVersion(db)).toBe(80);
    expect(MIGRATIONS.find((migration) => migration.version === 80)).toBe(migration0080);
    expect(getMerchantInfo(db, 'p')).toBeUndefined();
  });

  it('keeps one JSON object per profile, replaced by the next answer, and refuses anything else', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(80) });
    insertProfileRow(db, 'p');
    saveMerchantInfo(db, 'p', { merchantId: 'M-1', tier: 'gold', balances: [{ currency: 'trx', available: '1', frozen: '0', locked: '2' }] }, 5);
    saveMerchantInfo(db, 'p', { merchantId: 'M-1', tier: 'platinum' }, 9);
    expect(getMerchantInfo(db, 'p')).toEqual({ profile: 'p', record: { merchantId: 'M-1', tier: 'platinum' }, fetchedAt: 9 });
    expect(db.prepare('SELECT count(*) FROM merchant_info').pluck().get()).toBe(1);
    const insert = db.prepare('INSERT INTO merchant_info (profile, record_json, fetched_at) VALUES (?, ?, 1)');
    insertProfileRow(db, 'q');
    expect(() => insert.run('q', '[1, 2]')).toThrow(/CHECK/);
    expect(() => insert.run('q', 'not json')).toThrow(/CHECK|malformed/);
    expect(() => insert.run('nobody', '{}')).toThrow(/FOREIGN KEY/);
  });

  it('goes with its profile', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(80) });
    insertProfileRow(db, 'gone');
    saveMerchantInfo(db, 'gone', { merchantId: 'M-9' }, 1);
    db.prepare("DELETE FROM profiles WHERE name = 'gone'").run();
    expect(getMerchantInfo(db, 'gone')).toBeUndefined();
  });
});
