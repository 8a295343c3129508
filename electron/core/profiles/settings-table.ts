// Desk-wide settings as JSON values under string keys (lock timeout and the like); callers validate what they read.
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { parseJsonColumn } from '../store/json';

/** Keys the desk uses, so callers agree on spelling. */
export const SETTING_KEYS = {
  lockTimeoutSeconds: 'lockTimeoutSeconds',
  /** IANA name of the zone the UI, the CLI and CSV exports show times in (contract/time-zone.ts). */
  reportingTimeZone: 'reportingTimeZone',
  activeProfile: 'activeProfile',
} as const;

const statements = perDatabase((db) => ({
  get: db.prepare('SELECT value_json FROM settings WHERE key = ?').pluck(),
  set: db.prepare(
    `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  ),
  remove: db.prepare('DELETE FROM settings WHERE key = ?'),
  all: db.prepare('SELECT key, value_json FROM settings ORDER BY key'),
}));

/** The stored value (parsed JSON), or undefined when unset. */
export function getSetting(db: ReadableDB, key: string): unknown {
  const text = statements(db).get.get(key) as string | undefined;
  return text === undefined ? undefined : parseJsonColumn(text);
}

export function setSetting(db: WritableDB, key: string, value: unknown, now: number = Date.now()): void {
  if (key === '') throw invalidArgument('setting key is empty');
  const text = JSON.stringify(value);
  if (text === undefined) throw invalidArgument(`setting ${key}: value cannot be stored as JSON`);
  statements(db).set.run(key, text, now);
}

export function deleteSetting(db: WritableDB, key: string): boolean {
  return statements(db).remove.run(key).changes === 1;
}

export function listSettings(db: ReadableDB): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const row of statements(db).all.all() as { key: string; value_json: string }[]) result[row.key] = parseJsonColumn(row.value_json);
  return result;
}
