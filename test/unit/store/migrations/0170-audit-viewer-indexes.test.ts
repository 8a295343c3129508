// Migration 0170 (audit viewer indexes): a schema-160 desk's audit rows stay as they were, and audit/list's filters by
// action and by operator (any case) seek in the new indexes (SQLite's query plan says so) and answer the right rows.
import { describe, expect, it } from 'vitest';
import { appendStatement, listAudit } from '../../../../electron/core/audit/audit-table';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { migration0170 } from '../../../../electron/core/store/migrations/0170-audit-viewer-indexes';
import { generateSigningKey } from '../../../../electron/core/statements/keys';
import { signStatementText } from '../../../../electron/core/statements/statement';
import { useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();
const key = generateSigningKey();
const sign = (text: string): string => signStatementText(key.privateKey, text);

describe('migration 0170-audit-viewer-indexes', () => {
  it('upgrades a version 160 database: its rows stay, and the action and operator filters use the indexes', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(160) });
    for (let i = 1; i <= 6; i += 1) {
      appendStatement(old, { kind: 'action', profile: 'main', subject: `s${i}`, body: { action: i === 3 ? 'labels/set' : 'addresses/create', details: {} }, operator: i % 2 === 0 ? 'Alice' : 'bob', keyId: key.keyId }, sign, i * 1000);
    }
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(170) });
    expect(userVersion(db)).toBe(170);
    expect(MIGRATIONS.find((migration) => migration.version === 170)).toBe(migration0170);
    expect(listAudit(db, { limit: 10 }).rows.map((row) => row.seq)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(listAudit(db, { limit: 10, action: 'labels/set' }).rows.map((row) => row.seq)).toEqual([3]);
    expect(listAudit(db, { limit: 10, operator: 'alice' }).rows.map((row) => row.seq)).toEqual([6, 4, 2]);

    const plan = (sql: string, ...params: unknown[]): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((step) => step.detail).join('; ');
    expect(plan('SELECT * FROM audit_log WHERE action = ? AND seq < ? ORDER BY seq DESC LIMIT ?', 'labels/set', 99, 5)).toContain('USING INDEX audit_log_by_action');
    expect(plan('SELECT * FROM audit_log WHERE operator = ? COLLATE NOCASE AND seq < ? ORDER BY seq DESC LIMIT ?', 'alice', 99, 5)).toContain('USING INDEX audit_log_by_operator');
  });
});
