// The last verified merchantInfo answer of each profile, kept whole as received (PROTOCOL §8: unknown fields are kept).
// Written by every merchantInfo call (sync, selfcheck); read by the withdrawal checks and the connection screen.
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';
import { invalidArgument } from '../store/errors';
import { canonicalJson, parseObjectColumn } from '../store/json';

export interface StoredMerchantInfo {
  readonly profile: string;
  /** The verified merchantInfo record, every field as the service sent it (balances included). */
  readonly record: Readonly<Record<string, unknown>>;
  readonly fetchedAt: number;
}

interface MerchantInfoRow {
  profile: string;
  record_json: string;
  fetched_at: number;
}

const statements = perDatabase((db) => ({
  upsert: db.prepare(
    `INSERT INTO merchant_info (profile, record_json, fetched_at) VALUES (@profile, @record, @now)
     ON CONFLICT (profile) DO UPDATE SET record_json = excluded.record_json, fetched_at = excluded.fetched_at`,
  ),
  one: db.prepare('SELECT profile, record_json, fetched_at FROM merchant_info WHERE profile = ?'),
}));

/** Keeps a freshly verified merchantInfo record as the profile's current one. */
export function saveMerchantInfo(db: WritableDB, profile: string, record: Readonly<Record<string, unknown>>, now: number = Date.now()): void {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) throw invalidArgument('a merchantInfo record is a JSON object');
  statements(db).upsert.run({ profile, record: canonicalJson(record), now });
}

/** The profile's last merchantInfo record, or undefined when merchantInfo never answered for it. */
export function getMerchantInfo(db: ReadableDB, profile: string): StoredMerchantInfo | undefined {
  const row = statements(db).one.get(profile) as MerchantInfoRow | undefined;
  return row === undefined ? undefined : { profile: row.profile, record: parseObjectColumn(row.record_json), fetchedAt: row.fetched_at };
}
