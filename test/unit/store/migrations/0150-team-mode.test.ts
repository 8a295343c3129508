// Migration 0150 (team mode): a version 140 desk upgrades keeping its records, not yet a team desk and with an empty
// outbox; at schema 150 the team settings are one row only (id 1; a second is refused) starting unverified and
// disconnected, a refused row is kept once per (source, row, reason), and the STRICT tables refuse text where a number
// belongs and a missing value; through the store's functions (which need 0160's cleared_at too) the settings take the
// verified head and connection state, a second join is refused, and the outbox hands events back oldest first.
import { describe, expect, it } from 'vitest';
import { clockDriftHistory, recordClockDrift } from '../../../../electron/core/connection/connection-log-table';
import { userVersion, type StoreDatabase } from '../../../../electron/core/store/database';
import { getLabel, saveLabel } from '../../../../electron/core/labels/labels-table';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { createProfile } from '../../../../electron/core/profiles/profiles-table';
import { addTeamOutboxEvent, countTeamOutbox, getTeamSettings, nextTeamOutboxEvent, recordTeamConnection, recordVerifiedHead, removeTeamOutboxEvent, removeTeamSettings, saveTeamSettings } from '../../../../electron/core/team/team-table';
import { migration0150 } from '../../../../electron/core/store/migrations/0150-team-mode';
import { useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

const PROFILE = 'main';
const SETTINGS = { databaseUrl: 'postgres://desk@db.example:5432/treasury', workstation: 'ws-1', deskId: 'desk-42', joinedAt: 5_000 };

const tables = (db: StoreDatabase): string[] => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];
const count = (db: StoreDatabase, table: string): unknown => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();

describe('migration 0150-team-mode', () => {
  it('upgrades a version 140 database: its records stay, it is not a team desk yet and nothing waits to be published', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(140) });
    createProfile(old, { name: PROFILE, baseUrl: 'https://pay.example', merchantId: 'M-1' }, 1_000);
    saveLabel(old, PROFILE, { type: 'withdrawal', ref: 'td-1', label: 'rent', note: null }, 'alice', 2_000);
    recordClockDrift(old, PROFILE, { measuredAt: 3_000, driftSeconds: -2, source: 'selfcheck' });
    expect(tables(old).filter((name) => name.startsWith('team_'))).toEqual([]);
    old.close();

    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(150) });
    expect(userVersion(db)).toBe(150);
    expect(MIGRATIONS.find((migration) => migration.version === 150)).toBe(migration0150);
    expect(tables(db).filter((name) => name.startsWith('team_'))).toEqual(['team_outbox', 'team_refusals', 'team_settings']);
    expect(getLabel(db, PROFILE, 'withdrawal', 'td-1')).toMatchObject({ label: 'rent', updatedBy: 'alice' });
    expect(clockDriftHistory(db, PROFILE)).toEqual([{ measuredAt: 3_000, driftSeconds: -2, source: 'selfcheck' }]);
    expect([count(db, 'team_settings'), count(db, 'team_refusals'), count(db, 'team_outbox')]).toEqual([0, 0, 0]);
  });

  it('at schema 150 keeps one settings row (id 1), unverified and disconnected at first, typed and complete', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(150) });
    const join = db.prepare('INSERT INTO team_settings (id, database_url, workstation, desk_id, joined_at, connection_since) VALUES (?, ?, ?, ?, ?, ?)');
    expect(() => join.run(2, 'postgres://x', 'ws-1', 'desk-42', 5_000, 5_000)).toThrow(/CHECK/);
    join.run(1, 'postgres://x', 'ws-1', 'desk-42', 5_000, 5_000);
    expect(() => join.run(1, 'postgres://y', 'ws-2', 'desk-42', 6_000, 6_000)).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(() => join.run(3, 'postgres://y', 'ws-2', 'desk-42', 'now', 6_000)).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(db.prepare('SELECT id, workstation, verified_seq, verified_hash, verified_at, connected, connection_reason FROM team_settings').all()).toEqual([
      { id: 1, workstation: 'ws-1', verified_seq: 0, verified_hash: null, verified_at: null, connected: 0, connection_reason: null },
    ]);
    expect(() => db.prepare("UPDATE team_settings SET verified_seq = 'seventeen'").run()).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(() => db.prepare('UPDATE team_settings SET database_url = NULL').run()).toThrow(/NOT NULL/);
    expect(() => db.prepare('UPDATE team_settings SET id = 2').run()).toThrow(/CHECK/);
  });

  it('at schema 150 keeps a refused row once per source, row and reason, and outbox events typed and complete', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(150) });
    const refuse = db.prepare('INSERT INTO team_refusals (at, source, row_name, reason) VALUES (?, ?, ?, ?)');
    refuse.run(1, 'chain', 'audit row 7', 'audit row 7 was rewritten');
    expect(() => refuse.run(2, 'chain', 'audit row 7', 'audit row 7 was rewritten')).toThrow(/UNIQUE/);
    refuse.run(3, 'chain', 'audit row 7', 'audit row 7 was deleted');
    refuse.run(4, 'labels', 'audit row 7', 'audit row 7 was rewritten');
    expect(() => refuse.run('now', 'chain', 'audit row 8', 'r')).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(() => refuse.run(5, 'chain', 'audit row 8', null)).toThrow(/NOT NULL/);
    expect(db.prepare('SELECT at FROM team_refusals ORDER BY id').pluck().all()).toEqual([1, 3, 4]);
    const publish = db.prepare('INSERT INTO team_outbox (at, event_json) VALUES (?, ?)');
    publish.run(1, '{}');
    expect(() => publish.run('later', '{}')).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(() => publish.run(2, null)).toThrow(/NOT NULL/);
    expect(count(db, 'team_outbox')).toBe(1);
  });

  it('through the store: one join only, the verified head and connection state, the outbox oldest first', () => {
    // The store's team functions are prepared together and one of them reads 0160's cleared_at: the store's own schema.
    const db = temp.open();
    expect(getTeamSettings(db)).toBeNull();
    saveTeamSettings(db, SETTINGS);
    expect(getTeamSettings(db)).toEqual({ ...SETTINGS, verifiedSeq: 0, verifiedHash: null, verifiedAt: null, connected: false, connectionSince: 5_000, connectionReason: null });
    expect(() => saveTeamSettings(db, { ...SETTINGS, workstation: 'ws-2' })).toThrow(/UNIQUE|PRIMARY KEY/);
    recordVerifiedHead(db, { seq: 17, hash: 'f'.repeat(64) }, 6_000);
    recordTeamConnection(db, { connected: true, since: 6_500, reason: null });
    expect(getTeamSettings(db)).toMatchObject({ workstation: 'ws-1', verifiedSeq: 17, verifiedHash: 'f'.repeat(64), verifiedAt: 6_000, connected: true, connectionSince: 6_500 });
    recordTeamConnection(db, { connected: false, since: 7_000, reason: 'connection refused' });
    expect(getTeamSettings(db)).toMatchObject({ connected: false, connectionSince: 7_000, connectionReason: 'connection refused' });
    expect(removeTeamSettings(db)).toBe(true);
    expect(getTeamSettings(db)).toBeNull();
    expect(removeTeamSettings(db)).toBe(false);

    addTeamOutboxEvent(db, '{"kind":"approve","id":1}', 1_000);
    addTeamOutboxEvent(db, '{"kind":"reject","id":2}', 900);
    expect(countTeamOutbox(db)).toBe(2);
    const first = nextTeamOutboxEvent(db);
    expect(first?.eventJson).toBe('{"kind":"approve","id":1}');
    expect(nextTeamOutboxEvent(db)).toEqual(first);
    removeTeamOutboxEvent(db, first?.id ?? -1);
    expect(nextTeamOutboxEvent(db)?.eventJson).toBe('{"kind":"reject","id":2}');
    expect(() => addTeamOutboxEvent(db, '{}', 'later' as unknown as number)).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(countTeamOutbox(db)).toBe(1);
  });
});
