// Test helpers for the store: real SQLite files in temporary folders, removed after the file's tests.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { closeDatabase, openDatabase, type OpenDatabaseOptions, type StoreDatabase } from '../../../electron/core/store/database';
import { type DepositRecord } from '../../../electron/core/deposits/deposits-table';
import { ensureOperator } from '../../../electron/core/operators/operators-table';
import { createProfile } from '../../../electron/core/profiles/profiles-table';

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

/** A migrated database with one profile and three of its operators (roles live in the signed roster, not here). */
export function seededDatabase(temp: ReturnType<typeof useTempDir>, name?: string): StoreDatabase {
  const db = temp.open(name);
  createProfile(db, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1001' }, 1_000);
  for (const name of ['alice', 'bob', 'carol']) ensureOperator(db, PROFILE, name, 1_000);
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

export interface LegacyAuditEntry {
  readonly at: number;
  readonly profile?: string | null;
  readonly operator?: string | null;
  readonly action: string;
  readonly subject?: string | null;
  readonly detailsJson?: string;
}

/**
 * Appends a row to the unsigned, hash-chained audit log of schemas 30 to 40 (migration 0030) the way the desk wrote it
 * before signed approvals: SHA-256 over ["treasury-desk/audit/v1", seq, at, profile, operator, action, subject,
 * details_json, prev_hash]. After migration 0050 the same rows live, closed, in legacy_audit_log.
 */
export function appendLegacyAuditRow(db: StoreDatabase, entry: LegacyAuditEntry): { seq: number; hash: string } {
  const last = db.prepare('SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined;
  const seq = (last?.seq ?? 0) + 1;
  const prevHash = last?.hash ?? '0'.repeat(64);
  const row = [seq, entry.at, entry.profile ?? null, entry.operator ?? null, entry.action, entry.subject ?? null, entry.detailsJson ?? '{}', prevHash] as const;
  const hash = createHash('sha256').update(JSON.stringify(['treasury-desk/audit/v1', ...row]), 'utf8').digest('hex');
  db.prepare(
    'INSERT INTO audit_log (seq, at, profile, operator, action, subject, details_json, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(...row, hash);
  return { seq, hash };
}
