// Test support: well-formed shared chain rows (consecutive, linked, hashed like audit rows) for the shared-store
// tests and the team bench. The store does not verify signatures, so the statements here are not signed.
import { auditRowHash, CHAIN_GENESIS } from '../../electron/core/statements/statement';
import type { ChainHead, SharedChainRow } from '../../electron/core/team/shared-store';

/** `count` rows extending `after` (null: the chain's start). */
export function chainRows(after: ChainHead | null, count: number, at = 1_700_000_000_000): SharedChainRow[] {
  const rows: SharedChainRow[] = [];
  let previous = after ?? { seq: 0, hash: CHAIN_GENESIS };
  for (let index = 0; index < count; index += 1) {
    const seq = previous.seq + 1;
    const statement = JSON.stringify({ v: 1, kind: 'request', profile: 'main', subject: `intent-${seq}`, body: {}, operator: 'alice', keyId: 'k1', at, seq, prev: previous.hash });
    const signature = `signature-${seq}`;
    const row: SharedChainRow = {
      seq,
      at: at + seq,
      profile: 'main',
      kind: 'request',
      action: 'withdrawals/request',
      operator: 'alice',
      subject: `intent-${seq}`,
      keyId: 'k1',
      statement,
      signature,
      prevHash: previous.hash,
      hash: auditRowHash(statement, signature),
    };
    rows.push(row);
    previous = row;
  }
  return rows;
}
