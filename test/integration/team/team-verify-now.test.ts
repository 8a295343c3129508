// `team verify` walks the whole shared chain and reports the state now (issue 18, item 9, finding 8): a shared row
// BELOW every workstation's verified head is rewritten, then deleted, in PostgreSQL: each workstation names the row and
// refuses decisions; once the row is restored, team verify clears the refusal (exit 0 again) and decisions work, while
// the refusals stay in the workstation's history.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { listTeamRefusalHistory } from '../../../electron/core/team/team-table';
import { ADMIN, APPROVER, INITIATOR, tronAddress } from '../engine/support';
import { adminSql, databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, within, type Workstation } from './desk-support';

const T = TEAM_SCHEMA;
let a: Workstation;
let b: Workstation;
let aDbPath: string;
let target: number;
let original: Record<string, unknown>;

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  a = first.a;
  aDbPath = first.desk.dbPath;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  await joinTeam(b, 'B', a, [APPROVER]);
  const request = (await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '21', toAddress: tronAddress(), as: INITIATOR })).withdrawal;
  await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '22', toAddress: tronAddress(), as: INITIATOR });
  await within('B has both requests', 5000, async () => (await b.value('withdrawals/list', { limit: 200 })).rows.length >= 2);
  const [row] = await adminSql<Record<string, unknown>>(`SELECT * FROM ${T}.audit_log WHERE kind = 'request' AND statement LIKE $1`, [`%${request.userOrder}%`]);
  original = row as Record<string, unknown>;
  target = Number(original['seq']);
  const [head] = await adminSql<{ seq: string }>(`SELECT max(seq) AS seq FROM ${T}.audit_log`);
  expect(Number(head?.seq)).toBeGreaterThan(target); // the row is below every workstation's verified head
}, 120_000);

afterAll(async () => {
  for (const workstation of [b, a]) await workstation?.close();
});

async function asOwner(sql: string, values: unknown[] = []): Promise<void> {
  await adminSql(`ALTER TABLE ${T}.audit_log DISABLE TRIGGER USER`);
  try {
    await adminSql(sql, values);
  } finally {
    await adminSql(`ALTER TABLE ${T}.audit_log ENABLE TRIGGER USER`);
  }
}

async function restoreRow(): Promise<void> {
  const columns = Object.keys(original);
  await asOwner(`DELETE FROM ${T}.audit_log WHERE seq = $1`, [target]);
  await asOwner(`INSERT INTO ${T}.audit_log (${columns.join(', ')}) VALUES (${columns.map((_, index) => `$${index + 1}`).join(', ')})`, columns.map((column) => original[column]));
}

/** team verify at every workstation names the row (exit 1: halted), and a decision is refused. */
async function everyoneNames(reason: RegExp): Promise<void> {
  for (const workstation of [a, b]) {
    const view = await workstation.value('team/verify', {});
    expect(view.halted, workstation.name).toMatch(reason);
    expect(view.refused.some((entry) => entry.rowName === `audit row ${target}` && reason.test(entry.reason)), `${workstation.name}: ${JSON.stringify(view.refused)}`).toBe(true);
    const status = await workstation.value('team/status', {});
    expect(status.halted, workstation.name).toMatch(reason);
  }
  const request = (await b.value('withdrawals/list', { limit: 200 })).rows.find((row) => row.state === 'awaitingApproval');
  const refused = await b.call('withdrawals/approve', { id: request?.id, as: APPROVER });
  expect(refused).toMatchObject({ ok: false, error: { code: 'unverified', message: expect.stringContaining(`audit row ${target}`) } });
}

/** team verify at every workstation holds (exit 0: not halted, nothing refused) and team status says the same. */
async function everyoneClear(): Promise<void> {
  for (const workstation of [a, b]) {
    const view = await workstation.value('team/verify', {});
    expect({ halted: view.halted, refused: view.refused }, workstation.name).toEqual({ halted: null, refused: [] });
    const status = await workstation.value('team/status', {});
    expect({ halted: status.halted, refused: status.refused }, workstation.name).toEqual({ halted: null, refused: [] });
  }
}

describe('team verify walks the whole shared chain and reports the state now', () => {
  it('starts clean', async () => {
    await everyoneClear();
  });

  it('names a rewritten row below the verified head, then clears it once the row is restored', async () => {
    // The signed text changes; the hash column is left as it was (the walk compares what was signed).
    await asOwner(`UPDATE ${T}.audit_log SET statement = replace(statement, '"amount":"21"', '"amount":"21000"') WHERE seq = $1`, [target]);
    await everyoneNames(new RegExp(`audit row ${target} is not the row this workstation verified: the shared chain was rewritten at row ${target}`));
    await restoreRow();
    await everyoneClear();
  });

  it('names a deleted row below the verified head, then clears it once the row is restored', async () => {
    await asOwner(`DELETE FROM ${T}.audit_log WHERE seq = $1`, [target]);
    await everyoneNames(new RegExp(`audit row ${target} is missing from the shared chain .*rows were deleted`));
    await restoreRow();
    await everyoneClear();
    // Decisions work again, and reach the other workstation.
    const request = (await b.value('withdrawals/list', { limit: 200 })).rows.find((row) => row.amount === '22');
    await b.value('withdrawals/approve', { id: request?.id, as: APPROVER });
    await within('A sees the approval', 5000, async () => (await a.value('withdrawals/list', { limit: 200 })).rows.find((row) => row.amount === '22')?.state === 'approved');
  });

  it('keeps the refusals as history at the workstation', () => {
    const db = new Database(aDbPath, { readonly: true });
    try {
      const history = listTeamRefusalHistory(db as never, 50).filter((entry) => entry.rowName === `audit row ${target}`);
      expect(history.map((entry) => entry.clearedAt !== null)).toEqual(history.map(() => true));
      expect(history.some((entry) => /rewritten/.test(entry.reason))).toBe(true);
      expect(history.some((entry) => /rows were deleted/.test(entry.reason))).toBe(true);
    } finally {
      db.close();
    }
  });
});
