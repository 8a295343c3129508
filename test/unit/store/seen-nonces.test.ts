// The engine's nonce memory in SQLite (PROTOCOL §4.4, issue 11 item 8): a repeat is refused for 600 s inclusive and
// accepted again after, the memory survives closing the database (a restart) and is shared by two handles on one
// file (the app and a CLI run), and expired rows are pruned as it goes.
import { describe, expect, it } from 'vitest';
import { countSeenNonces, NONCE_PRUNE_INTERVAL_SECONDS, pruneSeenNonces, rememberNonce, StoredNonceMemory } from '../../../electron/core/connection/seen-nonces-table';
import { NONCE_MEMORY_SECONDS } from '../../../electron/protocol/profile';
import { NonceMemory } from '../../../electron/protocol/wire';
import { useTempDir } from './helpers';

const temp = useTempDir();
const nonce = (n: number): string => n.toString(16).padStart(32, '0');
const T = 1_700_000_000;

describe('rememberNonce', () => {
  it('refuses a repeat up to and including t + 600 s and accepts it again from t + 601 s, like the in-memory NonceMemory', () => {
    const db = temp.open();
    const memory = new NonceMemory();
    for (const [at, expected] of [
      [T, true],
      [T, false],
      [T + 1, false],
      [T + NONCE_MEMORY_SECONDS, false],
      [T + NONCE_MEMORY_SECONDS + 1, true],
      [T + NONCE_MEMORY_SECONDS + 2, false],
    ] as const) {
      expect(rememberNonce(db, nonce(1), at), `at t + ${at - T}`).toBe(expected);
      expect(memory.remember(nonce(1), at), `in memory at t + ${at - T}`).toBe(expected);
    }
    expect(rememberNonce(db, nonce(2), T + 5)).toBe(true);
  });

  it('commits without waiting for an fsync (processCrash durability), then leaves the handle fully synced; inside a transaction it is part of it', () => {
    const db = temp.open();
    const pragmas: string[] = [];
    const pragma = db.pragma.bind(db);
    db.pragma = ((source: string, options?: { simple?: boolean }) => {
      pragmas.push(source);
      return pragma(source, options);
    }) as typeof db.pragma;
    expect(rememberNonce(db, nonce(30), T)).toBe(true);
    expect(pragmas).toEqual(['synchronous = NORMAL', 'synchronous = FULL']);
    expect(pragma('synchronous', { simple: true })).toBe(2);
    pragmas.length = 0;
    expect(() =>
      db.transaction(() => {
        expect(rememberNonce(db, nonce(31), T)).toBe(true);
        throw new Error('the outer transaction fails');
      })(),
    ).toThrow('the outer transaction fails');
    expect(pragmas).toEqual([]);
    expect(rememberNonce(db, nonce(31), T + 1)).toBe(true); // rolled back with the transaction it was part of
  });

  it('survives a restart and is shared by two handles on the same file (the app and a CLI run)', () => {
    const path = temp.path('shared.sqlite');
    const app = temp.open('shared.sqlite');
    const appMemory = new StoredNonceMemory(app);
    expect(appMemory.remember(nonce(10), T)).toBe(true);
    const cli = temp.open('shared.sqlite');
    const cliMemory = new StoredNonceMemory(cli);
    expect(cliMemory.remember(nonce(10), T + 10)).toBe(false);
    expect(cliMemory.remember(nonce(11), T + 10)).toBe(true);
    expect(appMemory.remember(nonce(11), T + 20)).toBe(false);
    app.close();
    cli.close();
    const restarted = temp.open('shared.sqlite');
    expect(restarted.name).toBe(path);
    const afterRestart = new StoredNonceMemory(restarted);
    expect(afterRestart.remember(nonce(10), T + 300)).toBe(false);
    expect(afterRestart.remember(nonce(11), T + 300)).toBe(false);
    expect(afterRestart.remember(nonce(10), T + NONCE_MEMORY_SECONDS + 1)).toBe(true);
  });

  it('prunes expired rows at most once a minute per handle, and correctness never waits for it', () => {
    const db = temp.open();
    for (let i = 0; i < 50; i += 1) expect(rememberNonce(db, nonce(100 + i), T + i)).toBe(true);
    expect(countSeenNonces(db)).toBe(50);
    const memory = new StoredNonceMemory(db);
    // First use prunes: at T + 620 the nonces seen before T + 20 have expired (T + 19 + 600 < T + 620).
    expect(memory.remember(nonce(200), T + 620)).toBe(true);
    expect(countSeenNonces(db)).toBe(50 - 20 + 1);
    // Within the next minute nothing is pruned, yet an expired nonce is accepted again and a live one still refused.
    expect(memory.remember(nonce(120), T + 621)).toBe(true);
    expect(memory.remember(nonce(149), T + 640)).toBe(false);
    expect(countSeenNonces(db)).toBe(31);
    expect(memory.remember(nonce(201), T + 620 + NONCE_PRUNE_INTERVAL_SECONDS)).toBe(true);
    expect(countSeenNonces(db)).toBe(3);
    expect(pruneSeenNonces(db, T + 10_000)).toBe(3);
  });

  it('stays small in steady use: 3,000 answers over 25 minutes keep only the last ~11 minutes of nonces', () => {
    const db = temp.open();
    const memory = new StoredNonceMemory(db);
    const perSecond = 2;
    for (let i = 0; i < 3_000; i += 1) expect(memory.remember(nonce(1_000_000 + i), T + Math.floor(i / perSecond))).toBe(true);
    // One autocommit write per verified answer; pruning keeps the table to the window plus one prune interval.
    expect(countSeenNonces(db)).toBeLessThanOrEqual((NONCE_MEMORY_SECONDS + NONCE_PRUNE_INTERVAL_SECONDS + 1) * perSecond);
    expect(countSeenNonces(db)).toBeGreaterThanOrEqual(NONCE_MEMORY_SECONDS * perSecond);
    expect(memory.remember(nonce(1_000_000 + 2_999), T + 1_600)).toBe(false);
  });
});
