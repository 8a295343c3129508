// batchLineRef over altered rows: an intact line names its batch, line and fingerprint; an edited batch row gives no
// fingerprint (never a wrong one) but keeps the batch and line; a deleted line row keeps the batch (found by the hash the
// line is signed under) with the line unknown; both rows gone leave only "a line of some batch"; a single request is none.
import { describe, expect, it } from 'vitest';
import { batchFingerprint, batchIntentHash, encodeBatchIntent, type BatchIntent } from '../../../electron/core/statements/batch-intent';
import { batchLineRef } from '../../../electron/core/withdrawals/batch-line-ref';
import { type StoreDatabase } from '../../../electron/core/store/database';
import { addPayoutLine, createPayoutBatch } from '../../../electron/core/withdrawals/payout-batches-table';
import { createWithdrawalRequest, type WithdrawalRequest } from '../../../electron/core/withdrawals/withdrawals-table';
import { PROFILE, seededDatabase, useTempDir } from '../store/helpers';

const temp = useTempDir('td-line-ref-');

/** A stored 2-line batch whose intent is unique to `tag` (so no fingerprint is remembered from another test). */
function storedBatch(db: StoreDatabase, tag: string): { batchId: number; intent: BatchIntent; lines: WithdrawalRequest[] } {
  const line = (n: number) => ({
    v: 1,
    merchantId: 'M-1001',
    currency: 'trx.usdt',
    amount: `${10 + n}`,
    toAddress: `T${tag}${n}`.padEnd(34, 'x'),
    withdrawType: 'normal' as const,
    userOrder: `pb-${tag}-${n}`,
    memo: null,
    requiredApprovals: 1,
    policy: 'default',
    requestedAt: 5_000,
  });
  const intent: BatchIntent = {
    v: 1,
    kind: 'payoutBatch',
    merchantId: 'M-1001',
    lines: [line(1), line(2)],
    totals: { 'trx.usdt': { lines: 2, amount: '23', fee: '2', total: '25' } },
    requiredApprovals: 1,
    policies: { 'trx.usdt': 'default' },
    requestedAt: 5_000,
  } as BatchIntent;
  const batchHash = batchIntentHash(intent);
  const batch = createPayoutBatch(db, {
    profile: PROFILE,
    batchHash,
    fingerprint: batchFingerprint(intent),
    batchJson: encodeBatchIntent(intent),
    sourceName: `${tag}.csv`,
    initiator: 'carol',
    lineCount: 2,
    requestSeq: 1,
  });
  const lines = intent.lines.map((signed, index) => {
    const request = createWithdrawalRequest(db, { profile: PROFILE, ...signed, initiator: 'carol', batchHash });
    addPayoutLine(db, batch.id, index + 1, request.id);
    return request;
  });
  return { batchId: batch.id, intent, lines };
}

describe('batchLineRef', () => {
  const db = seededDatabase(temp);

  it('names the batch, the line and the fingerprint of an intact line; nothing for a single request', () => {
    const { batchId, intent, lines } = storedBatch(db, 'intact');
    expect(lines.map((request) => batchLineRef(db, request))).toEqual([
      { id: String(batchId), fingerprint: batchFingerprint(intent), line: 1 },
      { id: String(batchId), fingerprint: batchFingerprint(intent), line: 2 },
    ]);
    const single = createWithdrawalRequest(db, { profile: PROFILE, currency: 'trx', amount: '1', toAddress: 'T'.padEnd(34, 'y'), withdrawType: 'normal', userOrder: 'single-1', initiator: 'carol' });
    expect(batchLineRef(db, single)).toBeNull();
  });

  it('an edited batch row: no fingerprint, the batch and line still named', () => {
    const { batchId, intent, lines } = storedBatch(db, 'edited');
    const edited = { ...intent, lines: intent.lines.map((line, index) => (index === 0 ? { ...line, amount: '9999' } : line)) };
    db.prepare('UPDATE payout_batches SET batch_json = ? WHERE id = ?').run(encodeBatchIntent(edited), batchId);
    expect(batchLineRef(db, lines[0] as WithdrawalRequest)).toEqual({ id: String(batchId), fingerprint: null, line: 1 });
    db.prepare("UPDATE payout_batches SET batch_json = '{}' WHERE id = ?").run(batchId);
    expect(batchLineRef(db, lines[1] as WithdrawalRequest)).toEqual({ id: String(batchId), fingerprint: null, line: 2 });
  });

  it('a deleted line row: still a line of its batch (found by its hash), the line number null', () => {
    const { batchId, intent, lines } = storedBatch(db, 'gone');
    const [first] = lines as [WithdrawalRequest];
    db.prepare('DELETE FROM payout_lines WHERE request_id = ?').run(first.id);
    expect(batchLineRef(db, first)).toEqual({ id: String(batchId), fingerprint: batchFingerprint(intent), line: null });
    db.prepare('DELETE FROM payout_lines WHERE batch_id = ?').run(batchId);
    db.prepare('DELETE FROM payout_batches WHERE id = ?').run(batchId);
    expect(batchLineRef(db, first)).toEqual({ id: null, fingerprint: null, line: null });
  });
});
