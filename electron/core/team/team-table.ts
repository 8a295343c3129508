// This workstation's team-mode records (migration 0150): the team settings (URL without password, workstation name,
// desk id), the last verified shared row, the connection state, the refused rows and the outbox of desk-signed
// events waiting to be published. The database password never reaches this table (it lives in the keychain).
import { perDatabase, type ReadableDB, type WritableDB } from '../store/database';

export interface TeamSettings {
  readonly databaseUrl: string;
  readonly workstation: string;
  readonly deskId: string;
  readonly joinedAt: number;
  readonly verifiedSeq: number;
  readonly verifiedHash: string | null;
  readonly verifiedAt: number | null;
  readonly connected: boolean;
  readonly connectionSince: number;
  readonly connectionReason: string | null;
}

export interface TeamRefusal {
  readonly at: number;
  /** Where the refused row came from: `chain` or a projection table's name. */
  readonly source: string;
  /** The row as the refusal names it (e.g. `withdrawal_requests row 12 (userOrder td-…)`). */
  readonly rowName: string;
  readonly reason: string;
}

interface TeamSettingsDbRow {
  database_url: string;
  workstation: string;
  desk_id: string;
  joined_at: number;
  verified_seq: number;
  verified_hash: string | null;
  verified_at: number | null;
  connected: number;
  connection_since: number;
  connection_reason: string | null;
}

const statements = perDatabase((db) => ({
  get: db.prepare('SELECT * FROM team_settings WHERE id = 1'),
  insert: db.prepare(
    `INSERT INTO team_settings (id, database_url, workstation, desk_id, joined_at, connection_since)
     VALUES (1, @databaseUrl, @workstation, @deskId, @joinedAt, @joinedAt)`,
  ),
  remove: db.prepare('DELETE FROM team_settings WHERE id = 1'),
  verified: db.prepare('UPDATE team_settings SET verified_seq = ?, verified_hash = ?, verified_at = ? WHERE id = 1'),
  connection: db.prepare('UPDATE team_settings SET connected = ?, connection_since = ?, connection_reason = ? WHERE id = 1'),
  // A refusal found again after it was cleared holds again (from now); one found while it holds stays as it was.
  refuse: db.prepare(
    `INSERT INTO team_refusals (at, source, row_name, reason) VALUES (?, ?, ?, ?)
     ON CONFLICT (source, row_name, reason) DO UPDATE SET at = CASE WHEN cleared_at IS NULL THEN at ELSE excluded.at END, cleared_at = NULL`,
  ),
  refusals: db.prepare('SELECT at, source, row_name, reason FROM team_refusals WHERE cleared_at IS NULL ORDER BY id DESC LIMIT ?'),
  history: db.prepare('SELECT at, source, row_name, reason, cleared_at FROM team_refusals ORDER BY id DESC LIMIT ?'),
  holding: db.prepare('SELECT id, source, row_name, reason FROM team_refusals WHERE cleared_at IS NULL'),
  clear: db.prepare('UPDATE team_refusals SET cleared_at = ? WHERE id = ?'),
  outboxAdd: db.prepare('INSERT INTO team_outbox (at, event_json) VALUES (?, ?)'),
  outboxNext: db.prepare('SELECT id, event_json FROM team_outbox ORDER BY id LIMIT 1'),
  outboxCount: db.prepare('SELECT count(*) FROM team_outbox').pluck(),
  outboxDone: db.prepare('DELETE FROM team_outbox WHERE id = ?'),
}));

export function getTeamSettings(db: ReadableDB): TeamSettings | null {
  const row = statements(db).get.get() as TeamSettingsDbRow | undefined;
  if (!row) return null;
  return {
    databaseUrl: row.database_url,
    workstation: row.workstation,
    deskId: row.desk_id,
    joinedAt: row.joined_at,
    verifiedSeq: row.verified_seq,
    verifiedHash: row.verified_hash,
    verifiedAt: row.verified_at,
    connected: row.connected === 1,
    connectionSince: row.connection_since,
    connectionReason: row.connection_reason,
  };
}

/** Records that this desk is a team desk (the URL must already be without its password). */
export function saveTeamSettings(db: WritableDB, settings: { databaseUrl: string; workstation: string; deskId: string; joinedAt: number }): void {
  statements(db).insert.run(settings);
}

export function removeTeamSettings(db: WritableDB): boolean {
  return statements(db).remove.run().changes > 0;
}

export function recordVerifiedHead(db: WritableDB, head: { seq: number; hash: string }, now: number): void {
  statements(db).verified.run(head.seq, head.hash, now);
}

export function recordTeamConnection(db: WritableDB, state: { connected: boolean; since: number; reason: string | null }): void {
  statements(db).connection.run(state.connected ? 1 : 0, state.since, state.reason);
}

/** Remembers a refused row once (the same row refused for the same reason is one entry, holding again if it was cleared). */
export function recordTeamRefusal(db: WritableDB, refusal: TeamRefusal): void {
  statements(db).refuse.run(refusal.at, refusal.source, refusal.rowName, refusal.reason);
}

/** The refusals that hold now (newest first). */
export function listTeamRefusals(db: ReadableDB, limit: number): TeamRefusal[] {
  return (statements(db).refusals.all(limit) as { at: number; source: string; row_name: string; reason: string }[]).map((row) => ({
    at: row.at,
    source: row.source,
    rowName: row.row_name,
    reason: row.reason,
  }));
}

/** Every refusal, cleared ones too (newest first): the history. */
export function listTeamRefusalHistory(db: ReadableDB, limit: number): (TeamRefusal & { readonly clearedAt: number | null })[] {
  return (statements(db).history.all(limit) as { at: number; source: string; row_name: string; reason: string; cleared_at: number | null }[]).map((row) => ({
    at: row.at,
    source: row.source,
    rowName: row.row_name,
    reason: row.reason,
    clearedAt: row.cleared_at,
  }));
}

/**
 * Marks as cleared every holding refusal from one of `sources` that `stillHolding` does not list (a check of those
 * sources found it no more); answers the refusals cleared. The rows stay, as history.
 */
export function clearTeamRefusals(db: WritableDB, sources: readonly string[], stillHolding: readonly TeamRefusal[], now: number): TeamRefusal[] {
  const key = (refusal: { source: string; rowName: string; reason: string }): string => `${refusal.source}\n${refusal.rowName}\n${refusal.reason}`;
  const keep = new Set(stillHolding.map(key));
  const cleared: TeamRefusal[] = [];
  for (const row of statements(db).holding.all() as { id: number; source: string; row_name: string; reason: string }[]) {
    const refusal = { at: now, source: row.source, rowName: row.row_name, reason: row.reason };
    if (!sources.includes(row.source) || keep.has(key(refusal))) continue;
    statements(db).clear.run(now, row.id);
    cleared.push(refusal);
  }
  return cleared;
}

export function addTeamOutboxEvent(db: WritableDB, eventJson: string, now: number): void {
  statements(db).outboxAdd.run(now, eventJson);
}

export function nextTeamOutboxEvent(db: ReadableDB): { id: number; eventJson: string } | null {
  const row = statements(db).outboxNext.get() as { id: number; event_json: string } | undefined;
  return row ? { id: row.id, eventJson: row.event_json } : null;
}

export function countTeamOutbox(db: ReadableDB): number {
  return statements(db).outboxCount.get() as number;
}

export function removeTeamOutboxEvent(db: WritableDB, id: number): void {
  statements(db).outboxDone.run(id);
}
