// Migration 0080 (merchant info): a schema-50 desk gains the merchant_info table, one row per profile holding the last
// merchantInfo answer as a JSON object; anything else is refused, and the row goes with its profile.
import { describe, expect, it } from 'vitest';
import { getMerchantInfo, MIGRATIONS, saveMerchantInfo, userVersion, type StoreDatabase } from '../../../../electron/core/store';
import { migration0080 } from '../../../../electron/core/store/migrations/0080-merchant-info';
import { useTempDir } from '../helpers';

const temp = useTempDir();
const upTo = (version: number) => MIGRATIONS.filter((migration) => migration.version <= version);

function addProfile(db: StoreDatabase, name: string): void {
  db.prepare("INSERT INTO profiles (name, base_url, merchant_id, created_at, updated_at) VALUES (?, 'http://127.0.0.1:1', 'M-1', 1, 1)").run(name);
}

describe('migration 0080-merchant-info', () => {
  it('upgrades a version 50 database, keeping its profiles, with no merchant info yet', () => {
    const old = temp.open('upgrade.sqlite', { migrations: upTo(50) });
    addProfile(old, 'p');
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: upTo(80) });
    expect(userVersion(db)).toBe(80);
    expect(MIGRATIONS.find((migration) => migration.version === 80)).toBe(migration0080);
    expect(getMerchantInfo(db, 'p')).toBeUndefined();
  });

  it('keeps one JSON object per profile, replaced by the next answer, and refuses anything else', () => {
    const db = temp.open(undefined, { migrations: upTo(80) });
    addProfile(db, 'p');
    saveMerchantInfo(db, 'p', { merchantId: 'M-1', tier: 'gold', balances: [{ currency: 'trx', available: '1', frozen: '0', locked: '2' }] }, 5);
    saveMerchantInfo(db, 'p', { merchantId: 'M-1', tier: 'platinum' }, 9);
    expect(getMerchantInfo(db, 'p')).toEqual({ profile: 'p', record: { merchantId: 'M-1', tier: 'platinum' }, fetchedAt: 9 });
    expect(db.prepare('SELECT count(*) FROM merchant_info').pluck().get()).toBe(1);
    const insert = db.prepare('INSERT INTO merchant_info (profile, record_json, fetched_at) VALUES (?, ?, 1)');
    addProfile(db, 'q');
    expect(() => insert.run('q', '[1, 2]')).toThrow(/CHECK/);
    expect(() => insert.run('q', 'not json')).toThrow(/CHECK|malformed/);
    expect(() => insert.run('nobody', '{}')).toThrow(/FOREIGN KEY/);
  });

  it('goes with its profile', () => {
    const db = temp.open(undefined, { migrations: upTo(80) });
    addProfile(db, 'gone');
    saveMerchantInfo(db, 'gone', { merchantId: 'M-9' }, 1);
    db.prepare("DELETE FROM profiles WHERE name = 'gone'").run();
    expect(getMerchantInfo(db, 'gone')).toBeUndefined();
  });
});
