// The nonces of verified responses and callbacks (PROTOCOL §4.4), remembered for 600 s in the database so that a
// replay is refused across restarts and between the app and CLI runs sharing the desk. Invariant: `remember` is one
// atomic upsert, so two processes verifying the same nonce at once cannot both accept it; expired rows are pruned
// at most once a minute per handle through the index on the expiry, and never needed for correctness. A nonce commits
// with `processCrash` durability (database.ts writeTransaction): it survives the process dying at any point, and waits
// for no fsync. Every answer of a sync is verified on the main thread, and a fully synced commit per page (9 ms under
// load in `npm run bench -- sync-scale`) held the pool's next slices back; only an OS crash or power loss within the
// 300 s timestamp window (§4.2) before the desk's next fully synced commit could forget one, and the answers that move
// money are followed by exactly such a commit of what they changed.
import { NONCE_MEMORY_SECONDS } from '../../protocol/profile';
import type { ReplayMemory } from '../../protocol/wire';
import { perDatabase, writeTransaction, type ReadableDB, type WritableDB } from '../store/database';

/** How often (seconds of the verifying clock) one handle deletes expired nonces. */
export const NONCE_PRUNE_INTERVAL_SECONDS = 60;

const statements = perDatabase((db) => ({
  // Inserted, or an expired row taken over: 1 change. A live row (a repeat inside the window): 0 changes.
  remember: db.prepare(
    `INSERT INTO seen_nonces (nonce, expires_at) VALUES (@nonce, @expiresAt)
     ON CONFLICT (nonce) DO UPDATE SET expires_at = excluded.expires_at WHERE seen_nonces.expires_at < @now`,
  ),
  prune: db.prepare('DELETE FROM seen_nonces WHERE expires_at < ?'),
  count: db.prepare('SELECT count(*) FROM seen_nonces').pluck(),
}));

/**
 * Records `nonce` seen at `nowSeconds`, remembered up to and including `nowSeconds + memorySeconds` (inclusive like
 * protocol/wire.ts NonceMemory); false when it is already remembered (a replay).
 */
export function rememberNonce(db: WritableDB, nonce: string, nowSeconds: number, memorySeconds: number = NONCE_MEMORY_SECONDS): boolean {
  return writeTransaction(db, () => statements(db).remember.run({ nonce, now: nowSeconds, expiresAt: nowSeconds + memorySeconds }).changes === 1, 'processCrash');
}

/** Deletes nonces no longer remembered at `nowSeconds`; returns how many. */
export function pruneSeenNonces(db: WritableDB, nowSeconds: number): number {
  return statements(db).prune.run(nowSeconds).changes;
}

export function countSeenNonces(db: ReadableDB): number {
  return Number(statements(db).count.get());
}

/** The engine's ReplayMemory: the database above, pruned as it goes. */
export class StoredNonceMemory implements ReplayMemory {
  #lastPruneAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: WritableDB,
    private readonly memorySeconds: number = NONCE_MEMORY_SECONDS,
  ) {}

  remember(nonce: string, nowSeconds: number): boolean {
    if (nowSeconds - this.#lastPruneAt >= NONCE_PRUNE_INTERVAL_SECONDS || nowSeconds < this.#lastPruneAt) {
      this.#lastPruneAt = nowSeconds;
      pruneSeenNonces(this.db, nowSeconds);
    }
    return rememberNonce(this.db, nonce, nowSeconds, this.memorySeconds);
  }
}
