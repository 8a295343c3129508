// Migration 0110 (payout batches): a version 100 desk upgrades keeping its requests (as single withdrawals, no batch);
// a batch and its numbered lines are stored and read back; the schema refuses a malformed batch hash, a line number
// twice in a batch and a request in two batches.
import { describe, expect, it } from 'vitest';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { addPayoutLine, createPayoutBatch, getPayoutBatch, listPayoutBatches, listPayoutLines } from '../../../../electron/core/withdrawals/payout-batches-table';
import { createProfile } from '../../../../electron/core/profiles/profiles-table';
import { createWithdrawalRequest, getWithdrawalRequest } from '../../../../electron/core/withdrawals/withdrawals-table';
import { migration0110 } from '../../../../electron/core/store/migrations/0110-payout-batches';
import { PROFILE, seededDatabase, useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

const HASH = 'a'.repeat(64);

function request(db: ReturnType<typeof seededDatabase>, userOrder: string, batchHash: string | null) {
  return createWithdrawalRequest(db, { profile: PROFILE, currency: 'trx.usdt', amount: '5', toAddress: 'T', withdrawType: 'normal', userOrder, initiator: 'carol', batchHash }, 1_000);
}

describe('migration 0110-payout-batches', () => {
  it('upgrades a version 100 database: its requests stay single withdrawals', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(100) });
    createProfile(old, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1' }, 1_000);
    old.prepare("INSERT INTO withdrawal_requests (profile, currency, amount, to_address, withdraw_type, user_order, initiator, state, created_at, updated_at) VALUES (?, 'trx', '1', 'T', 'normal', 'td-old', 'carol', 'approved', 1, 1)").run(PROFILE);
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(110) });
    expect(userVersion(db)).toBe(110);
    expect(MIGRATIONS.find((migration) => migration.version === 110)).toBe(migration0110);
    expect(getWithdrawalRequest(db, 1)).toMatchObject({ userOrder: 'td-old', state: 'approved', batchHash: null });
  });

  it('stores a batch with its numbered lines, newest batch first', () => {
    const db = seededDatabase(temp);
    const batch = createPayoutBatch(db, { profile: PROFILE, batchHash: HASH, fingerprint: 'AAAA-BBBB-CCCC-DDDD', batchJson: '{}', sourceName: 'june.csv', initiator: 'carol', lineCount: 2, requestSeq: 3 }, 2_000);
    const first = request(db, 'pb-1', HASH);
    const second = request(db, 'pb-2', HASH);
    addPayoutLine(db, batch.id, 1, first.id);
    addPayoutLine(db, batch.id, 2, second.id);
    expect(getPayoutBatch(db, batch.id)).toEqual(batch);
    expect(listPayoutLines(db, batch.id)).toEqual([{ line: 1, requestId: first.id }, { line: 2, requestId: second.id }]);
    expect(getWithdrawalRequest(db, first.id)?.batchHash).toBe(HASH);
    const later = createPayoutBatch(db, { profile: PROFILE, batchHash: 'b'.repeat(64), fingerprint: 'EEEE-FFFF-GGGG-HHHH', batchJson: '{}', sourceName: 'july.csv', initiator: 'carol', lineCount: 1, requestSeq: 9 }, 3_000);
    expect(listPayoutBatches(db, PROFILE, 1).rows.map((row) => row.id)).toEqual([later.id]);
    const next = listPayoutBatches(db, PROFILE, 1).nextCursor;
    expect(listPayoutBatches(db, PROFILE, 1, next).rows.map((row) => row.id)).toEqual([batch.id]);
  });

  it('refuses a malformed batch hash, a batch imported twice, a line number twice and a request in two batches', () => {
    const db = seededDatabase(temp);
    expect(() => request(db, 'pb-x', 'not-a-hash')).toThrow(/CHECK/);
    const batch = createPayoutBatch(db, { profile: PROFILE, batchHash: HASH, fingerprint: 'F', batchJson: '{}', sourceName: 'a.csv', initiator: 'carol', lineCount: 1, requestSeq: 1 });
    expect(() => createPayoutBatch(db, { profile: PROFILE, batchHash: HASH, fingerprint: 'F', batchJson: '{}', sourceName: 'a.csv', initiator: 'carol', lineCount: 1, requestSeq: 1 })).toThrow(/already imported/);
    const line = request(db, 'pb-1', HASH);
    addPayoutLine(db, batch.id, 1, line.id);
    expect(() => addPayoutLine(db, batch.id, 1, request(db, 'pb-2', HASH).id)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => addPayoutLine(db, batch.id, 3, line.id)).toThrow(/UNIQUE/);
  });
});
