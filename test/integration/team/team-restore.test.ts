// IT restores the team database from a backup older than the workstations' heads (issue 18, item 11): every
// workstation reports the rollback, naming the first lost row, and refuses to send; one admin proposes the re-anchor,
// the same admin cannot confirm it, a second admin does; the lost rows are back (the very rows, same hashes), every
// workstation trusts the database again, and work continues: the approved request is sent once, nothing is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, APPROVER, INITIATOR, SECOND_ADMIN, tronAddress, type Desk } from '../engine/support';
import { adminSql, databaseUrl, emptyTeamDatabase, joinTeam, openFirstWorkstation, openWorkstation, sandboxOrders, within, type Workstation } from './desk-support';

const T = TEAM_SCHEMA;
const BACKUP = 'td_restore_backup';
let desk: Desk;
let a: Workstation;
let b: Workstation;
let c: Workstation;
let backupHead: number;
let lostOrder: string;
let keptOrder: string;

async function sharedHead(): Promise<number> {
  const [row] = await adminSql<{ seq: string | null }>(`SELECT max(seq) AS seq FROM ${T}.audit_log`);
  return Number(row?.seq ?? 0);
}

/** Every workstation verified the shared head. */
async function allAtHead(): Promise<number> {
  const head = await sharedHead();
  for (const workstation of [a, b, c]) await within(`${workstation.name} at row ${head}`, 5000, async () => (await workstation.value('team/status', {})).verifiedSeq === head);
  return head;
}

async function tables(schema: string): Promise<string[]> {
  return (await adminSql<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`, [schema])).map((row) => row.table_name);
}

/** IT's backup: a copy of every table of the team schema. */
async function backUp(): Promise<void> {
  await adminSql(`DROP SCHEMA IF EXISTS ${BACKUP} CASCADE`);
  await adminSql(`CREATE SCHEMA ${BACKUP}`);
  for (const table of await tables(T)) await adminSql(`CREATE TABLE ${BACKUP}.${table} AS SELECT * FROM ${T}.${table}`);
}

/** IT's restore: every table of the team schema back as the backup holds it. */
async function restore(): Promise<void> {
  for (const table of await tables(T)) {
    await adminSql(`ALTER TABLE ${T}.${table} DISABLE TRIGGER USER`);
    await adminSql(`DELETE FROM ${T}.${table}`);
    await adminSql(`INSERT INTO ${T}.${table} SELECT * FROM ${BACKUP}.${table}`);
    await adminSql(`ALTER TABLE ${T}.${table} ENABLE TRIGGER USER`);
  }
}

beforeAll(async () => {
  await emptyTeamDatabase();
  const first = await openFirstWorkstation();
  desk = first.desk;
  a = first.a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  c = await openWorkstation('C');
  await joinTeam(b, 'B', a, [APPROVER]);
  await joinTeam(c, 'C', a, [INITIATOR, APPROVER]);
  keptOrder = (await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '31', toAddress: tronAddress(), as: INITIATOR })).withdrawal.userOrder;
  backupHead = await allAtHead();
  await backUp();
  // Work after the backup: a new request, approved at B; the older one rejected at C.
  lostOrder = (await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '32', toAddress: tronAddress(), as: INITIATOR })).withdrawal.userOrder;
  await within('B has the new request', 5000, async () => (await b.find(lostOrder)) !== undefined);
  await b.value('withdrawals/approve', { id: (await b.find(lostOrder))?.id, as: APPROVER });
  await within('C has the approval', 5000, async () => (await c.find(lostOrder))?.state === 'approved');
  await c.value('withdrawals/reject', { id: (await c.find(keptOrder))?.id, as: APPROVER, reason: 'not this week' });
  expect(await allAtHead()).toBeGreaterThan(backupHead + 2);
}, 180_000);

afterAll(async () => {
  for (const workstation of [c, b, a]) await workstation?.close();
  await adminSql(`DROP SCHEMA IF EXISTS ${BACKUP} CASCADE`).catch(() => undefined);
});

describe('restore from a backup older than the workstations heads', () => {
  let headBefore: number;
  let hashesBefore: { seq: string; hash: string }[];

  it('every workstation reports the rollback, naming the first lost row, and refuses to send', async () => {
    headBefore = await sharedHead();
    hashesBefore = await adminSql<{ seq: string; hash: string }>(`SELECT seq, hash FROM ${T}.audit_log ORDER BY seq`);
    await restore();
    expect(await sharedHead()).toBe(backupHead);
    for (const workstation of [a, b, c]) {
      const view = await workstation.value('team/verify', {});
      expect(view.halted, workstation.name).toMatch(new RegExp(`ends at row ${backupHead}, but this workstation verified row ${headBefore}: .*restored from an older backup.*team reanchor`));
      expect(view.refused.some((entry) => entry.rowName === `audit row ${backupHead + 1}`), workstation.name).toBe(true);
    }
    const refused = await a.call('withdrawals/submit', { id: (await a.find(lostOrder))?.id, as: INITIATOR });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unverified', message: expect.stringContaining('stopped trusting the team database') } });
    expect(sandboxOrders(desk).filter((order) => order.userOrder === lostOrder)).toEqual([]);
    // Decisions wait too, at every workstation.
    expect(await c.call('withdrawals/cancel', { id: (await c.find(lostOrder))?.id, as: INITIATOR })).toMatchObject({ ok: false, error: { code: 'unverified' } });
  });

  it('re-anchors with two admins: one proposes, the same admin cannot confirm, a second admin does', async () => {
    const proposed = await a.value('team/reanchor', { as: ADMIN });
    expect(proposed).toMatchObject({ step: 'proposed', proposer: 'alice', confirmer: null, fromSeq: backupHead + 1, toSeq: headBefore });
    expect(await sharedHead()).toBe(backupHead); // nothing is republished on one admin's word
    expect(await a.call('team/reanchor', { as: ADMIN, confirm: true })).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('needs two admins') } });
    const done = await a.value('team/reanchor', { as: SECOND_ADMIN, confirm: true });
    expect(done).toMatchObject({ step: 'done', proposer: 'alice', confirmer: 'frank', fromSeq: backupHead + 1, toSeq: headBefore, team: { halted: null } });
    // The very rows are back, then the confirmer's signed record of the re-anchor.
    const after = await adminSql<{ seq: string; hash: string; action: string; operator: string | null }>(`SELECT seq, hash, action, operator FROM ${T}.audit_log ORDER BY seq`);
    expect(after.slice(0, hashesBefore.length).map(({ seq, hash }) => ({ seq, hash }))).toEqual(hashesBefore);
    expect(after.slice(hashesBefore.length).map((row) => [row.action, row.operator])).toEqual([['team/reanchored', 'frank']]);
    // A second confirmation finds nothing proposed.
    expect(await a.call('team/reanchor', { as: SECOND_ADMIN, confirm: true })).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('no re-anchor is proposed') } });
  });

  it('every workstation trusts the database again and work continues with nothing lost', async () => {
    await allAtHead();
    for (const workstation of [a, b, c]) {
      const view = await workstation.value('team/verify', {});
      expect({ halted: view.halted, refused: view.refused }, workstation.name).toEqual({ halted: null, refused: [] });
      expect((await workstation.find(lostOrder))?.state, workstation.name).toBe('approved');
      expect((await workstation.find(keptOrder))?.state, workstation.name).toBe('rejected');
    }
    expect((await a.value('withdrawals/submit', { id: (await a.find(lostOrder))?.id, as: INITIATOR })).state).toBe('submitted');
    expect(sandboxOrders(desk).filter((order) => order.userOrder === lostOrder)).toEqual([{ userOrder: lostOrder, count: 1 }]);
    for (const workstation of [b, c]) await within(`the submission at ${workstation.name}`, 5000, async () => (await workstation.find(lostOrder))?.state === 'submitted');
  });
});
