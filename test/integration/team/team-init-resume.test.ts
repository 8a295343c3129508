// An interrupted `team init` (the team database went away while the desk's chain was being moved in) is finished by
// running team init again: the move continues after the rows the database already holds, when they are this desk's
// own first rows, without signing the workstation's enrolment twice. A database holding this desk's identity with
// rows of another history is refused, changing nothing.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SharedChainRow } from '../../../electron/core/team/shared-store';
import { AUDIT_COLUMNS, auditRowFromDb, type AuditDbRow } from '../../../electron/core/audit/audit-table';
import { ADMIN, INITIATOR, openDesk, type Desk } from '../engine/support';
import { databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openTestStore, openWorkstation, type Workstation } from './desk-support';

let first: Desk;
let a: Workstation;
let other: Desk;

/** A desk's local chain (rows 1..upTo) and its desk id, read straight from its SQLite file. */
function localChain(desk: Desk, upTo = Number.MAX_SAFE_INTEGER): { deskId: string; rows: SharedChainRow[] } {
  const db = new Database(desk.dbPath, { readonly: true });
  try {
    const deskId = JSON.parse((db.prepare("SELECT value_json FROM settings WHERE key = 'desk.id'").get() as { value_json: string }).value_json) as string;
    const rows = (db.prepare(`SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE seq <= ? ORDER BY seq`).all(upTo) as AuditDbRow[]).map(auditRowFromDb);
    return { deskId, rows };
  } finally {
    db.close();
  }
}

/** What an init that stopped after its first append leaves: the desk's identity and its first rows. */
async function interruptedMove(deskId: string, rows: readonly SharedChainRow[]): Promise<void> {
  const store = await openTestStore(databaseUrl());
  try {
    await store.initialise(deskId, Date.now());
    expect(await store.append(rows, [], null)).toMatchObject({ appended: true });
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  const opened = await openFirstWorkstation();
  first = opened.desk;
  a = opened.a;
  other = await openDesk({ engine: { openSharedStore: openTestStore } });
}, 120_000);

afterAll(async () => {
  await other?.close();
  await a?.close();
});

describe('an interrupted team init', () => {
  it('is refused when the database holds this desk with rows of another history, changing nothing', async () => {
    await emptyTeamDatabase();
    // This desk's identity, but another desk's first rows (a restored backup of the wrong desk, say).
    await interruptedMove(localChain(first).deskId, localChain(other, 3).rows);
    const answer = await a.call('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
    expect(answer).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringMatching(/holds this desk with audit rows this workstation does not have \(row 3 differs\)/) } });
    expect(await a.value('team/status', {})).toMatchObject({ enabled: false, database: null });
  }, 60_000);

  it('continues after the rows the database holds, and the workstations agree on one chain', async () => {
    await emptyTeamDatabase();
    // A label made before the move: its row reaches the team database's labels table with the move.
    await a.value('labels/set', { type: 'deposit', ref: 'API-ORDER-BEFORE-MOVE', label: 'Set before team init', as: INITIATOR });
    const before = localChain(first);
    const moved = Math.max(1, Math.floor(before.rows.length / 2));
    await interruptedMove(before.deskId, before.rows.slice(0, moved));
    await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
    const after = localChain(first).rows;
    // One enrolment of this workstation, signed by the resumed init.
    expect(after.filter((row) => row.action === 'team/workstation' && row.subject === 'A')).toHaveLength(1);
    const store = await openTestStore(databaseUrl());
    try {
      const shared = await store.rowsAfter(0, after.length + 10);
      expect(shared.map((row) => row.hash)).toEqual(after.map((row) => row.hash));
      const labels = await store.projection('labels', { limit: 50 });
      expect(labels.rows.map((write) => write.row)).toContainEqual(expect.objectContaining({ ref: 'API-ORDER-BEFORE-MOVE', label: 'Set before team init' }));
    } finally {
      await store.close();
    }
    const b = await openWorkstation('B');
    try {
      await joinTeam(b, 'B', a, []);
      expect(await b.value('audit/verify', {})).toMatchObject({ ok: true });
      // B's chain is the shared one: A's moved rows, then B's own enrolment.
      expect((await b.value('audit/head', {})).head?.seq).toBeGreaterThan(after.length);
    } finally {
      await b.close();
    }
  }, 120_000);
});
