// Tampering in PostgreSQL: the database's owner flips a request's state, adds an approval row, edits an amount (in a
// projection row and in a signed chain row), edits a label row and an address-book row, and deletes audit rows. Every workstation refuses what was changed and
// names the row; a workstation joining afterwards refuses the edited chain row; after the chain is cut, decisions are
// refused, naming what was removed, and nothing changes in the local copies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_SCHEMA } from '../../../electron/core/team/pg-migrations';
import { ADMIN, APPROVER, INITIATOR, tronAddress } from '../engine/support';
import { adminSql, databaseUrl, emptyTeamDatabase, genesisOf, joinTeam, openFirstWorkstation, openWorkstation, within, type Workstation } from './desk-support';

const T = TEAM_SCHEMA;
let a: Workstation;
let b: Workstation;
let c: Workstation;
let waiting: string;
let approved: string;

beforeAll(async () => {
  await emptyTeamDatabase();
  a = (await openFirstWorkstation()).a;
  await a.value('team/init', { database: databaseUrl(), workstation: 'A', as: ADMIN });
  b = await openWorkstation('B');
  c = await openWorkstation('C');
  await joinTeam(b, 'B', a, [APPROVER]);
  await joinTeam(c, 'C', a, [APPROVER]);
  waiting = (await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '17', toAddress: tronAddress(), as: INITIATOR })).withdrawal.userOrder;
  const second = (await a.value('withdrawals/request', { currency: 'trx.usdt', amount: '18', toAddress: tronAddress(), as: INITIATOR })).withdrawal;
  await a.value('withdrawals/approve', { id: second.id, as: APPROVER });
  approved = second.userOrder;
  for (const workstation of [b, c]) await within(`the requests at ${workstation.name}`, 2000, async () => (await workstation.find(approved))?.state === 'approved');
}, 120_000);

afterAll(async () => {
  for (const workstation of [c, b, a]) await workstation?.close();
});

async function projectionId(table: string, key: string): Promise<number> {
  const [row] = await adminSql<{ id: string }>(`SELECT id FROM ${T}.${table} WHERE key = $1`, [key]);
  return Number(row?.id);
}

/** Every workstation's team/verify names the row with this text; its local copy is unchanged. */
async function everyoneRefuses(rowName: string, reason: RegExp): Promise<void> {
  for (const workstation of [a, b, c]) {
    const view = await workstation.value('team/verify', {});
    const refusal = view.refused.find((entry) => entry.rowName === rowName && reason.test(entry.reason));
    expect(refusal, `${workstation.name} refuses ${rowName}: ${JSON.stringify(view.refused)}`).toBeDefined();
  }
}

describe('tampering in the team database', () => {
  it('refuses a flipped state, naming the row, and keeps what the statements say', async () => {
    const id = await projectionId('withdrawal_requests', waiting);
    await adminSql(`UPDATE ${T}.withdrawal_requests SET data = jsonb_set(data, '{state}', '"approved"') WHERE key = $1`, [waiting]);
    await everyoneRefuses(`withdrawal_requests row ${id} (userOrder ${waiting})`, /says state 'approved' but its signed statements say 'awaitingApproval'; the row is ignored/);
    for (const workstation of [a, b, c]) expect((await workstation.find(waiting))?.state).toBe('awaitingApproval');
  });

  it('refuses an approval row no statement stands behind', async () => {
    await adminSql(`INSERT INTO ${T}.approvals (key, data) VALUES ($1, $2)`, [`${waiting}/mallory`, { userOrder: waiting, operator: 'mallory', decision: 'approve', seq: 3 }]);
    const id = await projectionId('approvals', `${waiting}/mallory`);
    await everyoneRefuses(`approvals row ${id} (userOrder ${waiting}, operator mallory)`, /has no signed approve statement behind it; the row is ignored/);
    for (const workstation of [a, b, c]) expect((await workstation.find(waiting))?.approvals).toEqual([]);
  });

  it('refuses an edited amount in a projection row', async () => {
    const id = await projectionId('withdrawal_requests', approved);
    await adminSql(`UPDATE ${T}.withdrawal_requests SET data = jsonb_set(data, '{amount}', '"18000"') WHERE key = $1`, [approved]);
    await everyoneRefuses(`withdrawal_requests row ${id} (userOrder ${approved})`, /says amount '18000' but its signed statements say '18'/);
    for (const workstation of [a, b, c]) expect((await workstation.find(approved))?.amount).toBe('18');
  });

  it('refuses an edited label row and an edited address-book row, naming each, and keeps what the statements say', async () => {
    const book = tronAddress();
    await a.value('labels/set', { type: 'deposit', ref: 'API-ORDER-TAMPER', label: 'Invoice 88', note: null, as: INITIATOR });
    await a.value('addressbook/add', { chain: 'trx', address: book, label: 'Supplier', as: INITIATOR });
    const labelKey = 'main/deposit:API-ORDER-TAMPER';
    const bookKey = `main/trx:${book}`;
    const [labelRow] = await adminSql<{ data: Record<string, unknown> }>(`SELECT data FROM ${T}.labels WHERE key = $1`, [labelKey]);
    expect(labelRow?.data).toEqual({ profile: 'main', type: 'deposit', ref: 'API-ORDER-TAMPER', label: 'Invoice 88', note: null });
    const [bookRow] = await adminSql<{ data: Record<string, unknown> }>(`SELECT data FROM ${T}.address_book WHERE key = $1`, [bookKey]);
    expect(bookRow?.data).toMatchObject({ chain: 'trx', address: book, label: 'Supplier' });
    const standing = String(bookRow?.data['state']);
    expect(['inForce', 'proposed']).toContain(standing);
    for (const workstation of [b, c]) {
      await within(`the label at ${workstation.name}`, 2000, async () => (await workstation.value('labels/search', { text: 'Invoice 88' })).length === 1);
      await within(`the book entry at ${workstation.name}`, 2000, async () => JSON.stringify(await workstation.value('addressbook/list', {})).includes(book));
    }
    // Untouched rows are accepted by every workstation.
    for (const workstation of [a, b, c]) {
      const view = await workstation.value('team/verify', {});
      expect(view.refused.filter((entry) => entry.source === 'labels' || entry.source === 'address_book'), workstation.name).toEqual([]);
    }
    await adminSql(`UPDATE ${T}.labels SET data = jsonb_set(data, '{label}', '"Paid in full"') WHERE key = $1`, [labelKey]);
    await adminSql(`UPDATE ${T}.address_book SET data = jsonb_set(data, '{label}', '"Mallory Ltd"') WHERE key = $1`, [bookKey]);
    const labelId = await projectionId('labels', labelKey);
    const bookId = await projectionId('address_book', bookKey);
    await everyoneRefuses(`labels row ${labelId} (${labelKey})`, /says label 'Paid in full' but its signed statements say 'Invoice 88'; the row is ignored/);
    await everyoneRefuses(`address_book row ${bookId} (${bookKey})`, /says label 'Mallory Ltd' but its signed statements say 'Supplier'; the row is ignored/);
    for (const workstation of [a, b, c]) {
      expect(await workstation.value('labels/search', { text: 'Invoice 88' }), workstation.name).toHaveLength(1);
      expect((await workstation.value('addressbook/list', {})).entries.find((entry) => entry.address === book)?.label ?? null, workstation.name).not.toBe('Mallory Ltd');
    }
  });

  it('refuses an edited amount in a signed chain row: a workstation joining now names the row, and so does every workstation that verified it', async () => {
    const [row] = await adminSql<{ seq: string }>(`SELECT seq FROM ${T}.audit_log WHERE kind = 'request' AND statement LIKE $1`, [`%${approved}%`]);
    const seq = Number(row?.seq);
    await adminSql(`ALTER TABLE ${T}.audit_log DISABLE TRIGGER USER`);
    await adminSql(`UPDATE ${T}.audit_log SET statement = replace(statement, '"amount":"18"', '"amount":"18000"') WHERE seq = $1`, [seq]);
    await adminSql(`ALTER TABLE ${T}.audit_log ENABLE TRIGGER USER`);
    const late = await openWorkstation('E');
    try {
      const joined = await late.call('team/join', { database: databaseUrl(), workstation: 'E', as: ADMIN, genesis: await genesisOf(a) });
      expect(joined).toMatchObject({ ok: false, error: { code: 'unverified', message: expect.stringContaining(`audit row ${seq}: row ${seq} does not match its hash`) } });
      // Nothing was joined: no team settings, no rows.
      expect(await late.value('team/status', {})).toMatchObject({ enabled: false });
      expect(await late.value('audit/head', {})).toEqual({ head: null });
    } finally {
      await late.close();
    }
    // The workstations that already verified the row: team verify walks the whole chain and names it (finding 8).
    for (const workstation of [a, b, c]) {
      const view = await workstation.value('team/verify', {});
      expect(view.halted, workstation.name).toMatch(new RegExp(`audit row ${seq} is not the row this workstation verified: the shared chain was rewritten at row ${seq}`));
    }
    // Put back as it was: the refusal clears (the state now), and the next test starts from a whole chain.
    await adminSql(`ALTER TABLE ${T}.audit_log DISABLE TRIGGER USER`);
    await adminSql(`UPDATE ${T}.audit_log SET statement = replace(statement, '"amount":"18000"', '"amount":"18"') WHERE seq = $1`, [seq]);
    await adminSql(`ALTER TABLE ${T}.audit_log ENABLE TRIGGER USER`);
    for (const workstation of [a, b, c]) expect((await workstation.value('team/verify', {})).halted, workstation.name).toBeNull();
  });

  it('reports deleted audit rows on every workstation, naming the row, and refuses decisions', async () => {
    const [head] = await adminSql<{ seq: string }>(`SELECT max(seq) AS seq FROM ${T}.audit_log`);
    const last = Number(head?.seq);
    await adminSql(`ALTER TABLE ${T}.audit_log DISABLE TRIGGER USER`);
    await adminSql(`DELETE FROM ${T}.audit_log WHERE seq >= $1`, [last - 1]);
    await adminSql(`ALTER TABLE ${T}.audit_log ENABLE TRIGGER USER`);
    for (const workstation of [a, b, c]) {
      const view = await workstation.value('team/verify', {});
      expect(view.halted, workstation.name).toMatch(new RegExp(`ends at row ${last - 2}, but this workstation verified row ${last}: rows were removed`));
      expect(view.refused.some((entry) => entry.rowName === `audit row ${last - 1}`)).toBe(true);
    }
    const atB = await b.find(waiting);
    const refused = await b.call('withdrawals/approve', { id: atB?.id, as: APPROVER });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unverified', message: expect.stringContaining('stopped trusting the team database') } });
    // Reviewing keeps working from the local copy.
    expect((await b.find(waiting))?.state).toBe('awaitingApproval');
  });
});
