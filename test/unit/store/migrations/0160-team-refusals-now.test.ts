// Migration 0160 (team refusals now): a schema-150 desk's refusals still hold after the upgrade; a cleared refusal
// leaves the list of those holding but stays in the history, and holds again (from then) when it is found again.
import { describe, expect, it } from 'vitest';
import { userVersion } from '../../../../electron/core/store/database';
import { MIGRATIONS } from '../../../../electron/core/store/migrations';
import { clearTeamRefusals, listTeamRefusalHistory, listTeamRefusals, recordTeamRefusal } from '../../../../electron/core/team/team-table';
import { migration0160 } from '../../../../electron/core/store/migrations/0160-team-refusals-now';
import { useTempDir } from '../helpers';
import { migrationsUpTo } from './helpers';

const temp = useTempDir();

const chain = { source: 'chain', rowName: 'audit row 7', reason: 'audit row 7 was rewritten' };
const label = { source: 'labels', rowName: 'labels row 2 (main/deposit:X)', reason: "labels row 2 says label 'Y'" };

describe('migration 0160-team-refusals-now', () => {
  it('upgrades a version 150 database: its refusals still hold', () => {
    const old = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(150) });
    old.prepare('INSERT INTO team_refusals (at, source, row_name, reason) VALUES (5, ?, ?, ?)').run(chain.source, chain.rowName, chain.reason);
    old.close();
    const db = temp.open('upgrade.sqlite', { migrations: migrationsUpTo(160) });
    expect(userVersion(db)).toBe(160);
    expect(MIGRATIONS.find((migration) => migration.version === 160)).toBe(migration0160);
    expect(listTeamRefusals(db, 10)).toEqual([{ at: 5, ...chain }]);
  });

  it('clears only the sources checked and what the check no longer found; a refusal found again holds again', () => {
    const db = temp.open(undefined, { migrations: migrationsUpTo(160) });
    recordTeamRefusal(db, { at: 1, ...chain });
    recordTeamRefusal(db, { at: 2, ...label });
    expect(clearTeamRefusals(db, ['labels'], [{ at: 3, ...label }], 3)).toEqual([]);
    expect(clearTeamRefusals(db, ['chain'], [], 4)).toEqual([{ at: 4, ...chain }]);
    expect(listTeamRefusals(db, 10)).toEqual([{ at: 2, ...label }]);
    expect(listTeamRefusalHistory(db, 10).find((entry) => entry.source === 'chain')).toEqual({ at: 1, ...chain, clearedAt: 4 });
    recordTeamRefusal(db, { at: 9, ...chain });
    expect(listTeamRefusals(db, 10).find((entry) => entry.source === 'chain')).toEqual({ at: 9, ...chain });
    recordTeamRefusal(db, { at: 12, ...chain });
    expect(listTeamRefusals(db, 10).find((entry) => entry.source === 'chain')?.at).toBe(9);
  });
});
