// Test helpers for the store: real SQLite files in temporary folders, removed after the file's tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import {
  closeDatabase,
  createOperator,
  createProfile,
  openDatabase,
  type DepositRecord,
  type OpenDatabaseOptions,
  type StoreDatabase,
} from '../../../electron/core/store';

/** A temporary folder for this test file; every database opened through it is closed and the folder removed afterwards. */
export function useTempDir(prefix = 'td-store-'): { path(name: string): string; open(name?: string, options?: OpenDatabaseOptions): StoreDatabase } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const handles: StoreDatabase[] = [];
  let counter = 0;
  afterAll(() => {
    for (const db of handles) closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    path: (name) => join(dir, name),
    open(name, options) {
      counter += 1;
      const db = openDatabase(join(dir, name ?? `db-${counter}.sqlite`), options);
      handles.push(db);
      return db;
    },
  };
}

export const PROFILE = 'main';

/** A migrated database with one profile and one operator of each role. */
export function seededDatabase(temp: ReturnType<typeof useTempDir>, name?: string): StoreDatabase {
  const db = temp.open(name);
  createProfile(db, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1001' }, 1_000);
  createOperator(db, { name: 'alice', role: 'initiator', passphraseHash: 'scrypt$32768$8$1$c2FsdA$a2V5' }, 1_000);
  createOperator(db, { name: 'bob', role: 'approver', passphraseHash: 'scrypt$32768$8$1$c2FsdA$a2V5' }, 1_000);
  createOperator(db, { name: 'carol', role: 'admin', passphraseHash: 'scrypt$32768$8$1$c2FsdA$a2V5' }, 1_000);
  return db;
}

export function depositRecord(n: number, overrides: Partial<DepositRecord> & Record<string, unknown> = {}): DepositRecord {
  const hex = (seed: number, length: number): string => {
    let out = '';
    let x = (seed * 2654435761) >>> 0 || 1;
    while (out.length < length) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      out += x.toString(16).padStart(8, '0');
    }
    return out.slice(0, length);
  };
  return {
    businessType: 'deposit',
    txid: hex(n + 1, 64),
    address: `T${hex(n % 97 + 5000, 33)}`,
    addressType: 'trx',
    fromAddress: `T${hex(n + 90_000, 33)}`,
    amount: `${1 + (n % 500)}.${String(n % 100).padStart(2, '0')}`,
    currency: n % 3 === 0 ? 'trx' : 'trx.usdt',
    fee: '0.5',
    apiOrder: `D${String(n).padStart(12, '0')}`,
    userOrder: `cust-${n % 97}`,
    ...overrides,
  };
}
