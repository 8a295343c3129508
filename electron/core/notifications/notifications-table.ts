// The notifications' records: each operator's preferences per profile (JSON the notifications module validates on
// read), the occurrences a notice was raised for (claimed once: INSERT OR IGNORE, so two processes sharing the desk
// never both raise one), and per-profile cursors into the deposit and withdrawal streams.
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { canonicalJson, parseJsonColumn } from '../store/json';

export interface StoredNotificationPreferences {
  /** As written by the notifications module; validate before use. */
  readonly preferences: unknown;
  readonly updatedAt: number;
}

const statements = perDatabase((db) => ({
  getPreferences: db.prepare('SELECT preferences_json, updated_at FROM notification_preferences WHERE profile = ? AND operator = ?'),
  setPreferences: db.prepare(
    `INSERT INTO notification_preferences (profile, operator, preferences_json, updated_at) VALUES (@profile, @operator, @json, @now)
     ON CONFLICT (profile, operator) DO UPDATE SET preferences_json = excluded.preferences_json, updated_at = excluded.updated_at`,
  ),
  removePreferences: db.prepare('DELETE FROM notification_preferences WHERE profile = ?'),
  claim: db.prepare('INSERT INTO notifications_raised (profile, occurrence, kind, raised, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (profile, occurrence) DO NOTHING'),
  claimed: db.prepare('SELECT count(*) FROM notifications_raised WHERE profile = ? AND occurrence = ?').pluck(),
  getCursor: db.prepare('SELECT position FROM notification_cursors WHERE profile = ? AND stream = ?').pluck(),
  setCursor: db.prepare(
    `INSERT INTO notification_cursors (profile, stream, position, updated_at) VALUES (@profile, @stream, @position, @now)
     ON CONFLICT (profile, stream) DO UPDATE SET position = excluded.position, updated_at = excluded.updated_at`,
  ),
}));

export function getNotificationPreferences(db: ReadableDB, profile: string, operator: string): StoredNotificationPreferences | undefined {
  const row = statements(db).getPreferences.get(profile, operator) as { preferences_json: string; updated_at: number } | undefined;
  return row === undefined ? undefined : { preferences: parseJsonColumn(row.preferences_json), updatedAt: row.updated_at };
}

/** Stores (replaces) an operator's preferences; `preferences` must be a JSON object. */
export function setNotificationPreferences(db: WritableDB, profile: string, operator: string, preferences: object, now: number = Date.now()): void {
  if (preferences === null || Array.isArray(preferences)) throw invalidArgument('notification preferences must be an object');
  statements(db).setPreferences.run({ profile, operator, json: canonicalJson(preferences), now });
}

/** Forgets every operator's preferences in a profile (the profile's operators are being removed). */
export function deleteNotificationPreferences(db: WritableDB, profile: string): number {
  return statements(db).removePreferences.run(profile).changes;
}

/**
 * Claims an occurrence (`approval:12`): true when this call recorded it, false when it was recorded before (by this
 * process or another). `raised` false records history found when the desk first looked, for which nothing is raised.
 */
export function claimNotification(db: WritableDB, profile: string, occurrence: string, kind: string, raised: boolean, now: number = Date.now()): boolean {
  if (occurrence === '' || occurrence.length > 200) throw invalidArgument('a notification occurrence is 1 to 200 characters');
  return statements(db).claim.run(profile, occurrence, kind, raised ? 1 : 0, now).changes === 1;
}

export function isNotificationClaimed(db: ReadableDB, profile: string, occurrence: string): boolean {
  return (statements(db).claimed.get(profile, occurrence) as number) > 0;
}

/**
 * The notifications' cursors: `since` (when the desk started notifying for the profile, ms: what happened before is
 * history), `deposits` (the last deposit id looked at), `withdrawals` (the last request change looked at, ms).
 */
export type NotificationStream = 'since' | 'deposits' | 'withdrawals';

export function getNotificationCursor(db: ReadableDB, profile: string, stream: NotificationStream): number | undefined {
  return statements(db).getCursor.get(profile, stream) as number | undefined;
}

export function setNotificationCursor(db: WritableDB, profile: string, stream: NotificationStream, position: number, now: number = Date.now()): void {
  if (!Number.isSafeInteger(position) || position < 0) throw invalidArgument(`cursor position ${position} is not a non-negative integer`);
  statements(db).setCursor.run({ profile, stream, position, now });
}
